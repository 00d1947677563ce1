/**
 * The dashboard's live updates, at desktop and phone sizes: only the shown view's sections (and the
 * top bar's merchant) are asked for; switching view loads the new view's. A change made through the
 * API reaches the view without disturbing it (an open delivery's details stay open on the same
 * delivery, a focused button keeps the focus, a text selection stays, typed input stays); the status
 * line says when the view is paused and why, and "Live" again after; unchanged sections are answered
 * 304 and cause no DOM work. axe-core finds no critical or serious violation in any state.
 */
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { VIEWS } from "../../src/pages/dashboard-views.js";
import { axeViolations, merchantAt, openPage, SCREENSHOTS, SKIP_BROWSER, useBrowserSandbox, SIZES } from "./browser.js";
import { navigate, settled, signIn } from "./dashboard-driver.js";
import { receivers, START } from "../helpers.js";

const ctx = useBrowserSandbox();
const receiver = receivers();

/** Strings: this project compiles without the DOM types. */
const js = <T,>(page: Page, code: string) => page.evaluate(code) as Promise<T>;
const status = (page: Page) => js<string>(page, `document.getElementById("live-state").textContent`);
const balance = (page: Page) => page.locator("[data-testid=balance]").textContent();
const deliveries = (page: Page) => page.locator("#events tr[data-delivery]").count();
const merchantClock = (page: Page) => page.locator("[data-testid=merchant-clock]").textContent();
/** A few refresh periods (2 s each): long enough for the next update, on a busy machine too. */
const UPDATE = { timeout: 10_000 };
/** The sections of a view, by its id. */
const sectionsOf = (view: string) => VIEWS.find((v) => v.id === view)!.sections.map((s) => s.id);

describe.skipIf(SKIP_BROWSER)("dashboard live updates", () => {
  for (const size of SIZES) {
    it(`${size.name}: only the shown view refreshes; changes arrive without closing details, moving focus or losing a selection; pauses said and why; 304s`, async () => {
      const r = await receiver();
      const m = await merchantAt(ctx.sandbox.url, { business_name: "Live Kitchen", wallet_balance: 1_000_000, webhook_url: r.url, clock: { mode: "manual", now: new Date(START).toISOString() } });
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
      await payout("p1");
      await event("e1");

      // Signed in on the Events and deliveries view: its one section, and the top bar's merchant.
      const { page, violations, external } = await openPage(ctx, `${ctx.sandbox.url}/dashboard/events`, size.width, { height: size.height });
      const asked: string[] = [];
      const answers: Array<{ section: string; status: number }> = [];
      page.on("request", (q) => {
        const match = /\/dashboard\/fragments\/([a-z-]+)(\?|$)/.exec(q.url());
        if (match) asked.push(match[1]!);
      });
      page.on("response", (a) => {
        const match = /\/dashboard\/fragments\/([a-z-]+)(\?|$)/.exec(a.url());
        if (match) answers.push({ section: match[1]!, status: a.status() });
      });
      await js(page, `window.__updated = []; document.addEventListener("section:updated", (e) => window.__updated.push(e.detail.section))`);
      await signIn(page, m.keys);
      await settled(page, "Events and deliveries");
      await expect.poll(() => deliveries(page), UPDATE).toBeGreaterThan(0);
      await expect.poll(() => status(page), UPDATE).toBe("Live");
      await expect.poll(() => page.locator("#live p").textContent(), UPDATE).toMatch(/^Live: updated \d\d:\d\d:\d\d$/);

      // An open delivery, a focused button in the events above it; then a new event and delivery, each at the top of its table.
      const firstDelivery = page.locator("#events tr[data-delivery]").first();
      const deliveryKey = (await firstDelivery.getAttribute("data-key"))!;
      const opened = page.locator(`#events tr[data-key='${deliveryKey}'] details`);
      await opened.locator("summary").click();
      expect(await opened.getAttribute("open")).toBe("");
      const eventRows = page.locator("#events [data-event-row]");
      const firstEvent = (await eventRows.first().getAttribute("data-event-row"))!;
      await page.locator(`#events [data-event-row='${firstEvent}']`).getByRole("button", { name: "Redeliver" }).focus();
      await js(page, `window.__focused = document.activeElement`);
      const deliveriesBefore = await deliveries(page);
      await event("e2");

      await expect.poll(() => eventRows.count(), UPDATE).toBe(2);
      await expect.poll(() => deliveries(page), UPDATE).toBeGreaterThan(deliveriesBefore);
      expect(await eventRows.first().getAttribute("data-event-row")).not.toBe(firstEvent); // the new event on top, the focused row moved down
      expect(await opened.getAttribute("open")).toBe(""); // the same delivery, still open
      expect(await firstDelivery.getAttribute("data-key")).not.toBe(deliveryKey);
      expect(await js(page, `document.activeElement === window.__focused && window.__focused.isConnected`)).toBe(true);
      expect(await status(page)).toBe("Live");
      expect(await axeViolations(page)).toEqual([]);
      await opened.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SCREENSHOTS}/dashboard-live-${size.name}.png` });

      // A selection inside the open delivery: its section waits, the top bar keeps updating.
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
      const clockBefore = await merchantClock(page);
      await event("e3");
      await m.api("POST", "/sandbox/v1/clock/advance", { seconds: 60 });
      await expect.poll(() => merchantClock(page), UPDATE).not.toBe(clockBefore); // the top bar updated: a tick happened
      expect(await deliveries(page)).toBe(waitingDeliveries); // the events section waited
      expect(await js(page, `getSelection().toString()`)).toBe(signatureText);
      await js(page, `getSelection().removeAllRanges()`);
      await expect.poll(() => status(page), UPDATE).toBe("Live");
      await expect.poll(() => deliveries(page), UPDATE).toBeGreaterThan(waitingDeliveries);
      expect(await opened.getAttribute("open")).toBe("");

      // Only the shown view was asked for: the events and the top bar's merchant, never Home's or the Payouts view's.
      expect(new Set(asked)).toEqual(new Set(["events", "identity"]));

      // Switching view loads the new view's sections (Home's), and from then on only those are asked for.
      await navigate(page, size.name === "phone", "Home");
      const home = sectionsOf("home");
      await expect.poll(() => home.filter((s) => !asked.includes(s)), UPDATE).toEqual([]);
      expect(await balance(page)).toMatch(/^₦/);
      const switched = asked.length;

      // Input not yet sent: that form's section waits, said with its name; the typed value stays.
      const amount = page.getByLabel("Fund wallet (₦)");
      await amount.fill("77");
      await expect.poll(() => status(page), UPDATE).toBe("Paused while you type in Balance and clock");
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `${SCREENSHOTS}/dashboard-live-paused-typing-${size.name}.png` });
      const held = await balance(page);
      await m.api("POST", "/sandbox/v1/wallet/fund", { amount: 10 });
      await payout("p4");
      // The latest activity updated (a tick happened); the balance waited.
      await expect.poll(() => page.locator(`#activity [data-activity='payout:p4-${size.name}']`).count(), UPDATE).toBe(1);
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
      const answered = answers.length;
      const pausedBalance = await balance(page);
      await m.api("POST", "/sandbox/v1/wallet/fund", { amount: 20 });
      // The one fixed wait: two refresh periods, to show that none of them asked for anything.
      await page.waitForTimeout(4_500);
      expect(answers.length).toBe(answered);
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

      // Since the switch, only Home's sections and the top bar's merchant were asked for.
      expect(new Set(asked.slice(switched))).toEqual(new Set([...home, "identity"]));
      // Unchanged sections were answered 304 and never re-rendered: the integration checks' verdict had nothing new after its first load.
      const verdict = answers.filter((a) => a.section === "verdict");
      expect(verdict.length).toBeGreaterThan(3);
      expect(verdict.slice(1).every((a) => a.status === 304)).toBe(true);
      expect(await js<string[]>(page, `window.__updated.filter((s) => s === "verdict")`)).toEqual(["verdict"]);
      expect(await js<string[]>(page, `window.__updated`)).toContain("overview");
      expect(answers.filter((a) => a.status === 304).length).toBeGreaterThan(answers.filter((a) => a.status === 200).length);
      expect(violations).toEqual([]);
      expect(external).toEqual([]);
      await page.close();
    }, 90_000);
  }
});
