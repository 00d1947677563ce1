/** The test helper as a user imports it: through the package's "./testing" export (built output). */
import { describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "merchant-sandbox/testing";
import { closedAfterEach } from "../helpers.js";

const closedAfter = closedAfterEach((s: Sandbox) => s.close());
const sandbox = async (options?: Parameters<typeof startSandbox>[0]) => closedAfter(await startSandbox(options));

describe("startSandbox()", () => {
  it("serves an isolated merchant on an ephemeral port and delivers its signed webhooks", async () => {
    const s = await sandbox({ merchant: { wallet_balance: 1_000 } });
    expect(s.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(s.merchant.apiKey).toMatch(/^pk_test_/);
    expect((await s.request("GET", "/api/v1/wallet/balance")).body.data.balance).toBe(1_000);

    const va = await s.request("POST", "/api/v1/virtual-account/create", {
      email: "ada@example.com", reference: "c1", bank: "partnerbank", first_name: "Ada", last_name: "Obi", bvn: "22212345678",
    });
    const payment = await s.simulateTransfer({ accountNumber: va.body.data.account_number, amount: 2_000, narration: "Order 9" });
    const hook = await s.nextWebhook({ type: "payment.received" });
    expect(hook.verified).toBe(true);
    expect(hook.data).toMatchObject({ reference: "Order 9", amount: 2_000, transaction_id: payment.transaction_id });
    expect((await s.request("GET", "/api/v1/wallet/balance")).body.data.balance).toBe(3_000);
  });

  it("advance() drives payouts to completion; payLink() pays a link", async () => {
    const s = await sandbox();
    const payout = await s.request("POST", "/api/v1/payout/transfer", {
      amount: 500, bank_code: "999992", account_number: "8031234567", account_name: "IBRAHIM CHUKWUEMEKA IBRAHIM", bank_name: "OPay (Paycom)", reference: "t-1",
    });
    expect(payout.status).toBe(201);
    expect(await s.advance("30s")).toMatchObject({ fired: 1 });
    expect((await s.nextWebhook({ type: "payout.completed" })).data).toMatchObject({ reference: "t-1", status: "completed" });
    const link = await s.request("POST", "/api/v1/checkout/create", { amount: 1_500 });
    expect((await s.payLink(link.body.reference)).status).toBe(200);
    expect((await s.nextWebhook({ type: "checkout.completed" })).data.reference).toBe(link.body.reference);
    expect(await s.advance(60)).toMatchObject({ fired: 0 });
  });

  it("two sandboxes never share state; nextWebhook times out when nothing comes", async () => {
    const [a, b] = await Promise.all([sandbox(), sandbox()]);
    expect(a.baseUrl).not.toBe(b.baseUrl);
    await a.request("POST", "/sandbox/v1/wallet/fund", { amount: 5 });
    expect((await b.request("GET", "/api/v1/wallet/balance")).body.data.balance).toBe(1_000_000);
    await expect(b.nextWebhook({ timeout: 50 })).rejects.toThrow(/no webhook arrived/);
  });
});
