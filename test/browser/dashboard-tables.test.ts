/**
 * The dashboard's tables in chromium, at desktop and phone sizes: search a payout by reference,
 * filter by status, page past 50 rows (the Payouts view); open a delivery and copy its pretty payload
 * and signature, follow a delivery to its event and an event to its deliveries, a time relative to the
 * merchant's clock with UTC and the local time in the browser's zone in its tip, no page wider than the
 * screen with a large payload, rows as stacked cards on a phone (the Events and deliveries view); and
 * the Tab presses from the page's top to the first "Redeliver". axe-core on every state: no critical or
 * serious violation.
 */
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { receivers, START } from "../helpers.js";
import { axeViolations, merchantAt, openPage, SCREENSHOTS, SKIP_BROWSER, useBrowserSandbox, SIZES } from "./browser.js";
import { focusedId, LOAD, navigate, settled, signIn } from "./dashboard-driver.js";

const ctx = useBrowserSandbox();
const receiver = receivers();

/** No payout limit gets in the way of 60 payouts in a row. */
const UNLIMITED = { limits: { payout_attempts_per_hour: 0, payout_attempts_per_ip_per_hour: 0, requests_per_minute: 0 } };
const transfer = (reference: string) => ({
  amount: 1000, bank_code: "058", account_number: "0000000018", account_name: "EZE FUNMILAYO IBRAHIM", bank_name: "Guaranty Trust Bank", reference,
});
/** Strings: this project compiles without the DOM types. */
const js = <T,>(page: Page, code: string) => page.evaluate(code) as Promise<T>;
const clipboard = (page: Page) => js<string>(page, "navigator.clipboard.readText()");
const pageScrollsSideways = (page: Page) => js<boolean>(page, "document.documentElement.scrollWidth > document.documentElement.clientWidth");

/** A merchant with a virtual account that received one transfer, its webhook delivered to a receiver. */
async function withDelivery(extra: Record<string, unknown> = {}) {
  const r = await receiver();
  const m = await merchantAt(ctx.sandbox.url, { business_name: "Mama Put", webhook_url: r.url, ...UNLIMITED, ...extra });
  const account = (await m.api("POST", "/api/v1/virtual-account/create", { first_name: "Ada", last_name: "Obi", email: "ada@example.com", bvn: "22212345678", reference: "cust-1", bank: "partnerbank" })).data;
  expect(account, "virtual account").toBeDefined();
  // A long word in the narration: the payload must still wrap inside its panel.
  const narration = `Order-${"x".repeat(150)}`;
  expect((await m.api("POST", `/sandbox/v1/virtual-accounts/${account.account_number}/transfers`, { amount: 7500, narration, payer_name: "BELLO HALIMA", payer_bank: "Zenith Bank" })).success).toBe(true);
  await m.api("POST", "/sandbox/v1/clock/advance", { seconds: 0 });
  await expect.poll(() => r.received.length).toBe(1);
  return { m, r };
}

describe.skipIf(SKIP_BROWSER)("dashboard tables", () => {
  for (const size of SIZES) {
    it(`${size.name}: search, filter and page the payouts; no serious axe violation`, async () => {
      const m = await merchantAt(ctx.sandbox.url, { business_name: "Buka Hut", wallet_balance: 100_000_000, ...UNLIMITED });
      for (let i = 0; i < 60; i++) expect((await m.api("POST", "/api/v1/payout/transfer", transfer(`pay-${String(i).padStart(2, "0")}`))).success).toBe(true);
      await m.api("POST", "/sandbox/v1/payouts/pay-07/complete");
      const { page, violations, external } = await openPage(ctx, `${ctx.sandbox.url}/dashboard`, size.width, { height: size.height });
      await signIn(page, m.keys);
      await settled(page, "Home");
      await navigate(page, size.name === "phone", "Payouts");
      const section = page.locator("#payouts");
      const rows = section.locator("[data-payout]");
      await expect.poll(() => rows.count(), LOAD).toBe(50);
      expect(await section.getByTestId("table-count").textContent()).toBe("Showing 1–50 of 60");
      expect(await axeViolations(page)).toEqual([]);

      // Page 2: the 10 oldest; the focus stays on the pager (a button gone at either end: the count).
      await section.getByRole("button", { name: "Next page of payouts" }).click();
      await expect.poll(() => section.getByTestId("table-count").textContent()).toBe("Showing 51–60 of 60");
      expect(await rows.count()).toBe(10);
      expect(await rows.last().getAttribute("data-payout")).toBe("pay-00");
      expect(await focusedId(page)).toBe("payouts-list-count");
      await section.getByRole("button", { name: "Previous page of payouts" }).click();
      await expect.poll(() => section.getByTestId("table-count").textContent()).toBe("Showing 1–50 of 60");
      expect(await focusedId(page)).toBe("payouts-list-count");

      // Search by part of a reference, by keyboard: the focus stays in the search box.
      await section.getByLabel("Search reference, order or account").fill("pay-1");
      await page.keyboard.press("Enter");
      await expect.poll(() => section.getByTestId("table-count").textContent()).toBe("Showing all 10 matching");
      expect(await focusedId(page)).toBe("payouts-list-q");
      expect(await rows.first().getAttribute("data-payout")).toBe("pay-19");
      await page.screenshot({ path: `${SCREENSHOTS}/dashboard-tables-search-${size.name}.png` });

      // Filter by status (the search cleared): the one completed payout.
      await section.getByLabel("Search reference, order or account").fill("");
      await section.getByLabel("Status").selectOption("completed");
      await section.getByRole("button", { name: "Apply" }).click();
      await expect.poll(() => rows.count()).toBe(1);
      expect(await rows.first().getAttribute("data-payout")).toBe("pay-07");
      expect(await focusedId(page)).toBe("payouts-list-apply");
      // A refresh keeps the query: still filtered, by the Refresh button and by the live updates.
      await page.getByRole("button", { name: "Refresh" }).click();
      await page.waitForTimeout(300);
      expect(await rows.count()).toBe(1);
      await m.api("POST", "/sandbox/v1/payouts/pay-08/complete");
      await expect.poll(() => rows.count(), LOAD).toBe(2);
      expect(await rows.evaluateAll((r) => r.map((row) => row.getAttribute("data-payout")))).toEqual(["pay-08", "pay-07"]);
      expect(await axeViolations(page)).toEqual([]);
      expect(violations).toEqual([]);
      expect(external).toEqual([]);
      await page.close();
    }, 90_000);

    it(`${size.name}: a delivery's pretty payload and signature copied, delivery and event linked both ways, local time; no serious axe violation`, async () => {
      // A manual clock: the delivery's time reads against it, never against the wall clock.
      const { m, r } = await withDelivery({ clock: { mode: "manual", now: new Date(START).toISOString() } });
      const { page, violations, external } = await openPage(ctx, `${ctx.sandbox.url}/dashboard`, size.width, { height: size.height, clipboard: true, timezoneId: "Africa/Lagos" });
      await signIn(page, m.keys);
      await settled(page, "Home");
      await navigate(page, size.name === "phone", "Events and deliveries");
      const events = page.locator("#events");
      const delivery = events.locator("[data-delivery-id]");
      await expect.poll(() => delivery.count(), LOAD).toBe(1);
      const id = await delivery.getAttribute("data-delivery-id");

      // A time relative to the merchant's clock; its tip, on hover, says UTC and the browser's local time.
      const created = events.locator("[data-event-row] td").nth(6).locator("time.when");
      expect(await created.getAttribute("datetime")).toBe(new Date(START).toISOString());
      const tip = created.locator(".tip");
      expect(await tip.textContent()).toMatch(/^2026-03-02 09:00:00Z\nYour time: 2026-03-02 10:00:00 (WAT|GMT\+1)$/);
      expect(await created.textContent()).toBe(`just now${await tip.textContent()}`);
      expect(await tip.isVisible()).toBe(false);
      await created.hover();
      await expect.poll(() => tip.isVisible()).toBe(true);

      // Open the delivery: the payload indented, wrapped in its panel; Copy puts it on the clipboard.
      await delivery.locator("summary").click();
      const body = page.locator(`#delivery-${id}-body`);
      const received = r.received[0]!;
      expect(await body.textContent()).toBe(JSON.stringify(received.body, null, 2));
      // Nothing scrolls sideways: on a phone each row is a card, each cell named by its column.
      expect(await pageScrollsSideways(page)).toBe(false);
      const region = page.getByRole("region", { name: "Webhook deliveries table" });
      expect(await region.evaluate((r) => r.scrollWidth > r.clientWidth + 1)).toBe(false);
      expect(await region.getAttribute("tabindex")).toBe(null);
      const label = await js<string>(page, `getComputedStyle(document.querySelector("#events [data-delivery-id] td"), "::before").content`);
      expect(label).toBe(size.name === "phone" ? '"Sent"' : "none");
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `${SCREENSHOTS}/dashboard-tables-delivery-${size.name}.png`, fullPage: false });
      await events.getByRole("button", { name: `Copy payload of delivery ${id}` }).click();
      await expect.poll(() => clipboard(page)).toBe(JSON.stringify(received.body, null, 2));
      expect(await page.locator("#events-result").textContent()).toBe(`Copied the payload of delivery ${id} to the clipboard.`);
      await events.getByRole("button", { name: `Copy signature of delivery ${id}` }).click();
      await expect.poll(() => clipboard(page)).toBe(String(received.headers["x-webhook-signature"]));

      // Delivery → event: the events table narrowed to it, its row focused.
      const eventId = (await events.locator("[data-event-row]").getAttribute("data-event-row"))!;
      await events.getByRole("link", { name: `Event ${eventId}` }).click();
      await expect.poll(() => focusedId(page)).toBe(`event-${eventId}`);
      expect(await events.locator("#events-list-q").inputValue()).toBe(eventId);
      // Event → deliveries: the deliveries table narrowed to its deliveries, its heading focused.
      await events.getByRole("link", { name: `1 delivery of ${eventId}` }).click();
      await expect.poll(() => focusedId(page)).toBe("deliveries-heading");
      expect(await page.locator("#deliveries-heading").textContent()).toBe(`Webhook deliveries of ${eventId}`);
      expect(await delivery.count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);
      await events.getByRole("link", { name: "Show every event's deliveries" }).click();
      await expect.poll(() => page.locator("#deliveries-heading").textContent()).toBe("Webhook deliveries");
      expect(violations).toEqual([]);
      expect(external).toEqual([]);
      await page.close();
    }, 60_000);

    it(`${size.name}: Tab presses from the page's top to the first Redeliver`, async () => {
      const phone = size.name === "phone";
      const { m } = await withDelivery();
      const { page } = await openPage(ctx, `${ctx.sandbox.url}/dashboard`, size.width, { height: size.height });
      await signIn(page, m.keys);
      await settled(page, "Home");
      // From the top of a freshly loaded Events view (signed in: the keys are in the tab's sessionStorage).
      const loaded = async (path: string, title: string) => {
        await page.goto(`${ctx.sandbox.url}${path}`);
        await settled(page, title);
        await page.waitForTimeout(200); // the regions' Tab stops are set in the next frame
      };
      await loaded("/dashboard/events", "Events and deliveries");
      expect(await page.getByRole("button", { name: "Redeliver" }).count()).toBe(1);
      const focusedText = () => page.evaluate("document.activeElement && document.activeElement.textContent") as Promise<string | null>;
      /** Tab presses until the focused element's text is `text`. */
      const tabTo = async (text: string) => {
        for (let presses = 1; presses <= 200; presses++) {
          await page.keyboard.press("Tab");
          const at = (await page.evaluate("document.activeElement && (document.activeElement.id || document.activeElement.getAttribute('aria-label') || document.activeElement.textContent.slice(0, 30))")) as string;
          if (process.env.TAB_TRACE) console.log(size.name, presses, at);
          if ((await focusedText()) === text) return presses;
        }
        return Infinity;
      };
      const regions = (await page.evaluate(`Array.prototype.map.call(document.querySelectorAll(".view:not([hidden]) .scroll-x"), (r) =>
        ({ table: r.getAttribute("aria-label"), scrolls: r.scrollWidth > r.clientWidth + 1, stop: r.getAttribute("tabindex") === "0" }))`)) as Array<{ table: string; scrolls: boolean; stop: boolean }>;
      // A region is a Tab stop exactly when it scrolls sideways; none does, at either size (on a phone the rows are cards).
      expect(regions.map((r) => r.table)).toEqual(["Events table", "Webhook deliveries table"]);
      for (const region of regions) expect(region, region.table).toEqual({ table: region.table, scrolls: false, stop: false });
      // Straight down the page: the skip link, the brand, Switch merchant and Sign out (the phone's Sign out is in its menu; its Menu button is here
      // instead), the 17 view links (desktop only: the phone's are behind the Menu), Pause and Refresh;
      // then the event's deliveries link and Redeliver.
      expect(await tabTo("Redeliver")).toBe(phone ? 8 : 25);
      // The way a keyboard user goes from Home: the view's link in the navigation (behind the Menu on a
      // phone, which opens with the focus on the current view's link); Enter shows the view with the
      // focus on its title; then on to Redeliver.
      await loaded("/dashboard", "Home");
      const toLink = phone ? [await tabTo("Menu"), await page.keyboard.press("Enter").then(() => tabTo("Events and deliveries"))] : [await tabTo("Events and deliveries")];
      await page.keyboard.press("Enter");
      await settled(page, "Events and deliveries");
      expect(await focusedId(page)).toBe("view-events-title");
      const fromLink = await tabTo("Redeliver");
      // To the link: 12 on a desktop (the top bar's 4, then Home to it); on a phone 2 to the Menu, then 7
      // from Home to it. From the title: the event's deliveries link, then Redeliver.
      expect({ toLink, fromLink }).toEqual({ toLink: phone ? [2, 7] : [12], fromLink: 2 });
      await page.close();
    }, 60_000);
  }
});
