import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { parseSettings } from "../../src/config.js";
import { startServer, type RunningSandbox } from "../../src/server.js";
import { startReceiver, type Receiver } from "../receiver.js";
import { launch, SCREENSHOTS, SKIP_BROWSER } from "./browser.js";

let browser: Browser;
let sandbox: RunningSandbox;
let receiver: Receiver;

beforeAll(async () => {
  if (SKIP_BROWSER) return;
  const parsed = parseSettings(["--port", "0"], {});
  if ("error" in parsed) throw new Error(parsed.error);
  sandbox = await startServer(parsed.settings);
  receiver = await startReceiver();
  browser = await launch();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await sandbox?.close();
  await receiver?.close();
});

async function merchant(settings: Record<string, unknown> = {}) {
  const res = await fetch(`${sandbox.url}/sandbox/v1/merchants`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(settings) });
  const { data } = (await res.json()) as any;
  const headers = { "x-api-key": data.api_key as string, "x-api-secret": data.api_secret as string, "content-type": "application/json" };
  const api = async (method: string, path: string, body?: unknown) =>
    (await (await fetch(`${sandbox.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })).json()) as any;
  return { data, api };
}

/** A page that records every request leaving this sandbox's host (there must be none). */
async function openPage(url: string, width = 390): Promise<{ page: Page; external: string[] }> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  const external: string[] = [];
  page.on("request", (r) => {
    if (!r.url().startsWith(sandbox.url) && !r.url().startsWith("data:")) external.push(r.url());
  });
  await page.goto(url);
  return { page, external };
}
const local = (url: string) => url.replace(/^http:\/\/[^/]+/, sandbox.url);

describe.skipIf(SKIP_BROWSER)("hosted payment link page", () => {
  it("shows what to pay, refuses a wrong amount, takes the exact one, and the wallet is credited", async () => {
    const m = await merchant({ business_name: "Buka Express", wallet_balance: 0 });
    const link = await m.api("POST", "/api/v1/checkout/create", { amount: 4500, description: "Ofada rice x3" });
    const { page, external } = await openPage(local(link.payment_link));
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
    const m = await merchant();
    const link = await m.api("POST", "/api/v1/checkout/create", { amount: 1000 });
    const { page } = await openPage(local(link.checkout_url));
    await expect.poll(() => page.locator("#status").textContent()).toBe("Awaiting payment");
    expect(await page.locator("#countdown").textContent()).toBe("30:00");
    await m.api("POST", "/sandbox/v1/clock/advance", { by: "30m" });
    await expect.poll(() => page.locator("#status").textContent(), { timeout: 10_000 }).toBe("Expired");
    await expect.poll(() => page.locator("#countdown").textContent()).toBe("00:00");
    expect(await page.getByRole("button", { name: "Simulate bank transfer" }).isDisabled()).toBe(true);
    await page.screenshot({ path: `${SCREENSHOTS}/checkout-expired.png`, fullPage: true });
    await page.close();
  }, 60_000);

  it("sends the customer to the merchant's redirect URL after payment", async () => {
    const m = await merchant();
    const link = await m.api("POST", "/api/v1/checkout/create", { amount: 700, redirect_url: `${sandbox.url}/health?order=77` });
    const { page } = await openPage(local(link.payment_link));
    await page.getByRole("button", { name: "Simulate bank transfer" }).click();
    await page.waitForURL(`${sandbox.url}/health?order=77`, { timeout: 10_000 });
    await page.close();
  }, 60_000);
});

describe.skipIf(SKIP_BROWSER)("dashboard", () => {
  it("signs in, approves a held payout, advances the clock, and shows it completed with its webhook delivery", async () => {
    const m = await merchant({ business_name: "Suya Spot", limits: { payout_review_threshold: 50_000 }, webhook_url: receiver.url });
    await m.api("POST", "/api/v1/payout/transfer", {
      amount: 75_000, bank_code: "058", account_number: "0000000018", account_name: "EZE NGOZI", bank_name: "GTBank", reference: "held-1",
    });
    const { page, external } = await openPage(`${sandbox.url}/dashboard`, 1200);
    await page.getByLabel("API key (X-Api-Key)").fill(m.data.api_key);
    await page.getByLabel("API secret (X-Api-Secret)").fill(m.data.api_secret);
    await page.getByRole("button", { name: "Sign in" }).click();
    const row = page.locator("[data-payout='held-1']");
    await expect.poll(() => row.locator("[data-testid=payout-status]").textContent()).toBe("pending_approval");
    expect(await page.locator("[data-testid=balance]").textContent()).toBe("₦924,250.00");

    await row.getByRole("button", { name: "Approve" }).click();
    await expect.poll(() => row.locator("[data-testid=payout-status]").textContent()).toBe("processing");
    await page.getByRole("button", { name: "Advance 1 min" }).click();
    await expect.poll(() => row.locator("[data-testid=payout-status]").textContent()).toBe("completed");
    await expect.poll(() => page.locator("[data-delivery='payout.completed']").first().textContent()).toContain("HTTP 200");
    await page.screenshot({ path: `${SCREENSHOTS}/dashboard-payout-completed.png`, fullPage: true });
    expect(receiver.received.some((r) => r.body.event === "payout.completed" && r.body.data.reference === "held-1")).toBe(true);
    // The keys live in this tab's sessionStorage only.
    expect(await page.evaluate("Object.keys(localStorage)")).toEqual([]);
    expect(await page.evaluate('sessionStorage.getItem("merchant-sandbox:credentials")')).toContain(m.data.api_key);
    expect(external).toEqual([]);
    await page.close();
  }, 60_000);

  it("refuses wrong keys", async () => {
    const { page } = await openPage(`${sandbox.url}/dashboard`, 1200);
    await page.getByLabel("API key (X-Api-Key)").fill("pk_test_nobody");
    await page.getByLabel("API secret (X-Api-Secret)").fill("sk_test_nothing");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => page.locator("#signin-error").textContent()).toBe("Those keys do not match a merchant.");
    expect(await page.locator("#app").isHidden()).toBe(true);
    await page.close();
  }, 60_000);
});

describe.skipIf(SKIP_BROWSER)("/docs", () => {
  it("renders the API reference offline", async () => {
    const { page, external } = await openPage(`${sandbox.url}/docs`, 1200);
    await expect.poll(() => page.getByText("Wallet balance").first().isVisible(), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => page.getByText("Payouts").first().isVisible()).toBe(true);
    await page.screenshot({ path: `${SCREENSHOTS}/docs.png` });
    expect(external).toEqual([]);
    await page.close();
  }, 60_000);
});
