/**
 * The dashboard and /docs by keyboard, at desktop and phone sizes: a skip link is the first Tab stop
 * and leads to what is shown (the sign-in, then the view); sign-in and following a navigation link move
 * the focus to the view's title, each action to its result; every table that scrolls sideways can be
 * reached and scrolled by keyboard, and one that fits (a phone stacks its rows) costs no Tab stop; the
 * Tab presses to the first "Redeliver" are counted; axe-core finds no critical or serious violation on
 * the signed-out and signed-in dashboard nor on /docs.
 */
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { receivers } from "../helpers.js";
import { axeViolations, merchantAt, openPage, SCREENSHOTS, SKIP_BROWSER, useBrowserSandbox, SIZES } from "./browser.js";
import { focusedId, LOAD, settled, signIn } from "./dashboard-driver.js";

const ctx = useBrowserSandbox();
const receiver = receivers();

const transfer = (reference: string) => ({
  amount: 5000, bank_code: "058", account_number: "0000000018", account_name: "EZE FUNMILAYO IBRAHIM", bank_name: "Guaranty Trust Bank", reference,
});
/** Strings: this project compiles without the DOM types. */
const focused = (page: Page) => page.evaluate("document.activeElement && (document.activeElement.id || document.activeElement.textContent)") as Promise<string | null>;
const focusedText = (page: Page) => page.evaluate("document.activeElement && document.activeElement.textContent") as Promise<string | null>;
const pageScrollsSideways = (page: Page) => page.evaluate("document.documentElement.scrollWidth > document.documentElement.clientWidth") as Promise<boolean>;

/** A tablet's width: wider than the phone's stacked rows, narrower than the desktop's side navigation (shell.css, components.css). */
const TABLET = 800;

interface Region { label: string | null; role: string | null; scrolls: boolean; stop: boolean; left: number }
/** The shown view's table regions: whether each scrolls sideways and whether it is a Tab stop. */
const regionsOf = (page: Page) =>
  page.evaluate(`Array.prototype.map.call(document.querySelectorAll(".view:not([hidden]) .scroll-x"), (r) => ({ label: r.getAttribute("aria-label"),
    role: r.getAttribute("role"), scrolls: r.scrollWidth > r.clientWidth + 1, stop: r.getAttribute("tabindex") === "0", left: r.scrollLeft }))`) as Promise<Region[]>;
/** The regions once the script has set their Tab stops (in the frame after a change): each is one exactly while it scrolls. */
async function fittedRegions(page: Page): Promise<Region[]> {
  await expect.poll(async () => (await regionsOf(page)).every((r) => r.stop === r.scrolls), LOAD).toBe(true);
  return regionsOf(page);
}

/** Tab presses until the focused element's text is `text`. */
async function tabTo(page: Page, text: string): Promise<number> {
  for (let presses = 1; presses <= 200; presses++) {
    await page.keyboard.press("Tab");
    if (process.env.TAB_TRACE) console.log(presses, await focused(page));
    if ((await focusedText(page)) === text) return presses;
  }
  return Infinity;
}

describe.skipIf(SKIP_BROWSER)("dashboard by keyboard", () => {
  for (const size of SIZES) {
    const phone = size.name === "phone";
    it(`${size.name}: skip link, focus after sign-in, navigation and actions, focusable scroll regions, no serious axe violation`, async () => {
      // The payout waits for approval: its row has an action for the keyboard. One event, delivered to the built-in capture.
      const m = await merchantAt(ctx.sandbox.url, { business_name: "Amala Corner", limits: { payout_review_threshold: 1_000 }, webhook_capture: {} });
      const reference = `kbd-${size.name}`;
      await m.api("POST", "/api/v1/payout/transfer", transfer(reference));
      expect((await m.api("POST", "/sandbox/v1/webhooks/test")).success).toBe(true);
      const { page, violations, external } = await openPage(ctx, `${ctx.sandbox.url}/dashboard`, size.width, { height: size.height });

      // Signed out: the skip link is the first Tab stop, shown when focused, and lands on the sign-in.
      expect(await axeViolations(page)).toEqual([]);
      await page.keyboard.press("Tab");
      expect(await focused(page)).toBe("Skip to content");
      const box = await page.getByRole("link", { name: "Skip to content" }).boundingBox();
      expect(box!.y).toBeGreaterThanOrEqual(0);
      await page.keyboard.press("Enter");
      expect(await focusedId(page)).toBe("signin-heading");
      // A local start offers the demo merchant first, then the keys.
      await page.keyboard.press("Tab");
      expect(await focusedId(page)).toBe("use-demo");
      await page.keyboard.press("Tab");
      expect(await focusedId(page)).toBe("api-key");

      // Sign-in by keyboard: the focus goes to the view's title.
      await page.keyboard.type(m.keys["x-api-key"]);
      await page.keyboard.press("Tab");
      await page.keyboard.type(m.keys["x-api-secret"]);
      await page.keyboard.press("Enter");
      await expect.poll(() => focusedId(page), LOAD).toBe("view-home-title");
      await expect.poll(() => page.locator(`[data-activity='payout:${reference}']`).count(), LOAD).toBe(1);
      // Signed in, the skip link leads to the view.
      await page.evaluate("window.scrollTo(0, 0); document.activeElement.blur()");
      await page.getByRole("link", { name: "Skip to content" }).focus();
      await page.keyboard.press("Enter");
      expect(await focusedId(page)).toBe("content");

      // An action by keyboard (a form, then a button): the focus goes to its result, in its section.
      await page.getByLabel("Fund wallet (₦)").fill("250");
      await page.keyboard.press("Enter");
      await expect.poll(() => focusedId(page), LOAD).toBe("overview-result");
      const result = page.locator("#overview-result");
      expect(await result.getAttribute("class")).toContain("success");
      expect(await result.getAttribute("role")).toBe("status");
      await page.getByRole("button", { name: "Advance 1 min" }).focus();
      await page.evaluate('document.getElementById("overview-result").textContent = ""');
      await page.keyboard.press("Enter");
      await expect.poll(() => focusedId(page), LOAD).toBe("overview-result");
      await expect.poll(() => result.textContent()).not.toBe("Working…");
      expect(await result.getAttribute("class")).toContain("success");

      // A navigation link by keyboard (on a phone, the Menu first: it opens on the current view's link):
      // the focus goes to the new view's title, and the menu closes.
      if (phone) {
        await page.getByRole("button", { name: "Menu" }).focus();
        await page.keyboard.press("Enter");
        expect(await page.getByRole("button", { name: "Menu" }).getAttribute("aria-expanded")).toBe("true");
        expect(await focused(page)).toBe("Home");
      }
      await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Payouts" }).focus();
      await page.keyboard.press("Enter");
      await expect.poll(() => focusedId(page), LOAD).toBe("view-payouts-title");
      await settled(page, "Payouts");
      if (phone) {
        expect(await page.getByRole("button", { name: "Menu" }).getAttribute("aria-expanded")).toBe("false");
        expect(await page.locator("#nav").isVisible()).toBe(false);
      }

      // A row's action by keyboard: its result in the section, with the focus.
      const row = page.locator(`[data-payout='${reference}']`);
      await row.getByRole("button", { name: "Approve" }).focus();
      await page.keyboard.press("Enter");
      await expect.poll(() => focusedId(page), LOAD).toBe("payouts-result");
      expect(await page.locator("#payouts-result").textContent()).toBe(`Payout ${reference} approved: it is now processing.`);

      // Every table's wrapper is a named region, in the Tab order exactly while it scrolls sideways
      // (a table that fits costs no Tab stop). A phone stacks each row as a card: nothing scrolls
      // sideways there, the page included, and the row's status and actions are on the screen.
      const payouts = await fittedRegions(page);
      expect(payouts.length).toBeGreaterThan(0);
      for (const region of payouts) {
        expect(region.role).toBe("region");
        expect(region.label).toMatch(/\S/);
      }
      expect(payouts.map((r) => r.label)).toContain("Payouts table");
      if (phone) {
        expect(payouts.some((r) => r.scrolls)).toBe(false);
        expect(await pageScrollsSideways(page)).toBe(false);
        for (const part of [row.locator("[data-testid=payout-status]"), row.getByRole("button", { name: "Complete" }), row.getByRole("button", { name: "Fail" })]) {
          const box = (await part.boundingBox())!;
          expect(box.x >= 0 && box.x + box.width <= size.width).toBe(true);
        }
      }

      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `${SCREENSHOTS}/dashboard-keyboard-${size.name}.png` });

      if (!phone) {
        // At a tablet's width (rows not yet stacked, the navigation behind the Menu) the payouts table,
        // nine columns, is wider than the view: its region becomes a Tab stop, the first after the
        // view's title, and the arrow keys scroll it.
        await page.setViewportSize({ width: TABLET, height: size.height });
        const wide = await fittedRegions(page);
        expect(wide.find((r) => r.label === "Payouts table")).toMatchObject({ scrolls: true, stop: true });
        await page.locator("#view-payouts-title").focus();
        await page.keyboard.press("Tab");
        expect(await page.evaluate("document.activeElement.getAttribute('aria-label')")).toBe("Payouts table");
        await page.keyboard.press("ArrowRight");
        await page.keyboard.press("ArrowRight");
        await expect.poll(async () => (await regionsOf(page)).find((r) => r.label === "Payouts table")!.left).toBeGreaterThan(0);
        expect(await pageScrollsSideways(page)).toBe(false);
        expect(await axeViolations(page)).toEqual([]);
      }
      expect(violations).toEqual([]);
      expect(external).toEqual([]);
      await page.close();
    }, 60_000);

    it(`${size.name}: Tab presses to the first Redeliver`, async () => {
      // One payout, three virtual accounts, one event (a transfer in's) delivered to a receiver.
      const r = await receiver();
      const m = await merchantAt(ctx.sandbox.url, { business_name: "Mama Put", webhook_url: r.url });
      const customer = (n: number) => ({ first_name: "Ada", last_name: "Obi", email: "ada@example.com", bvn: "22212345678", reference: `cust-${n}`, bank: "partnerbank" });
      const account = (await m.api("POST", "/api/v1/virtual-account/create", customer(1))).data;
      expect((await m.api("POST", `/sandbox/v1/virtual-accounts/${account.account_number}/transfers`, { amount: 7500, narration: "Order 1" })).success).toBe(true);
      await m.api("POST", "/sandbox/v1/clock/advance", { seconds: 0 });
      await expect.poll(() => r.received.length).toBe(1);
      await m.api("POST", "/api/v1/payout/transfer", transfer("tab-1"));
      for (const n of [2, 3]) await m.api("POST", "/api/v1/virtual-account/create", customer(n));
      const { page } = await openPage(ctx, `${ctx.sandbox.url}/dashboard`, size.width, { height: size.height });
      await signIn(page, m.keys);
      await settled(page, "Home");

      // The way a keyboard user goes: from the top of a freshly loaded Home (signed in: the keys are
      // in the tab's sessionStorage) to the view's link in the navigation (on a phone the Menu, which
      // opens on the current view's link, then down the menu), Enter (the focus goes to the view's
      // title), then on to Redeliver.
      await page.reload();
      await settled(page, "Home");
      await fittedRegions(page);
      const toMenu = phone ? await tabTo(page, "Menu") : 0;
      if (phone) await page.keyboard.press("Enter");
      const toLink = await tabTo(page, "Events and deliveries");
      await page.keyboard.press("Enter");
      await expect.poll(() => focusedId(page), LOAD).toBe("view-events-title");
      await settled(page, "Events and deliveries");
      await fittedRegions(page);
      const fromLink = await tabTo(page, "Redeliver");
      // Desktop: the skip link, the brand, Switch merchant and Sign out come before the navigation, whose
      // eighth link this is. Phone: the skip link and the Menu; then Home to the eighth link. From the
      // title: the event's deliveries link and Redeliver (neither table scrolls sideways: no region stop).
      expect({ toMenu, toLink, fromLink }).toEqual(phone ? { toMenu: 2, toLink: 7, fromLink: 2 } : { toMenu: 0, toLink: 12, fromLink: 2 });

      // Straight down the view's own URL, freshly loaded: the shell's stops (skip link, brand, Switch
      // merchant, Sign out and the 17 navigation links on a desktop; skip link, Menu, brand and Switch
      // on a phone), the live line's Pause and Refresh, then the deliveries link and Redeliver.
      await page.goto(`${ctx.sandbox.url}/dashboard/events`);
      await settled(page, "Events and deliveries");
      await fittedRegions(page);
      expect(await tabTo(page, "Redeliver")).toBe(phone ? 8 : 25);
      await page.close();
    }, 60_000);
  }
});

describe.skipIf(SKIP_BROWSER)("/docs accessibility", () => {
  for (const size of SIZES) {
    it(`${size.name}: has a language and no serious axe violation`, async () => {
      const { page, external } = await openPage(ctx, `${ctx.sandbox.url}/docs`, size.width, { height: size.height });
      expect(await page.locator("html").getAttribute("lang")).toBe("en");
      await expect.poll(() => page.getByText("Wallet balance").first().isVisible(), { timeout: 20_000 }).toBe(true);
      // #app holds Scalar's API reference (vendor/scalar/standalone.js), a third-party component we
      // vendor as is; its own violations (unnamed icon buttons, contrast of its badges, ...) are
      // Scalar's. Checked here: our page around it (language, title, viewport).
      expect(await axeViolations(page, ["#app"])).toEqual([]);
      expect(external).toEqual([]);
      await page.close();
    }, 60_000);
  }
});
