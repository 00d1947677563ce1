/**
 * The payment page as a customer meets it, at desktop and phone sizes: what to pay with copy buttons,
 * the "I've sent the money" step, a receipt or an expired panel in place of the account details, the
 * status announced only when it changes, no sideways scroll at 320 px, the not-found page; axe-core
 * finds no critical or serious violation in any state. Screenshots of each state and size.
 */
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { axeViolations, merchantAt, openPage, SCREENSHOTS, SIZES, SKIP_BROWSER, useBrowserSandbox } from "./browser.js";

const ctx = useBrowserSandbox();
/** One unbroken word as long as a description may hold, which must wrap rather than scroll. */
const LONG_WORD = "Supercalifragilistic".repeat(9);

async function newLink(body: Record<string, unknown> = {}) {
  const m = await merchantAt(ctx.sandbox.url, { business_name: "Mama Put Foods Ltd" });
  const link = await m.api("POST", "/api/v1/checkout/create", {
    amount: 12_500, description: `Jollof rice for two ${LONG_WORD}`, customer_email: "ada@example.com", ...body,
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

describe.skipIf(SKIP_BROWSER)("payment page", () => {
  for (const size of SIZES) {
    it(`${size.name}: pending with copy buttons, "I've sent the money", then a receipt in place of the account`, async () => {
      const { m, link } = await newLink();
      const { page, violations, external } = await openPage(ctx, `${ctx.sandbox.url}/pay/${link.reference}`, size.width, { height: size.height, clipboard: true });
      await expect.poll(() => page.locator("#countdown").textContent()).toBe("30:00");
      expect(await page.locator("h1").textContent()).toBe("Mama Put Foods Ltd");
      expect(await page.locator(".logo").textContent()).toBe("MP");
      expect(await page.locator("[data-testid=customer-email]").textContent()).toBe("Paying as ada@example.com");
      expect(await page.locator("[data-testid=transfer-amount]").textContent()).toBe("₦12,500.00");
      const account = (await page.locator("[data-testid=account-number]").textContent())!;
      expect(account).toMatch(/^\d{10}$/);
      expect(await page.locator("#transfer-details").textContent()).toContain("Partner Bank (Sandbox)");
      expect(await page.locator("#cancel-link").count()).toBe(0); // no redirect_url: nowhere to go back to
      expect(await noSidewaysScroll(page)).toBe(true);
      // The sandbox's own controls sit apart, after what the customer sees, and say so.
      expect(await page.locator("#simulate .sandbox-tag").textContent()).toBe("Sandbox only");
      expect(await page.locator("#transfer-details ~ #simulate").count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, "pending", size.name);

      await page.getByRole("button", { name: "Copy account number" }).click();
      await expect.poll(() => page.evaluate("navigator.clipboard.readText()")).toBe(account);
      expect(await page.locator("#copy-note").textContent()).toBe("Account number copied");
      await page.getByRole("button", { name: "Copy amount" }).click();
      await expect.poll(() => page.evaluate("navigator.clipboard.readText()")).toBe("12500.00");

      await page.getByRole("button", { name: "I've sent the money" }).click();
      expect(await page.locator("#waiting").isVisible()).toBe(true);
      expect(await page.evaluate('document.activeElement.id')).toBe("waiting");
      expect(await page.locator("#sent-button").isVisible()).toBe(false);
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
      expect(await page.locator("#receipt").isVisible()).toBe(true);
      expect(await page.locator("#receipt").textContent()).toMatch(/Payment received.*₦12,500\.00.*WAT/);
      expect(await page.locator("#receipt").textContent()).toContain("ada@example.com");
      expect(await page.locator("#transfer-details").count()).toBe(0);
      expect(await page.locator("[data-testid=account-number]").count()).toBe(0);
      expect(await page.content()).not.toContain(account);
      expect(await page.evaluate('document.activeElement.id')).toBe("receipt"); // focus was in the waiting panel, which left
      const afterPaid = await statusChanges(page);
      expect(afterPaid).toBeGreaterThan(0);
      await polled(page);
      await polled(page);
      expect(await statusChanges(page)).toBe(afterPaid);
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, "paid", size.name);
      expect(violations).toEqual([]);
      expect(external).toEqual([]);
      await page.close();

      // Opened again once paid: the receipt from the start, never the account.
      const again = await openPage(ctx, `${ctx.sandbox.url}/pay/${link.reference}`, size.width, { height: size.height });
      expect(await again.page.locator("#receipt").isVisible()).toBe(true);
      expect(await again.page.locator("[data-testid=account-number]").count()).toBe(0);
      expect(await again.page.content()).not.toContain(account);
      await again.page.close();
    }, 60_000);

    it(`${size.name}: expired, with no account number left on the page`, async () => {
      const { m, link } = await newLink();
      const { page, violations } = await openPage(ctx, `${ctx.sandbox.url}/processor/checkout/${link.reference}`, size.width, { height: size.height });
      const account = (await page.locator("[data-testid=account-number]").textContent())!;
      await watchStatus(page);
      await m.api("POST", "/sandbox/v1/clock/advance", { by: "30m" });
      await expect.poll(() => page.locator("#status").textContent(), { timeout: 10_000 }).toBe("Expired");
      expect(await page.locator("#expired").isVisible()).toBe(true);
      expect(await page.locator("[data-testid=account-number]").count()).toBe(0);
      expect(await page.content()).not.toContain(account);
      expect(await page.locator("#receipt").isVisible()).toBe(false);
      const changes = await statusChanges(page);
      await polled(page);
      expect(await statusChanges(page)).toBe(changes);
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, "expired", size.name);
      expect(violations).toEqual([]);
      await page.close();

      const again = await openPage(ctx, `${ctx.sandbox.url}/pay/${link.reference}`, size.width, { height: size.height });
      expect(await again.page.locator("#expired").isVisible()).toBe(true);
      expect(await again.page.content()).not.toContain(account);
      await again.page.close();
    }, 60_000);

    it(`${size.name}: not found, styled, with a viewport`, async () => {
      const { page, violations, status } = await openPage(ctx, `${ctx.sandbox.url}/pay/CHK_NO_SUCH_LINK`, size.width, { height: size.height });
      expect(status).toBe(404);
      expect(await page.locator("h1").textContent()).toBe("Payment link not found");
      expect(await page.locator("meta[name=viewport]").getAttribute("content")).toBe("width=device-width, initial-scale=1");
      expect(await page.locator(".card.outcome").count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, "not-found", size.name);
      expect(violations).toEqual([]);
      await page.close();
    }, 60_000);
  }

  it("a cancel link back to the merchant when the link has a redirect_url, and the receipt links back too", async () => {
    const { link } = await newLink({ redirect_url: `${ctx.sandbox.url}/health?order=12` });
    const { page } = await openPage(ctx, `${ctx.sandbox.url}/pay/${link.reference}`);
    expect(await page.getByRole("link", { name: "Cancel and return to Mama Put Foods Ltd" }).getAttribute("href")).toBe(`${ctx.sandbox.url}/health?order=12`);
    expect(await page.getByRole("link", { name: "Return to Mama Put Foods Ltd", exact: true }).isVisible()).toBe(false);
    await page.getByRole("link", { name: "Cancel and return to Mama Put Foods Ltd" }).click();
    await page.waitForURL(`${ctx.sandbox.url}/health?order=12`);
    await page.close();
  }, 60_000);

  it("no sideways scroll at 320 px, in every state, with long unbroken text", async () => {
    const { m, link } = await newLink();
    const pending = await openPage(ctx, `${ctx.sandbox.url}/pay/${link.reference}`, 320, { height: 700 });
    expect(await pending.page.locator("[data-testid=description]").textContent()).toContain(LONG_WORD);
    expect(await noSidewaysScroll(pending.page)).toBe(true);
    await pending.page.getByRole("button", { name: "I've sent the money" }).click();
    expect(await noSidewaysScroll(pending.page)).toBe(true);
    await pending.page.getByRole("button", { name: "Simulate bank transfer" }).click();
    await expect.poll(() => pending.page.locator("#status").textContent()).toBe("Paid");
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
