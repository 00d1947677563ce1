import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { client, payoutBody } from "../client.js";
import { balanceAt, expectError, harness, httpCall, signUpAtStart, startFromArgs, stopServers, tempDirs, until } from "../helpers.js";

const dataDir = tempDirs("msb-data-");
afterEach(stopServers); // registered last, so it runs first: no server writes into a removed folder

const start = (dir: string) => startFromArgs(["--data", dir]);

describe("--data persistence", () => {
  it("a restart loses nothing that was acknowledged, and pending timers resume", async () => {
    const dir = await dataDir();
    const first = await start(dir);
    const m = await signUpAtStart(first.url, { wallet_balance: 20_000 });
    expect((await m.call("POST", "/api/v1/payout/transfer", { body: payoutBody({ amount: 1_000, reference: "p1" }) })).status).toBe(201);
    const va = await m.call("POST", "/api/v1/virtual-account/create", {
      body: { email: "ada@example.com", reference: "c1", bank: "partnerbank", first_name: "Ada", last_name: "Obi", bvn: "22212345678" },
    });
    await m.call("POST", `/sandbox/v1/virtual-accounts/${va.body.data.account_number}/transfers`, { body: { amount: 500, narration: "n1" } });
    await stopServers();

    const second = await start(dir);
    expect(second.restored).toBe(2); // the demo merchant and ours
    expect(await balanceAt(second.url, m.keys)).toBe(20_000 - 1_010 + 500);
    expect((await httpCall(second.url, "GET", "/api/v1/payout/status?reference=p1", { keys: m.keys })).body.data.status).toBe("processing");
    expect((await httpCall(second.url, "GET", "/api/v1/transaction/status?reference=n1", { keys: m.keys })).body.data.amount).toBe(500);
    expect((await httpCall(second.url, "GET", "/sandbox/v1/clock", { keys: m.keys })).body.data).toMatchObject({ now: "2026-03-02T09:00:00.000Z", pending_timers: 1 });
    expect((await httpCall(second.url, "GET", "/sandbox/v1/events", { keys: m.keys })).body.data).toHaveLength(1);
    const advanced = await httpCall(second.url, "POST", "/sandbox/v1/clock/advance", { keys: m.keys, body: { seconds: 30 } });
    expect(advanced.body.data.fired).toBe(1);
    expect((await httpCall(second.url, "GET", "/api/v1/payout/status?reference=p1", { keys: m.keys })).body.data).toMatchObject({
      status: "completed",
      processed_at: "2026-03-02T09:00:30.000Z",
    });
  });

  it("a mutating response is sent only after its write has landed", async () => {
    const dir = await dataDir();
    const s = await start(dir);
    const m = await signUpAtStart(s.url);
    const funded = await m.call("POST", "/sandbox/v1/wallet/fund", { body: { amount: 123.45 } });
    expect(funded.status).toBe(200);
    const onDisk = JSON.parse(await readFile(join(dir, `${m.id}.json`), "utf8"));
    expect(onDisk.state.ledger.at(-1)).toMatchObject({ kind: "wallet_funding", amount: 12_345, transaction_id: funded.body.data.transaction_id });
  });

  it("many concurrent writes to one merchant are batched into a few serialisations", async () => {
    const dir = await dataDir();
    const s = await start(dir);
    const m = await signUpAtStart(s.url, { wallet_balance: 0 });
    const before = s.store!.writeCount;
    const replies = await Promise.all(Array.from({ length: 100 }, () => m.call("POST", "/sandbox/v1/wallet/fund", { body: { amount: 1 } })));
    expect(replies.every((r) => r.status === 200)).toBe(true);
    const writes = s.store!.writeCount - before;
    expect(writes).toBeGreaterThanOrEqual(1);
    expect(writes).toBeLessThan(20);
    const onDisk = JSON.parse(await readFile(join(dir, `${m.id}.json`), "utf8"));
    expect(onDisk.state.ledger.at(-1).balance_after).toBe(100_00);
  });

  it("a realtime merchant's timer that fell due while stopped fires after the restart", async () => {
    const dir = await dataDir();
    const first = await start(dir);
    const m = await signUpAtStart(first.url, { clock: { mode: "realtime", speed: 600 }, delays: { payout_settlement_seconds: 60 } });
    await m.call("POST", "/sandbox/v1/clock/advance", { body: { seconds: 0 } });
    expect((await m.call("POST", "/api/v1/payout/transfer", { body: payoutBody({ amount: 1_000, reference: "rt" }) })).status).toBe(201);
    await stopServers();
    const second = await start(dir);
    const tenant = second.registry.get(m.id)!;
    await until(() => tenant.state.payouts.get("rt")!.status !== "processing", "the payout to settle after the restart");
    expect(tenant.state.payouts.get("rt")!.status).toBe("completed");
  });

  it("a corrupt or invalid data file stops the start with an error naming the file", async () => {
    const dir = await dataDir();
    await writeFile(join(dir, "mch_broken.json"), "{ not json");
    await expect(start(dir)).rejects.toThrow(join(dir, "mch_broken.json"));
    const dir2 = await dataDir();
    await writeFile(join(dir2, "mch_odd.json"), JSON.stringify({ format: "merchant-sandbox/v1", merchant: {} }));
    await expect(start(dir2)).rejects.toThrow(/mch_odd\.json is not a valid merchant-sandbox file at merchant\./);
  });
});

describe("snapshots", () => {
  it("GET exports a merchant and PUT restores it into another, which keeps its own keys", async () => {
    const h = harness();
    const a = client(await h.merchant({ wallet_balance: 9_000, business_name: "Source Ltd" }));
    await a.processingPayout({ amount: 1_000, reference: "snap" });
    const holder = await a.cardholder({ email: "ada@example.com" }, { approved: false });
    const snapshot = await a.snapshot();
    expect(snapshot).toMatchObject({ format: "merchant-sandbox/v1", merchant: { business_name: "Source Ltd" } });

    const b = client(await h.merchant({ wallet_balance: 1 }));
    const restored = await b.call("PUT", "/sandbox/v1/snapshot", { body: snapshot });
    expect(restored.status).toBe(200);
    expect(await b.balance()).toBe(9_000 - 1_010);
    expect((await b.payoutStatus("snap")).status).toBe("processing");
    expect((await b.call("GET", `/api/v1/virtual-cards/cardholders/${holder.cardholder_id}`)).body.kyc_status).toBe("PENDING");
    expect(b.tenant.config).toMatchObject({ api_key: b.merchant.apiKey, merchant_id: b.merchant.id, business_name: "Source Ltd" });
    expect(b.tenant.state.timers.every((t) => t.merchantId === b.merchant.id)).toBe(true);
    // The restored timers run on B's clock, and A is untouched by B's activity.
    expect((await b.advance("2m")).fired).toBe(2);
    expect((await a.payoutStatus("snap")).status).toBe("processing");
  });

  it("PUT refuses an invalid snapshot with VALIDATION_ERROR naming the path, and changes nothing", async () => {
    const c = client(await harness().merchant({ wallet_balance: 50 }));
    const snapshot = await c.snapshot();
    snapshot.state.ledger[0].amount = "lots";
    const res = await c.call("PUT", "/sandbox/v1/snapshot", { body: snapshot });
    expect(expectError(res, 422, "VALIDATION_ERROR").errors).toHaveProperty(["state.ledger.0.amount"]);
    expect(await c.balance()).toBe(50);
  });
});
