/**
 * The dashboard's tables in chromium, at desktop and phone sizes: search a
 * payout by reference, filter by status, page past 50 rows, open a delivery and copy its pretty payload
 * and signature, follow a delivery to its event and an event to its deliveries, local time beside UTC in
 * the browser's zone, no page wider than the screen with a large payload, and the Tab presses from the
 * page's top to the first "Redeliver". axe-core on every state: no critical or serious violation.
 */
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { receivers } from "../helpers.js";
import { axeViolations, merchantAt, openPage, SCREENSHOTS, SKIP_BROWSER, useBrowserSandbox, SIZES } from "./browser.js";

const ctx = useBrowserSandbox();
const receiver = receivers();

/** No payout limit gets in the way of 60 payouts in a row. */
const UNLIMITED = { limits: { payout_attempts_per_hour: 0, payout_attempts_per_ip_per_hour: 0, requests_per_minute: 0 } };
const transfer = (reference: string) => ({
  amount: 1000, bank_code: "058", account_number: "0000000018", account_name: "EZE FUNMILAYO IBRAHIM", bank_name: "Guaranty Trust Bank", reference,
});
/** A string: this project compiles without the DOM types. */
const focusedId = (page: Page) => page.evaluate("document.activeElement && document.activeElement.id") as Promise<string | null>;
const clipboard = (page: Page) => page.evaluate("navigator.clipboard.readText()") as Promise<string>;
const pageScrollsSideways = (page: Page) => page.evaluate("document.documentElement.scrollWidth > document.documentElement.clientWidth") as Promise<boolean>;

async function signIn(page: Page, keys: Record<string, string>) {
  await page.locator("#api-key").fill(keys["x-api-key"]!);
  await page.locator("#api-secret").fill(keys["x-api-secret"]!);
  await page.keyboard.press("Enter");
  await expect.poll(() => focusedId(page)).toBe("overview-heading");
}

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
      const section = page.locator("#payouts");
      const rows = section.locator("[data-payout]");
      await expect.poll(() => rows.count()).toBe(50);
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
      // The 5 s refresh keeps the query: still filtered.
      await page.getByRole("button", { name: "Refresh" }).click();
      await page.waitForTimeout(300);
      expect(await rows.count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);
      expect(violations).toEqual([]);
      expect(external).toEqual([]);
      await page.close();
    }, 90_000);

    it(`${size.name}: a delivery's pretty payload and signature copied, delivery and event linked both ways, local time; no serious axe violation`, async () => {
      const { m, r } = await withDelivery();
      const { page, violations, external } = await openPage(ctx, `${ctx.sandbox.url}/dashboard`, size.width, { height: size.height, clipboard: true, timezoneId: "Africa/Lagos" });
      await signIn(page, m.keys);
      const events = page.locator("#events");
      const delivery = events.locator("[data-delivery-id]");
      await expect.poll(() => delivery.count()).toBe(1);
      const id = await delivery.getAttribute("data-delivery-id");

      // Local time beside UTC, in the browser's zone.
      const created = events.locator("[data-event-row] td").nth(6);
      const utc = (await created.locator("time").getAttribute("datetime"))!;
      const lagos = new Date(Date.parse(utc) + 3_600_000).toISOString().replace("T", " ").slice(0, 19);
      expect(await created.textContent()).toMatch(new RegExp(`\\d\\d:\\d\\d:\\d\\dZ · ${lagos} (WAT|GMT\\+1)$`));

      // Open the delivery: the payload indented, wrapped in its panel; Copy puts it on the clipboard.
      await delivery.locator("summary").click();
      const body = page.locator(`#delivery-${id}-body`);
      const sent = r.received[0]!;
      expect(await body.textContent()).toBe(JSON.stringify(sent.body, null, 2));
      // The page never scrolls sideways: on a phone only the table regions do.
      expect(await pageScrollsSideways(page)).toBe(false);
      if (size.name === "phone") expect(await page.getByRole("region", { name: "Webhook deliveries table" }).getAttribute("tabindex")).toBe("0");
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `${SCREENSHOTS}/dashboard-tables-delivery-${size.name}.png`, fullPage: false });
      await events.getByRole("button", { name: `Copy payload of delivery ${id}` }).click();
      await expect.poll(() => clipboard(page)).toBe(JSON.stringify(sent.body, null, 2));
      expect(await page.locator("#events-result").textContent()).toBe(`Copied the payload of delivery ${id} to the clipboard.`);
      await events.getByRole("button", { name: `Copy signature of delivery ${id}` }).click();
      await expect.poll(() => clipboard(page)).toBe(String(sent.headers["x-webhook-signature"]));

      // Delivery → event: the events table narrowed to it, its row focused.
      const eventId = (await events.locator("[data-event-row]").getAttribute("data-event-row"))!;
      await events.getByRole("link", { name: `Event ${eventId}` }).click();
      await expect.poll(() => focusedId(page)).toBe(`event-${eventId}`);
      expect(await events.locator("#events-list-q").inputValue()).toBe(eventId);
      // Event → deliveries: the deliveries table narrowed to its deliveries, its heading focused.
      await events.getByRole("link", { name: `1 deliveries of ${eventId}` }).click();
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
      const { m } = await withDelivery();
      await m.api("POST", "/api/v1/payout/transfer", transfer("tab-1"));
      for (const n of [2, 3]) await m.api("POST", "/api/v1/virtual-account/create", { first_name: "Ada", last_name: "Obi", email: "ada@example.com", bvn: "22212345678", reference: `cust-${n}`, bank: "partnerbank" });
      const { page } = await openPage(ctx, `${ctx.sandbox.url}/dashboard`, size.width, { height: size.height });
      await signIn(page, m.keys);
      // From the top of a freshly loaded page (signed in: the keys are in the tab's sessionStorage).
      await page.reload();
      await expect.poll(() => page.getByRole("button", { name: "Redeliver" }).count()).toBe(1);
      await expect.poll(() => page.locator("[data-payout='tab-1']").count()).toBe(1);
      await page.waitForTimeout(200); // the regions' Tab stops are set in the next frame
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
      // Straight down the page. Before the folds, a smaller dashboard of nine sections took 34
      // this state took 46 at both sizes: every table region was a stop, each virtual account's row 3,
      // and every create or clock form one per field. Now a region is one only where it scrolls (the
      // phone's tables before the events), a row's transfer form and each create or clock form is one
      // summary until opened, and the event's deliveries link is one more. 19 of the stops are the
      // skip link, the 15 section links and the view's three buttons.
      expect(await tabTo("Redeliver")).toBe(size.name === "desktop" ? 34 : 37);
      const regionsAt = (await page.evaluate(`Array.prototype.map.call(document.querySelectorAll(".scroll-x"), (r) =>
        ({ scrolls: r.scrollWidth > r.clientWidth + 1, stop: r.getAttribute("tabindex") === "0" }))`)) as Array<{ scrolls: boolean; stop: boolean }>;
      // The way a keyboard user goes: the section's link in the navigation (Enter moves the focus there), then on.
      await page.reload();
      await expect.poll(() => page.getByRole("button", { name: "Redeliver" }).count()).toBe(1);
      await page.waitForTimeout(200);
      const toLink = await tabTo("Events and webhook deliveries");
      await page.keyboard.press("Enter");
      await expect.poll(() => focusedId(page)).toBe("events-heading");
      const fromLink = await tabTo("Redeliver");
      // 6 to the link; then the event's deliveries link and Redeliver (on a phone the events table, which scrolls, first).
      expect({ toLink, fromLink }).toEqual({ toLink: 6, fromLink: size.name === "desktop" ? 2 : 3 });
      // A region is a Tab stop exactly when it scrolls sideways.
      const regions = regionsAt;
      for (const region of regions) expect(region.stop).toBe(region.scrolls);
      if (size.name === "phone") expect(regions.some((r) => r.scrolls)).toBe(true);
      else expect(regions.every((r) => !r.scrolls)).toBe(true);
      await page.close();
    }, 60_000);
  }
});
