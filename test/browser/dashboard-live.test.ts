/**
 * The dashboard's live updates, at desktop and phone sizes: a change made through
 * the API reaches the page without disturbing it (an open delivery's details stay open on the same
 * delivery, a focused button keeps the focus, a text selection stays, typed input stays); the status
 * line says when the view is paused and why, and "Live" again after; unchanged sections are answered
 * 304 and cause no DOM work. axe-core finds no critical or serious violation in any state.
 */
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { axeViolations, merchantAt, openPage, SCREENSHOTS, SKIP_BROWSER, useBrowserSandbox, SIZES } from "./browser.js";
import { receivers, START } from "../helpers.js";

const ctx = useBrowserSandbox();
const receiver = receivers();

/** Strings: this project compiles without the DOM types. */
const js = <T,>(page: Page, code: string) => page.evaluate(code) as Promise<T>;
const status = (page: Page) => js<string>(page, `document.getElementById("live-state").textContent`);
const balance = (page: Page) => page.locator("[data-testid=balance]").textContent();
const deliveries = (page: Page) => page.locator("#events tr[data-delivery]").count();
/** A few refresh periods (2 s each): long enough for the next update, on a busy machine too. */
const UPDATE = { timeout: 10_000 };

describe.skipIf(SKIP_BROWSER)("dashboard live updates", () => {
  for (const size of SIZES) {
    it(`${size.name}: changes arrive without closing details, moving focus or losing a selection; pauses said and why; 304s`, async () => {
      const r = await receiver();
      const m = await merchantAt(ctx.sandbox.url, { business_name: "Live Kitchen", wallet_balance: 1_000_000, webhook_url: r.url, clock: { now: new Date(START).toISOString() } });
      const payout = (reference: string) =>
        m.api("POST", "/api/v1/payout/transfer", {
          amount: 5000, bank_code: "058", account_number: "0000000018", account_name: "EZE FUNMILAYO IBRAHIM", bank_name: "Guaranty Trust Bank", reference: `${reference}-${size.name}`,
        });
      // A payout completed at once: its payout.completed event and webhook delivery (the manual clock lands the delivery in flight).
      const event = async (reference: string) => {
        await payout(reference);
        await m.api("POST", `/sandbox/v1/payouts/${reference}-${size.name}/complete`);
        await m.api("POST", "/sandbox/v1/clock/advance", { seconds: 0 });
      };
      const row = (reference: string) => page.locator(`[data-payout='${reference}-${size.name}']`);
      await payout("p1");
      await event("e1");

      const { page, violations, external } = await openPage(ctx, `${ctx.sandbox.url}/dashboard`, size.width, { height: size.height });
      const answers: Array<{ section: string; status: number }> = [];
      page.on("response", (r) => {
        const match = /\/dashboard\/fragments\/([a-z-]+)(\?|$)/.exec(r.url());
        if (match) answers.push({ section: match[1]!, status: r.status() });
      });
      await js(page, `window.__updated = []; document.addEventListener("section:updated", (e) => window.__updated.push(e.detail.section))`);
      await page.locator("#api-key").fill(m.keys["x-api-key"]);
      await page.locator("#api-secret").fill(m.keys["x-api-secret"]);
      await page.keyboard.press("Enter");
      await expect.poll(() => row("p1").count(), UPDATE).toBe(1);
      await expect.poll(() => deliveries(page), UPDATE).toBeGreaterThan(0);
      await expect.poll(() => status(page), UPDATE).toBe("Live");
      await expect.poll(() => page.locator("#live p").textContent(), UPDATE).toMatch(/^Live: updated \d\d:\d\d:\d\d$/);

      // An open delivery, a focused button in another section; then a change in both sections.
      const firstDelivery = page.locator("#events tr[data-delivery]").first();
      const deliveryKey = (await firstDelivery.getAttribute("data-key"))!;
      const opened = page.locator(`#events tr[data-key='${deliveryKey}'] details`);
      await opened.locator("summary").click();
      expect(await opened.getAttribute("open")).toBe("");
      const complete = row("p1").getByRole("button", { name: "Complete" });
      await complete.focus();
      await js(page, `window.__focused = document.activeElement`);
      const before = await balance(page);
      const deliveriesBefore = await deliveries(page);
      await m.api("POST", "/sandbox/v1/wallet/fund", { amount: 1234 });
      await event("e2"); // a new payout and a new delivery, each at the top of its table

      await expect.poll(() => balance(page), UPDATE).not.toBe(before);
      await expect.poll(() => row("e2").count(), UPDATE).toBe(1);
      await expect.poll(() => deliveries(page), UPDATE).toBeGreaterThan(deliveriesBefore);
      expect(await opened.getAttribute("open")).toBe(""); // the same delivery, still open
      expect(await js(page, `document.activeElement === window.__focused && window.__focused.isConnected`)).toBe(true);
      expect(await status(page)).toBe("Live");
      expect(await axeViolations(page)).toEqual([]);
      await opened.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SCREENSHOTS}/dashboard-live-${size.name}.png` });

      // A selection inside the open delivery: its section waits, the others keep updating.
      const signature = opened.locator("pre").first();
      const signatureText = (await signature.textContent())!;
      await js(page, `(() => {
        const range = document.createRange();
        range.selectNodeContents(document.querySelector("#events tr[data-key='${deliveryKey}'] details pre"));
        getSelection().removeAllRanges(); getSelection().addRange(range);
      })()`);
      await expect.poll(() => status(page), UPDATE).toBe("Paused: text is selected");
      expect(await page.locator("#live p").textContent()).toMatch(/\(last updated \d\d:\d\d:\d\d\)$/);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `${SCREENSHOTS}/dashboard-live-paused-selection-${size.name}.png` });
      const waitingDeliveries = await deliveries(page);
      await event("e3");
      await expect.poll(() => row("e3").count(), UPDATE).toBe(1); // the payouts section updated: a tick happened
      expect(await deliveries(page)).toBe(waitingDeliveries); // the events section waited
      expect(await js(page, `getSelection().toString()`)).toBe(signatureText);
      await js(page, `getSelection().removeAllRanges()`);
      await expect.poll(() => status(page), UPDATE).toBe("Live");
      await expect.poll(() => deliveries(page), UPDATE).toBeGreaterThan(waitingDeliveries);
      expect(await opened.getAttribute("open")).toBe("");

      // Input not yet sent: that form's section waits, said with its name; the typed value stays.
      const amount = page.getByLabel("Fund wallet (₦)");
      await amount.fill("77");
      await expect.poll(() => status(page), UPDATE).toBe("Paused while you type in Wallet and clock");
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `${SCREENSHOTS}/dashboard-live-paused-typing-${size.name}.png` });
      const held = await balance(page);
      await m.api("POST", "/sandbox/v1/wallet/fund", { amount: 10 });
      await payout("p4");
      await expect.poll(() => row("p4").count(), UPDATE).toBe(1);
      expect(await balance(page)).toBe(held);
      expect(await amount.inputValue()).toBe("77");
      await amount.fill("");
      await expect.poll(() => status(page), UPDATE).toBe("Live");
      await expect.poll(() => balance(page), UPDATE).not.toBe(held);

      // Paused by the user: nothing is asked for until Resume; then it catches up at once.
      await page.getByRole("button", { name: "Pause updates" }).click();
      expect(await status(page)).toBe("Paused by you");
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `${SCREENSHOTS}/dashboard-live-paused-by-you-${size.name}.png` });
      const asked = answers.length;
      const pausedBalance = await balance(page);
      await m.api("POST", "/sandbox/v1/wallet/fund", { amount: 20 });
      // The one fixed wait: two refresh periods, to show that none of them asked for anything.
      await page.waitForTimeout(4_500);
      expect(answers.length).toBe(asked);
      expect(await balance(page)).toBe(pausedBalance);
      await page.getByRole("button", { name: "Resume updates" }).click();
      await expect.poll(() => status(page), UPDATE).toBe("Live");
      await expect.poll(() => balance(page), UPDATE).not.toBe(pausedBalance);

      // A tab in the background asks for nothing, and catches up on return.
      await js(page, `Object.defineProperty(document, "hidden", { configurable: true, get: () => true }); document.dispatchEvent(new Event("visibilitychange"))`);
      await expect.poll(() => status(page), UPDATE).toBe("Paused: tab in the background");
      const hiddenBalance = await balance(page);
      await m.api("POST", "/sandbox/v1/wallet/fund", { amount: 30 });
      await js(page, `Object.defineProperty(document, "hidden", { configurable: true, get: () => false }); document.dispatchEvent(new Event("visibilitychange"))`);
      await expect.poll(() => balance(page), UPDATE).not.toBe(hiddenBalance);
      expect(await status(page)).toBe("Live");

      // The sandbox out of reach: said, and "Live" again once it answers.
      await page.route("**/dashboard/fragments/**", (route) => route.abort());
      await expect.poll(() => status(page), UPDATE).toBe("Can't reach the sandbox; retrying");
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `${SCREENSHOTS}/dashboard-live-unreachable-${size.name}.png` });
      await page.unroute("**/dashboard/fragments/**");
      await expect.poll(() => status(page), UPDATE).toBe("Live");

      // Unchanged sections were answered 304 and never re-rendered: VTU had nothing new after its first load.
      const vtu = answers.filter((a) => a.section === "vtu");
      expect(vtu.length).toBeGreaterThan(3);
      expect(vtu.slice(1).every((a) => a.status === 304)).toBe(true);
      expect(await js<string[]>(page, `window.__updated.filter((s) => s === "vtu")`)).toEqual(["vtu"]);
      expect(await js<string[]>(page, `window.__updated`)).toContain("overview");
      expect(answers.filter((a) => a.status === 304).length).toBeGreaterThan(answers.filter((a) => a.status === 200).length);
      expect(violations).toEqual([]);
      expect(external).toEqual([]);
      await page.close();
    }, 90_000);
  }
});
