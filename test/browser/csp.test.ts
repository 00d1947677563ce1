/**
 * Every page the sandbox serves runs under its Content-Security-Policy with no violation in chromium,
 * and still works: its nonce'd script runs, its nonce'd stylesheet applies, and no style attribute
 * is left for the policy to block.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { VIEWS } from "../../src/pages/dashboard-views.js";
import { storyHref } from "../../src/pages/dashboard-ui.js";
import { merchantAt, openPage, SKIP_BROWSER, useBrowserSandbox } from "./browser.js";
import { LOAD, settled, signIn } from "./dashboard-driver.js";

const ctx = useBrowserSandbox();
// `el` is a DOM element; this project compiles without the DOM types.
const style = (page: Page, selector: string, property: string) =>
  page.locator(selector).first().evaluate((el, p) => (globalThis as any).getComputedStyle(el).getPropertyValue(p) as string, property);

/** The stylesheet's own value: `pattern`'s first group in src/browser/styles/`file`. */
function css(file: string, pattern: RegExp): string {
  const found = pattern.exec(readFileSync(new URL(`../../src/browser/styles/${file}`, import.meta.url), "utf8"));
  if (!found) throw new Error(`${pattern} is not in ${file}`);
  return found[1]!;
}
/** A custom property's value in tokens.css (the light scheme's). */
const token = (name: string) => css("tokens.css", new RegExp(`${name}:\\s*([^;]+);`)).trim();
/** A #rrggbb colour as getComputedStyle gives it. */
const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(", ")})`;
/** The light scheme's --bg on <body> (the first in tokens.css; the dark one is under its media query): the nonce'd stylesheet applied. */
const BG = rgb(token("--bg"));

describe.skipIf(SKIP_BROWSER)("pages under their Content-Security-Policy", () => {
  it("payment page: pending, paid, and paid on reload", async () => {
    const m = await merchantAt(ctx.sandbox.url);
    const link = await m.api("POST", "/api/v1/checkout/create", { amount: 2500, redirect_url: `${ctx.sandbox.url}/health` });
    const { page, violations } = await openPage(ctx, `${ctx.sandbox.url}/pay/${link.reference}`);
    await expect.poll(() => page.locator("#countdown").textContent()).toBe("30:00");
    expect(await style(page, "body", "background-color")).toBe(BG);
    await page.getByRole("button", { name: "Simulate bank transfer" }).click();
    await expect.poll(() => page.locator("#status").textContent()).toBe("Paid");
    await page.waitForURL(`${ctx.sandbox.url}/health`, { timeout: 10_000 });
    expect(violations).toEqual([]);
    await page.close();

    const again = await openPage(ctx, `${ctx.sandbox.url}/pay/${link.reference}`);
    await expect.poll(() => again.page.locator("#receipt").isVisible()).toBe(true);
    expect(await again.page.locator("#countdown").count()).toBe(0);
    expect(await again.page.getByRole("button", { name: "Simulate bank transfer" }).isDisabled()).toBe(true);
    expect(again.violations).toEqual([]);
    await again.page.close();
  }, 60_000);

  it("processor checkout page", async () => {
    const m = await merchantAt(ctx.sandbox.url);
    const link = await m.api("POST", "/api/v1/checkout/create", { amount: 1200 });
    const { page, violations } = await openPage(ctx, `${ctx.sandbox.url}/processor/checkout/${link.reference}`);
    await expect.poll(() => page.locator("#countdown").textContent()).toBe("30:00");
    // The processor's own brand colour (the light scheme's, the first in checkout.css).
    expect(await style(page, ".pay-card", "border-top-color")).toBe(rgb(css("checkout.css", /\.processor\s*\{\s*--brand:\s*(#[0-9a-f]{6})/i)));
    await page.getByLabel("Amount to transfer (₦)").fill("1000");
    await page.getByRole("button", { name: "Simulate bank transfer" }).click();
    await expect.poll(() => page.locator("#message").textContent()).toContain("accepts exactly");
    expect(violations).toEqual([]);
    await page.close();
  }, 60_000);

  it("not-found page for an unknown link", async () => {
    const { page, violations, status } = await openPage(ctx, `${ctx.sandbox.url}/pay/CHK_NO_SUCH_LINK`);
    expect(status).toBe(404);
    expect(await page.locator("h1").textContent()).toBe("Payment link not found");
    expect(await page.locator("meta[name=viewport]").getAttribute("content")).toBe("width=device-width, initial-scale=1");
    expect(await style(page, "body", "background-color")).toBe(BG);
    expect(violations).toEqual([]);
    await page.close();
  }, 60_000);

  it("dashboard, signed in, every view and a story with its sections loaded, and an action sent", async () => {
    const m = await merchantAt(ctx.sandbox.url);
    const link = await m.api("POST", "/api/v1/checkout/create", { amount: 3000 });
    const va = await m.api("POST", "/api/v1/virtual-account/create", {
      customer_type: "individual", bank: "partnerbank", first_name: "Ada", last_name: "Obi", email: "ada@example.com", reference: "va-1", bvn: "22345678901",
    });
    expect(va.success, JSON.stringify(va)).toBe(true);
    const { page, violations } = await openPage(ctx, `${ctx.sandbox.url}/dashboard`, 1200);
    await signIn(page, m.keys);
    await settled(page, "Home");
    await expect.poll(() => page.locator("[data-testid=balance]").textContent(), LOAD).toMatch(/^₦/);
    // Each view loads its own sections: every one of them, and a story, under the policy.
    for (const view of VIEWS) {
      await page.goto(`${ctx.sandbox.url}/dashboard${view.path ? `/${view.path}` : ""}`);
      await settled(page, view.title);
      // What were style attributes are classes of the nonce'd stylesheet now.
      expect(await page.locator("[style]").count(), view.title).toBe(0);
    }
    await page.goto(`${ctx.sandbox.url}${storyHref("checkout", link.reference)}`);
    await settled(page, `Payment link ${link.reference}`);
    expect(await page.locator("[style]").count()).toBe(0);

    await page.goto(`${ctx.sandbox.url}/dashboard/payment-links`);
    await settled(page, "Payment links");
    expect(await style(page, "[data-section=links] .scroll-x", "overflow-x")).toBe("auto");
    await page.locator("[data-section=links] summary", { hasText: "Create a payment link" }).click();
    expect(await style(page, "[data-section=links] form.gap-top", "margin-top")).toBe(token(css("base.css", /\.gap-top\s*\{\s*margin-top:\s*var\((--[\w-]+)\)/)));
    await page.goto(`${ctx.sandbox.url}/dashboard/virtual-accounts`);
    await settled(page, "Virtual accounts");
    // The row's transfer form is folded: opened, its amount field has its class's width.
    await page.locator("[data-section=accounts] summary", { hasText: "Simulate a transfer in" }).first().click();
    expect(await style(page, "[data-section=accounts] input.w-m", "width")).toBe(css("components.css", /\.w-m\s*\{\s*width:\s*(\d+px)/));

    await page.goto(`${ctx.sandbox.url}/dashboard`);
    await settled(page, "Home");
    const before = await page.locator("[data-testid=sim-time]").textContent();
    await page.getByRole("button", { name: "Advance 1 min" }).click();
    await expect.poll(() => page.locator("[data-testid=sim-time]").textContent(), LOAD).not.toBe(before);
    expect(await page.locator("[style]").count()).toBe(0);
    expect(violations).toEqual([]);
    await page.close();
  }, 60_000);

  it("/docs renders Scalar; the only report is zod's eval probe, which falls back", async () => {
    const { page, violations } = await openPage(ctx, `${ctx.sandbox.url}/docs`, 1200);
    await expect.poll(() => page.getByText("Wallet balance").first().isVisible(), { timeout: 20_000 }).toBe(true);
    await page.getByText("Payouts").first().click();
    await page.keyboard.press("Control+k");
    await page.keyboard.type("payout");
    await expect.poll(() => page.getByText("Status of a payout").first().isVisible()).toBe(true);
    // zod (inside Scalar) probes for eval with `new Function("")` in a try/catch: blocked without
    // 'unsafe-eval', which /docs does not need; chromium still reports the attempt.
    const zodProbe = /^script-src blocked eval at .*\/docs\/scalar\.js:/;
    expect(violations.filter((v) => !zodProbe.test(v))).toEqual([]);
    await page.close();
  }, 60_000);
});
