/**
 * The payment page as a customer meets it, at desktop and phone sizes: the amount once, the reference
 * once and whole, what to pay with copy buttons, the "I've sent the money" step, then a receipt or an
 * expired view in place of the account details that reads word for word as a fresh load of that state
 * (no "Time left" once paid or expired), the status announced only when it changes, no sideways
 * scroll, light and dark readable, no CSP violation, the not-found page; axe-core finds no critical
 * or serious violation in any state. Screenshots of each state and size; the phone's pending state
 * also goes to the docs.
 */
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { axeViolations, merchantAt, openPage, SCREENSHOTS, SIZES, SKIP_BROWSER, useBrowserSandbox } from "./browser.js";

const ctx = useBrowserSandbox();
/** One unbroken word as long as a description may hold, which must wrap rather than scroll. */
const LONG_WORD = "Supercalifragilistic".repeat(9);
const AMOUNT = "₦12,500.00";

async function newLink(body: Record<string, unknown> = {}) {
  const m = await merchantAt(ctx.sandbox.url, { business_name: "Mama Put Foods Ltd" });
  const link = await m.api("POST", "/api/v1/checkout/create", {
    amount: 12_500, description: "Jollof rice for two", customer_email: "ada@example.com", ...body,
  });
  expect(link.success, JSON.stringify(link)).toBe(true);
  return { m, link: link as { reference: string; payment_link: string; checkout_url: string } };
}

/** Counts every change to the status region from now on (in `window.__statusChanges`). */
const watchStatus = (page: Page) =>
  page.evaluate(`window.__statusChanges = 0;
    new MutationObserver((list) => { window.__statusChanges += list.length; })
      .observe(document.getElementById("status"), { childList: true, characterData: true, subtree: true, attributes: true });`);
const statusChanges = (page: Page) => page.evaluate("window.__statusChanges") as Promise<number>;
const polled = (page: Page) => page.waitForResponse((r) => r.url().endsWith("/status"), { timeout: 10_000 });
const shot = (page: Page, state: string, size: string) => page.screenshot({ path: `${SCREENSHOTS}/payment-page-${state}-${size}.png`, fullPage: true });
const noSidewaysScroll = (page: Page) => page.evaluate("document.documentElement.scrollWidth <= window.innerWidth");
/** What the page shows (hidden parts aside), as a reader sees it. */
const shownText = (page: Page) => page.evaluate("document.body.innerText") as Promise<string>;
const occurrences = (text: string, part: string) => text.split(part).length - 1;
/** The chip and the state view's words: what a live change must make equal to a fresh load. */
const stateWords = async (page: Page) => ({
  status: await page.locator("#status").textContent(),
  view: (await page.locator("#state-view").evaluate((el) => (el as unknown as { innerText: string }).innerText)).trim(),
});
/** How many line boxes an element's text takes (1: it never broke), and whether it sits inside the viewport's width. */
const lines = (page: Page, selector: string) =>
  page.evaluate(`(() => {
    const el = document.querySelector(${JSON.stringify(selector)});
    const range = document.createRange();
    range.selectNodeContents(el);
    return { lines: range.getClientRects().length, right: el.getBoundingClientRect().right, focusable: el.tabIndex === 0 };
  })()`) as Promise<{ lines: number; right: number; focusable: boolean }>;

/** The amount and the reference each once, the reference on one line, nothing sideways. */
async function expectSingleFigures(page: Page, reference: string) {
  const text = await shownText(page);
  expect(occurrences(text, AMOUNT), text).toBe(1);
  expect(occurrences(text, reference), text).toBe(1);
  expect((await lines(page, "[data-testid=reference]")).lines).toBe(1);
  expect(await noSidewaysScroll(page)).toBe(true);
}

describe.skipIf(SKIP_BROWSER)("payment page", () => {
  for (const size of SIZES) {
    it(`${size.name}: pending with copy buttons, "I've sent the money", then a receipt in place of the account, worded as a fresh load`, async () => {
      const { m, link } = await newLink();
      const { page, violations, external } = await openPage(ctx, `${ctx.sandbox.url}/pay/${link.reference}`, size.width, { height: size.height, clipboard: true });
      await expect.poll(() => page.locator("#countdown").textContent()).toBe("30:00");
      expect(await page.locator("h1").textContent()).toBe("Mama Put Foods Ltd");
      expect(await page.locator(".logo").textContent()).toBe("MP");
      expect(await page.locator("#status").textContent()).toBe("Awaiting payment");
      expect(await page.locator("#status").getAttribute("class")).toBe("chip warn");
      expect(await page.locator("[data-testid=customer-email]").textContent()).toBe("ada@example.com");
      expect((await lines(page, "[data-testid=customer-email]")).lines).toBe(1);
      expect(await page.locator("[data-testid=amount]").textContent()).toBe(AMOUNT);
      expect(await page.locator("#clock-note").textContent()).toBe("The sandbox clock is manual: it moves when advanced.");
      expect(await page.locator("#clock-note").isVisible()).toBe(true);
      const account = (await page.locator("[data-testid=account-number]").textContent())!;
      expect(account).toMatch(/^\d{10}$/);
      expect(await page.locator("#transfer-details").textContent()).toContain("Partner Bank (Sandbox)");
      expect(await page.locator("#cancel-link").count()).toBe(0); // no redirect_url: nowhere to go back to
      await expectSingleFigures(page, link.reference);
      // The sandbox's own controls sit apart, after what the customer sees, and say so.
      expect(await page.locator("#simulate .sandbox-tag").textContent()).toBe("Sandbox only");
      expect(await page.locator(".pay-card ~ #simulate").count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, "pending", size.name);

      await page.getByRole("button", { name: "Copy account number" }).click();
      await expect.poll(() => page.evaluate("navigator.clipboard.readText()")).toBe(account);
      expect(await page.locator("#copy-note").textContent()).toBe("Account number copied");
      await page.getByRole("button", { name: "Copy amount" }).click();
      await expect.poll(() => page.evaluate("navigator.clipboard.readText()")).toBe("12500.00");

      await page.getByRole("button", { name: "I've sent the money" }).click();
      expect(await page.locator("#waiting").isVisible()).toBe(true);
      expect(await page.evaluate("document.activeElement.id")).toBe("waiting");
      expect(await page.locator("#sent-button").isVisible()).toBe(false);
      expect(occurrences(await shownText(page), AMOUNT)).toBe(1);
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, "waiting", size.name);

      // Polls with the status unchanged leave the live region alone: nothing to announce again.
      await watchStatus(page);
      await polled(page);
      await polled(page);
      expect(await statusChanges(page)).toBe(0);
      expect(await page.locator("#status").textContent()).toBe("Awaiting payment");

      // The customer's bank pays (as the control API stands in for it); the page learns by polling.
      await m.api("POST", `/sandbox/v1/checkout/${link.reference}/pay`, {});
      await expect.poll(() => page.locator("#status").textContent(), { timeout: 10_000 }).toBe("Paid");
      await expect.poll(() => page.locator("#receipt").isVisible()).toBe(true);
      expect(await page.locator("#status").getAttribute("class")).toBe("chip ok");
      const receipt = (await page.locator("#receipt").textContent())!;
      expect(receipt).toMatch(/^Payment received₦12,500\.00Jollof rice for twoPaid to Mama Put Foods Ltd on \d{1,2} [A-Z][a-z]{2} \d{4},? \d\d:\d\d WAT\. You can close this page\./);
      expect(receipt).toContain("Paid byada@example.com");
      const text = await shownText(page);
      expect(text).not.toContain("Time left");
      expect(text).not.toMatch(/closed|--:--|00:00/i);
      await expectSingleFigures(page, link.reference);
      expect(await page.locator("#transfer-details").count()).toBe(0);
      expect(await page.locator("[data-testid=account-number]").count()).toBe(0);
      expect(await page.content()).not.toContain(account);
      expect(await page.evaluate("document.activeElement.id")).toBe("receipt"); // focus was in the waiting panel, which left
      const afterPaid = await statusChanges(page);
      expect(afterPaid).toBeGreaterThan(0);
      await polled(page);
      await polled(page);
      expect(await statusChanges(page)).toBe(afterPaid);
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, "paid", size.name);
      const live = await stateWords(page);
      expect(violations).toEqual([]);
      expect(external).toEqual([]);
      await page.close();

      // Opened again once paid: the receipt from the start, in the same words, never the account.
      const again = await openPage(ctx, `${ctx.sandbox.url}/pay/${link.reference}`, size.width, { height: size.height });
      expect(await again.page.locator("#receipt").isVisible()).toBe(true);
      expect(await stateWords(again.page)).toEqual(live);
      await expectSingleFigures(again.page, link.reference);
      expect(await again.page.locator("[data-testid=account-number]").count()).toBe(0);
      expect(await again.page.content()).not.toContain(account);
      expect(again.violations).toEqual([]);
      await again.page.close();
    }, 60_000);

    it(`${size.name}: expired, with no countdown and no account number left, worded as a fresh load`, async () => {
      const { m, link } = await newLink();
      const { page, violations } = await openPage(ctx, `${ctx.sandbox.url}/processor/checkout/${link.reference}`, size.width, { height: size.height });
      expect(await page.locator("h1").textContent()).toBe("Complete your payment");
      expect(await page.locator("[data-testid=merchant]").textContent()).toBe("Mama Put Foods Ltd");
      await expectSingleFigures(page, link.reference);
      const account = (await page.locator("[data-testid=account-number]").textContent())!;
      await watchStatus(page);
      await m.api("POST", "/sandbox/v1/clock/advance", { by: "30m" });
      await expect.poll(() => page.locator("#status").textContent(), { timeout: 10_000 }).toBe("Expired");
      await expect.poll(() => page.locator("#expired").isVisible()).toBe(true);
      const text = await shownText(page);
      expect(text).not.toContain("Time left");
      expect(text).not.toContain("00:00");
      expect(await page.locator("#expired").textContent()).toMatch(
        /^This payment link has expired₦12,500\.00Jollof rice for twoIt expired on \d{1,2} [A-Z][a-z]{2} \d{4},? \d\d:\d\d WAT\. Its one-time account is closed: do not transfer to it\. Ask Mama Put Foods Ltd for a new payment link\./,
      );
      await expectSingleFigures(page, link.reference);
      expect(await page.locator("[data-testid=account-number]").count()).toBe(0);
      expect(await page.content()).not.toContain(account);
      expect(await page.locator("#receipt").count()).toBe(0);
      expect(await page.getByRole("button", { name: "Simulate bank transfer" }).isDisabled()).toBe(true);
      const changes = await statusChanges(page);
      await polled(page);
      expect(await statusChanges(page)).toBe(changes);
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, "expired", size.name);
      const live = await stateWords(page);
      expect(violations).toEqual([]);
      await page.close();

      const again = await openPage(ctx, `${ctx.sandbox.url}/processor/checkout/${link.reference}`, size.width, { height: size.height });
      expect(await again.page.locator("#expired").isVisible()).toBe(true);
      expect(await stateWords(again.page)).toEqual(live);
      expect(await again.page.content()).not.toContain(account);
      expect(again.violations).toEqual([]);
      await again.page.close();
    }, 60_000);

    it(`${size.name}: not found, styled, with a viewport`, async () => {
      const { page, violations, status } = await openPage(ctx, `${ctx.sandbox.url}/pay/CHK_NO_SUCH_LINK`, size.width, { height: size.height });
      expect(status).toBe(404);
      expect(await page.locator("h1").textContent()).toBe("Payment link not found");
      expect(await page.locator("meta[name=viewport]").getAttribute("content")).toBe("width=device-width, initial-scale=1");
      expect(await page.locator(".card.pay-outcome").count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, "not-found", size.name);
      expect(violations).toEqual([]);
      await page.close();
    }, 60_000);
  }

  it("dark: every state readable (axe's contrast check included)", async () => {
    const { m, link } = await newLink({ redirect_url: `${ctx.sandbox.url}/health` });
    const { page, violations } = await openPage(ctx, `${ctx.sandbox.url}/processor/checkout/${link.reference}`, 390, { height: 844 });
    await page.emulateMedia({ colorScheme: "dark" });
    expect(await page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, "pending-dark", "phone");
    await page.close();

    const other = await m.api("POST", "/api/v1/checkout/create", { amount: 700 });
    await m.api("POST", `/sandbox/v1/checkout/${other.reference}/pay`, {});
    const paid = await openPage(ctx, `${ctx.sandbox.url}/pay/${other.reference}`, 390, { height: 844 });
    await paid.page.emulateMedia({ colorScheme: "dark" });
    expect(await axeViolations(paid.page)).toEqual([]);
    await shot(paid.page, "paid-dark", "phone");
    await paid.page.close();

    await m.api("POST", "/sandbox/v1/clock/advance", { by: "30m" });
    const expired = await openPage(ctx, `${ctx.sandbox.url}/pay/${link.reference}`, 390, { height: 844 });
    await expired.page.emulateMedia({ colorScheme: "dark" });
    expect(await expired.page.locator("#expired").isVisible()).toBe(true);
    expect(await axeViolations(expired.page)).toEqual([]);
    await shot(expired.page, "expired-dark", "phone");
    expect([...violations, ...paid.violations, ...expired.violations]).toEqual([]);
    await expired.page.close();
  }, 60_000);

  it("a cancel link back to the merchant, styled as a secondary button; the receipt links back too", async () => {
    const { link } = await newLink({ redirect_url: `${ctx.sandbox.url}/health?order=12` });
    const { page } = await openPage(ctx, `${ctx.sandbox.url}/pay/${link.reference}`);
    const cancel = page.getByRole("link", { name: "Cancel and return to Mama Put Foods Ltd" });
    expect(await cancel.getAttribute("href")).toBe(`${ctx.sandbox.url}/health?order=12`);
    expect(await cancel.getAttribute("class")).toBe("button secondary pay-wide");
    const look = await cancel.evaluate((el) => {
      const s = (globalThis as unknown as { getComputedStyle(e: unknown): Record<string, string> }).getComputedStyle(el);
      return { underline: s.textDecorationLine, display: s.display, border: s.borderTopStyle };
    });
    expect(look).toEqual({ underline: "none", display: "flex", border: "solid" });
    expect(await page.getByRole("link", { name: "Return to Mama Put Foods Ltd", exact: true }).count()).toBe(0);
    await cancel.click();
    await page.waitForURL(`${ctx.sandbox.url}/health?order=12`);
    await page.close();
  }, 60_000);

  it("pays through the sandbox panel: a wrong amount is refused, the exact one taken, the receipt says where it goes back", async () => {
    const { link } = await newLink({ redirect_url: `${ctx.sandbox.url}/health?order=13` });
    const { page, violations } = await openPage(ctx, `${ctx.sandbox.url}/pay/${link.reference}`);
    await page.getByLabel("Amount to transfer (₦)").fill("12000");
    await page.getByRole("button", { name: "Simulate bank transfer" }).click();
    await expect.poll(() => page.locator("#message").textContent()).toContain("accepts exactly NGN 12500.00");
    expect(await page.locator("#status").textContent()).toBe("Awaiting payment");
    await page.getByLabel("Amount to transfer (₦)").fill("12500");
    await page.getByRole("button", { name: "Simulate bank transfer" }).click();
    await expect.poll(() => page.locator("#receipt .notice").textContent()).toBe("Taking you back to Mama Put Foods Ltd…");
    expect(await page.locator("#message").textContent()).toBe("Payment received. Thank you!");
    expect(await page.getByRole("link", { name: "Return to Mama Put Foods Ltd", exact: true }).isVisible()).toBe(true);
    await page.waitForURL(`${ctx.sandbox.url}/health?order=13`, { timeout: 10_000 });
    expect(violations).toEqual([]);
    await page.close();
  }, 60_000);

  it("a long email and description: the email on one line inside its own box, the description wrapped, nothing sideways at 390 px", async () => {
    const email = "adaeze.okonkwo-oluwaseun.customer-receipts@accounts-payable.mama-put-foods.example.com.ng";
    const { link } = await newLink({ customer_email: email, description: `Jollof rice for two ${LONG_WORD}` });
    const { page, violations } = await openPage(ctx, `${ctx.sandbox.url}/pay/${link.reference}`, 390, { height: 844 });
    expect(await page.locator("[data-testid=customer-email]").textContent()).toBe(email);
    const box = await lines(page, "[data-testid=customer-email]");
    expect(box.lines).toBe(1);
    expect(box.right).toBeLessThanOrEqual(390);
    expect(box.focusable).toBe(true); // it scrolls inside its box, so a keyboard can reach it
    expect(await page.locator("[data-testid=description]").textContent()).toContain(LONG_WORD);
    expect((await lines(page, "[data-testid=reference]")).focusable).toBe(false);
    expect(await noSidewaysScroll(page)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    expect(violations).toEqual([]);
    await page.close();
  }, 60_000);

  it("no sideways scroll at 320 px, in every state, with long unbroken text", async () => {
    const { m, link } = await newLink({ description: `Jollof rice for two ${LONG_WORD}` });
    const pending = await openPage(ctx, `${ctx.sandbox.url}/pay/${link.reference}`, 320, { height: 700 });
    expect(await pending.page.locator("[data-testid=description]").textContent()).toContain(LONG_WORD);
    expect((await lines(pending.page, "[data-testid=reference]")).lines).toBe(1);
    expect(await noSidewaysScroll(pending.page)).toBe(true);
    await pending.page.getByRole("button", { name: "I've sent the money" }).click();
    expect(await noSidewaysScroll(pending.page)).toBe(true);
    await pending.page.getByRole("button", { name: "Simulate bank transfer" }).click();
    await expect.poll(() => pending.page.locator("#status").textContent()).toBe("Paid");
    await expect.poll(() => pending.page.locator("#receipt").isVisible()).toBe(true);
    expect(await noSidewaysScroll(pending.page)).toBe(true);
    await pending.page.close();

    const other = await m.api("POST", "/api/v1/checkout/create", { amount: 100, description: LONG_WORD });
    await m.api("POST", "/sandbox/v1/clock/advance", { by: "30m" });
    const expired = await openPage(ctx, `${ctx.sandbox.url}/pay/${other.reference}`, 320, { height: 700 });
    expect(await expired.page.locator("#expired").isVisible()).toBe(true);
    expect(await noSidewaysScroll(expired.page)).toBe(true);
    await expired.page.close();

    const missing = await openPage(ctx, `${ctx.sandbox.url}/pay/CHK_NO_SUCH_LINK`, 320, { height: 700 });
    expect(await noSidewaysScroll(missing.page)).toBe(true);
    await missing.page.close();
  }, 60_000);
});
