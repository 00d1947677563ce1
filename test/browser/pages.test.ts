import { describe, expect, it } from "vitest";
import { DEMO_LOG } from "../../src/http/demo-examples.js";
import { DEMO_KEYS, receivers } from "../helpers.js";
import { storyHref } from "../../src/pages/dashboard-ui.js";
import { axeViolations, merchantAt, openPage, SCREENSHOTS, SIZES, SKIP_BROWSER, useBrowserSandbox } from "./browser.js";
import { LOAD, navigate, settled, signIn } from "./dashboard-driver.js";

const ctx = useBrowserSandbox();
const receiver = receivers();
const local = (url: string) => url.replace(/^http:\/\/[^/]+/, ctx.sandbox.url);

describe.skipIf(SKIP_BROWSER)("hosted payment link page", () => {
  it("shows what to pay, refuses a wrong amount, takes the exact one, and the wallet is credited", async () => {
    const m = await merchantAt(ctx.sandbox.url, { business_name: "Buka Express", wallet_balance: 0 });
    const link = await m.api("POST", "/api/v1/checkout/create", { amount: 4500, description: "Ofada rice x3" });
    const { page, external } = await openPage(ctx, local(link.payment_link));
    await expect.poll(() => page.locator("#status").textContent()).toBe("Awaiting payment");
    expect(await page.locator("[data-testid=amount]").textContent()).toBe("₦4,500.00");
    expect(await page.locator("[data-testid=account-number]").textContent()).toMatch(/^\d{10}$/);
    expect(await page.locator("h1").textContent()).toBe("Buka Express");
    expect(await page.getByLabel("Amount to transfer (₦)").inputValue()).toBe("4500");

    await page.getByLabel("Amount to transfer (₦)").fill("4000");
    await page.getByRole("button", { name: "Simulate bank transfer" }).click();
    await expect.poll(() => page.locator("#message").textContent()).toContain("accepts exactly NGN 4500.00");
    expect((await m.api("GET", "/api/v1/wallet/balance")).data.balance).toBe(0);

    await page.getByLabel("Amount to transfer (₦)").fill("4500");
    await page.getByRole("button", { name: "Simulate bank transfer" }).click();
    await expect.poll(() => page.locator("#status").textContent()).toBe("Paid");
    expect(await page.locator("#message").textContent()).toContain("Payment received");
    expect(await page.getByRole("button", { name: "Simulate bank transfer" }).isDisabled()).toBe(true);
    await page.screenshot({ path: `${SCREENSHOTS}/payment-link-paid.png`, fullPage: true });
    expect((await m.api("GET", "/api/v1/wallet/balance")).data.balance).toBe(4500);
    expect((await m.api("GET", `/api/v1/checkout/status?reference=${link.reference}`)).data.status).toBe("paid");
    expect(external).toEqual([]);
    await page.close();
  }, 60_000);

  it("shows the link as expired once the merchant's clock passes 30 minutes", async () => {
    const m = await merchantAt(ctx.sandbox.url);
    const link = await m.api("POST", "/api/v1/checkout/create", { amount: 1000 });
    const { page } = await openPage(ctx, local(link.checkout_url));
    await expect.poll(() => page.locator("#status").textContent()).toBe("Awaiting payment");
    expect(await page.locator("#countdown").textContent()).toBe("30:00");
    await m.api("POST", "/sandbox/v1/clock/advance", { by: "30m" });
    await expect.poll(() => page.locator("#status").textContent(), { timeout: 10_000 }).toBe("Expired");
    await expect.poll(() => page.locator("#expired").isVisible()).toBe(true);
    expect(await page.locator("#countdown").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Simulate bank transfer" }).isDisabled()).toBe(true);
    await page.screenshot({ path: `${SCREENSHOTS}/checkout-expired.png`, fullPage: true });
    await page.close();
  }, 60_000);

  it("sends the customer to the merchant's redirect URL after payment", async () => {
    const m = await merchantAt(ctx.sandbox.url);
    const link = await m.api("POST", "/api/v1/checkout/create", { amount: 700, redirect_url: `${ctx.sandbox.url}/health?order=77` });
    const { page } = await openPage(ctx, local(link.payment_link));
    await page.getByRole("button", { name: "Simulate bank transfer" }).click();
    await page.waitForURL(`${ctx.sandbox.url}/health?order=77`, { timeout: 10_000 });
    await page.close();
  }, 60_000);
});

describe.skipIf(SKIP_BROWSER)("dashboard", () => {
  it("signs in, approves a held payout, advances the clock, and shows it completed with its webhook delivery", async () => {
    const r = await receiver();
    const m = await merchantAt(ctx.sandbox.url, { business_name: "Suya Spot", limits: { payout_review_threshold: 50_000 }, webhook_url: r.url });
    await m.api("POST", "/api/v1/payout/transfer", {
      amount: 75_000, bank_code: "058", account_number: "0000000018", account_name: "EZE FUNMILAYO IBRAHIM", bank_name: "Guaranty Trust Bank", reference: "held-1",
    });
    const { page, external } = await openPage(ctx, `${ctx.sandbox.url}/dashboard`, 1200);
    await signIn(page, m.keys);
    await settled(page, "Home");
    expect(await page.locator("[data-testid=balance]").textContent()).toBe("₦924,250.00");
    await navigate(page, false, "Payouts");
    const row = page.locator("[data-payout='held-1']");
    await expect.poll(() => row.locator("[data-testid=payout-status]").textContent(), LOAD).toBe("pending approval");

    await row.getByRole("button", { name: "Approve" }).click();
    await expect.poll(() => row.locator("[data-testid=payout-status]").textContent(), LOAD).toBe("processing");
    await navigate(page, false, "Home");
    await page.getByRole("button", { name: "Advance 1 min" }).click();
    await expect.poll(() => r.received.some((r) => r.body.event === "payout.completed" && r.body.data.reference === "held-1"), LOAD).toBe(true);
    await navigate(page, false, "Payouts");
    await expect.poll(() => row.locator("[data-testid=payout-status]").textContent(), LOAD).toBe("completed");
    await navigate(page, false, "Events and deliveries");
    await expect.poll(() => page.locator("[data-delivery='payout.completed']").first().textContent(), LOAD).toContain("HTTP 200");
    // Its story holds it all: completed, and the delivery with its answer.
    await page.goto(`${ctx.sandbox.url}${storyHref("payout", "held-1")}`);
    await settled(page, "Payout held-1");
    expect(await page.locator("[data-testid=story-status]").textContent()).toBe("completed");
    expect(await page.locator("[data-testid=story-delivery]").first().textContent()).toContain("HTTP 200");
    await page.screenshot({ path: `${SCREENSHOTS}/dashboard-payout-completed.png`, fullPage: true });
    // The keys live in this tab's sessionStorage only.
    expect(await page.evaluate("Object.keys(localStorage)")).toEqual([]);
    expect(await page.evaluate('sessionStorage.getItem("merchant-sandbox:credentials")')).toContain(m.keys["x-api-key"]);
    expect(external).toEqual([]);
    await page.close();
  }, 60_000);

  it("opens green on the demo merchant, its sample activity tagged", async () => {
    const { page, violations, external } = await openPage(ctx, `${ctx.sandbox.url}/dashboard`, 1200);
    await signIn(page, DEMO_KEYS);
    await settled(page, "Home");
    await expect.poll(() => page.locator("#verdict [data-verdict]").getAttribute("data-verdict"), LOAD).toBe("pass");
    expect(await page.locator("[data-testid=sample-notice]").isVisible()).toBe(true);
    await page.screenshot({ path: `${SCREENSHOTS}/dashboard-demo.png`, fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
    await navigate(page, false, "Integration checks");
    expect(await page.locator("#checks [data-verdict]").getAttribute("data-verdict")).toBe("pass");
    await navigate(page, false, "Request log");
    await expect.poll(() => page.locator("#logs [data-testid=sample-tag]").count(), LOAD).toBe(DEMO_LOG.length);
    await navigate(page, false, "Payouts");
    expect(await page.locator("#payouts [data-testid=sample-tag]").count()).toBe(2);
    expect(violations).toEqual([]);
    expect(external).toEqual([]);
    await page.close();
  }, 60_000);

  it("refuses wrong keys", async () => {
    const { page } = await openPage(ctx, `${ctx.sandbox.url}/dashboard`, 1200);
    await page.getByLabel("API key (X-Api-Key)").fill("pk_test_nobody");
    await page.getByLabel("API secret (X-Api-Secret)").fill("sk_test_nothing");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => page.locator("#signin-error").textContent()).toBe("Those keys do not match a merchant.");
    expect(await page.locator("#app").isHidden()).toBe(true);
    await page.close();
  }, 60_000);
});

describe.skipIf(SKIP_BROWSER)("front page", () => {
  for (const size of SIZES) {
    it(`${size.name}: links to the dashboard, the API reference, OpenAPI and health, and passes axe`, async () => {
      const { page, violations, external, status } = await openPage(ctx, `${ctx.sandbox.url}/`, size.width, { height: size.height });
      expect(status).toBe(200);
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("merchant-sandbox");
      for (const name of ["Dashboard", "API reference", "OpenAPI document", "Health"]) expect(await page.getByRole("link", { name }).isVisible(), name).toBe(true);
      expect(await page.getByText(DEMO_KEYS["x-api-key"]).isVisible()).toBe(true);
      await page.screenshot({ path: `${SCREENSHOTS}/front-page-${size.name}.png`, fullPage: true });
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole("link", { name: "Dashboard" }).click();
      await page.waitForURL(`${ctx.sandbox.url}/dashboard`);
      expect(violations).toEqual([]);
      expect(external).toEqual([]);
      await page.close();
    }, 60_000);
  }
});

describe.skipIf(SKIP_BROWSER)("/docs", () => {
  it("renders the API reference offline", async () => {
    const { page, external } = await openPage(ctx, `${ctx.sandbox.url}/docs`, 1200);
    await expect.poll(() => page.getByText("Wallet balance").first().isVisible(), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => page.getByText("Payouts").first().isVisible()).toBe(true);
    await page.screenshot({ path: `${SCREENSHOTS}/docs.png` });
    expect(external).toEqual([]);
    await page.close();
  }, 60_000);
});
