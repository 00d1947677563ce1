/**
 * Issue 11 ("Never down, never corrupt"): with --data, a write that failed (a full disk, say) answered
 * 500, but the change stayed applied in memory and the next good write saved it: a client that
 * retried credited or paid twice, and webhooks went out for changes the disk never held. A failed
 * write must undo its changes (memory back to the last good file), answer 503 STORE_UNAVAILABLE,
 * send no webhook, and make /health say so until a write succeeds again.
 *
 * The sandbox is built in-process, wired as src/server.ts wires it, with a FileStore whose I/O the
 * test controls: writes can be made to fail (ENOSPC) or held, on demand.
 */
import { mkdtemp, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createApp } from "../../src/app.js";
import { createRuntime } from "../../src/runtime.js";
import { makeNuban } from "../../src/domain/nuban.js";
import type { StoreIO } from "../../src/store/file-store.js";
import type { Snapshot } from "../../src/domain/snapshot.js";
import { openDataStore } from "../../src/server.js";
import { loadCatalog } from "../../src/store/fixtures.js";
import { Registry } from "../../src/engine/registry.js";
import { snapshotOf, type Tenant } from "../../src/engine/tenant.js";
import { checkResponse } from "../openapi-check.js";
import { startReceiver, type Receiver } from "../receiver.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const undo of cleanups.splice(0).reverse()) await undo();
  vi.restoreAllMocks();
});

const enospc = () => Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", errno: -28, syscall: "write" });

/** Disk I/O the test steers: real atomic files, unless told to fail or to hold writes. */
function controlledIO() {
  const ctl = {
    /** Every write fails with this error while it is set. */
    failure: null as Error | null,
    /** Writes wait for this before they go on (to batch concurrent changes behind one write). */
    hold: null as Promise<void> | null,
    /** The text of every write attempted, in order (a failed sign-up's keys are in it). */
    attempted: [] as string[],
    /** Resolves the next time a write starts. */
    started: null as (() => void) | null,
  };
  const io: StoreIO = {
    async write(path, text) {
      ctl.attempted.push(text);
      ctl.started?.();
      ctl.started = null;
      if (ctl.hold) await ctl.hold;
      if (ctl.failure) throw ctl.failure;
      await writeFile(`${path}.tmp`, text);
      await rename(`${path}.tmp`, path);
    },
    async read(path) {
      try {
        return await readFile(path, "utf8");
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw err;
      }
    },
  };
  const writeStarts = () => new Promise<void>((resolve) => (ctl.started = resolve));
  return { io, ctl, writeStarts };
}

interface Reply {
  status: number;
  body: any;
}
type Keys = { "x-api-key": string; "x-api-secret": string };

/** A sandbox as startServer builds it with --data, on a FileStore with the given I/O. */
async function sandbox() {
  const dir = await mkdtemp(join(tmpdir(), "msb-failed-write-"));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const { io, ctl, writeStarts } = controlledIO();
  // The store logs each failed write (expected here); kept out of the output, and checked.
  const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
  const registry = new Registry({ catalog: loadCatalog() });
  const { store, attach } = openDataStore(dir, registry, io);
  // Counts the saves asked for, so a test can wait until concurrent requests have all joined a write.
  let persists = 0;
  let persistWaiter: { count: number; wake: () => void } | null = null;
  const persist = (t: Tenant) => {
    persists += 1;
    if (persistWaiter && persists >= persistWaiter.count) persistWaiter.wake();
    return store.persist(t.id, () => snapshotOf(t));
  };
  const runtime = createRuntime({ persist });
  attach(runtime);
  cleanups.push(async () => {
    runtime.stop();
    await store.flush();
  });
  const app = createApp({ registry, runtime, persist, store });

  async function call(method: string, path: string, keys?: Keys, body?: unknown): Promise<Reply> {
    const headers: Record<string, string> = { ...(keys ?? {}) };
    if (body !== undefined) headers["content-type"] = "application/json";
    const env = { incoming: { socket: { remoteAddress: "127.0.0.1" } } };
    const res = await app.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }, env);
    const parsed = (await res.json()) as unknown;
    expect(checkResponse(method, path, res.status, parsed), "every response must match the OpenAPI document").toBeUndefined();
    return { status: res.status, body: parsed };
  }

  return {
    dir,
    ctl,
    logged,
    writeStarts,
    registry,
    runtime,
    store,
    call,
    /** Resolves once `n` more saves have been asked for than when it was called. */
    persistsFromNow(n: number): Promise<void> {
      const target = persists + n;
      return new Promise((wake) => {
        if (persists >= target) wake();
        else persistWaiter = { count: target, wake };
      });
    },
    async signUp(settings: Record<string, unknown> = {}) {
      const res = await call("POST", "/sandbox/v1/merchants", undefined, { clock: { now: "2026-03-02T09:00:00Z" }, ...settings });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const d = res.body.data;
      return { id: d.merchant_id as string, keys: { "x-api-key": d.api_key, "x-api-secret": d.api_secret } as Keys };
    },
    async onDisk(merchantId: string): Promise<Snapshot> {
      return JSON.parse(await readFile(join(dir, `${merchantId}.json`), "utf8")) as Snapshot;
    },
  };
}
type Sandbox = Awaited<ReturnType<typeof sandbox>>;

/** The wallet balance (Naira) the merchant's last good file holds. */
async function balanceOnDisk(s: Sandbox, merchantId: string): Promise<number> {
  const ledger = (await s.onDisk(merchantId)).state.ledger;
  return (ledger.at(-1)?.balance_after ?? 0) / 100;
}
async function balance(s: Sandbox, keys: Keys): Promise<number> {
  const res = await s.call("GET", "/api/v1/wallet/balance", keys);
  expect(res.status).toBe(200);
  return res.body.data.balance as number;
}

const payout = (reference: string, amount = 1_000) => ({
  amount, reference, bank_code: "058", account_number: makeNuban("058", "555666777"), account_name: "OBI EMEKA", bank_name: "GTBank",
});

function expectStoreUnavailable(res: Reply) {
  expect(res.status, JSON.stringify(res.body)).toBe(503);
  expect(res.body).toMatchObject({ success: false, error_code: "STORE_UNAVAILABLE" });
  // Says what happened (nothing applied), why (the disk's error) and what to do (retry later).
  expect(res.body.message).toMatch(/could not be saved/);
  expect(res.body.message).toContain("ENOSPC");
  expect(res.body.message).toMatch(/nothing was applied/);
  expect(res.body.message).toMatch(/Retry/);
  expect(typeof res.body.request_id).toBe("string");
}

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  cleanups.push(() => r.close());
  return r;
}

describe("a --data write that fails", () => {
  it("undoes a wallet funding and a payout: 503 STORE_UNAVAILABLE, memory matches disk, /health says so until a write succeeds", async () => {
    const s = await sandbox();
    const m = await s.signUp({ wallet_balance: 50_000 });
    expect((await s.call("GET", "/health")).status).toBe(200);
    const goodBalance = await balanceOnDisk(s, m.id);
    expect(goodBalance).toBe(50_000);

    s.ctl.failure = enospc();
    const before = Date.now();
    expectStoreUnavailable(await s.call("POST", "/sandbox/v1/wallet/fund", m.keys, { amount: 7_000 }));
    expectStoreUnavailable(await s.call("POST", "/api/v1/payout/transfer", m.keys, payout("ghost-1")));

    // Memory is the last good file: no credit, no debit, no payout.
    expect(await balance(s, m.keys)).toBe(goodBalance);
    expect(await balanceOnDisk(s, m.id)).toBe(goodBalance);
    const status = await s.call("GET", "/api/v1/payout/status?reference=ghost-1", m.keys);
    expect(status.status).toBe(404);
    expect(status.body.error_code).toBe("NOT_FOUND");
    const ledger = await s.call("GET", "/sandbox/v1/wallet/ledger", m.keys);
    expect(ledger.body.data).toHaveLength(1); // the opening balance only

    // /health: unhealthy while the store fails, with the disk's error and since when.
    const health = await s.call("GET", "/health");
    expect(health.status).toBe(503);
    expect(health.body).toMatchObject({ success: false, status: "store_failing", store: { ok: false, error: expect.stringContaining("ENOSPC") } });
    const since = Date.parse(health.body.store.since);
    expect(since).toBeGreaterThanOrEqual(before - 1);
    expect(since).toBeLessThanOrEqual(Date.now());
    // The operator's log names the file and says the changes were undone.
    const lines = s.logged.mock.calls.map((args) => args.map(String).join(" "));
    expect(lines.some((l) => l.includes(join(s.dir, `${m.id}.json`)) && /undone/.test(l) && /ENOSPC/.test(l))).toBe(true);

    // Recovery: the next request works, /health is 200 again, and the file holds it (and only it).
    s.ctl.failure = null;
    const funded = await s.call("POST", "/sandbox/v1/wallet/fund", m.keys, { amount: 1 });
    expect(funded.status).toBe(200);
    expect(funded.body.data.balance).toBe(goodBalance + 1);
    expect(await s.call("GET", "/health")).toMatchObject({ status: 200, body: { success: true, status: "ok" } });
    expect(await balanceOnDisk(s, m.id)).toBe(goodBalance + 1);
    expect((await s.onDisk(m.id)).state.payouts).toEqual([]);
  });

  it("a retried transfer (same reference) after recovery is accepted exactly once, and debited once", async () => {
    const s = await sandbox();
    const m = await s.signUp({ wallet_balance: 20_000 });
    s.ctl.failure = enospc();
    expectStoreUnavailable(await s.call("POST", "/api/v1/payout/transfer", m.keys, payout("retry-me", 5_000)));
    expectStoreUnavailable(await s.call("POST", "/api/v1/payout/transfer", m.keys, payout("retry-me", 5_000)));
    s.ctl.failure = null;

    // No ghost of the failed attempts: the reference is free, and the retry goes through once.
    const retried = await s.call("POST", "/api/v1/payout/transfer", m.keys, payout("retry-me", 5_000));
    expect(retried.status, JSON.stringify(retried.body)).toBe(201);
    const debit: number = retried.body.data.total_deducted;
    expect(debit).toBeGreaterThanOrEqual(5_000);
    const again = await s.call("POST", "/api/v1/payout/transfer", m.keys, payout("retry-me", 5_000));
    expect(again.status).toBe(409);
    expect(again.body.error_code).toBe("DUPLICATE_REFERENCE");

    expect(await balance(s, m.keys)).toBe(20_000 - debit);
    expect(await balanceOnDisk(s, m.id)).toBe(20_000 - debit);
    const saved = await s.onDisk(m.id);
    expect(saved.state.payouts.map((p) => p.reference)).toEqual(["retry-me"]);
    expect(saved.state.ledger.filter((e) => e.amount < 0).reduce((t, e) => t - e.amount, 0) / 100).toBe(debit);
  });

  it("every request batched into the failing write gets 503, and none of them is applied", async () => {
    const s = await sandbox();
    const m = await s.signUp({ wallet_balance: 100_000 });
    const tenant = s.registry.get(m.id)!;
    const writesBefore = s.store.writeCount;

    // The first funding's write starts and is held; 30 more fundings pile up behind it.
    let release!: () => void;
    s.ctl.hold = new Promise<void>((resolve) => (release = resolve));
    const started = s.writeStarts();
    const first = s.call("POST", "/sandbox/v1/wallet/fund", m.keys, { amount: 1 });
    await started;
    const joined = s.persistsFromNow(30);
    const rest = Array.from({ length: 30 }, (_, i) =>
      i % 3 === 2
        ? s.call("POST", "/api/v1/payout/transfer", m.keys, payout(`batch-${i}`, 100))
        : s.call("POST", "/sandbox/v1/wallet/fund", m.keys, { amount: 2 }),
    );
    await joined;
    expect(tenant.state.ledger.length).toBeGreaterThan(30); // all applied in memory, none saved yet

    // The held write fails: every change it held or that waited behind it is refused.
    s.ctl.failure = enospc();
    release();
    const replies = await Promise.all([first, ...rest]);
    for (const r of replies) expectStoreUnavailable(r);
    expect(s.store.writeCount - writesBefore).toBe(1); // one serialisation for all of them

    s.ctl.hold = null;
    expect(await balance(s, m.keys)).toBe(100_000);
    expect(await balanceOnDisk(s, m.id)).toBe(100_000);
    for (const i of [2, 5, 29]) expect((await s.call("GET", `/api/v1/payout/status?reference=batch-${i}`, m.keys)).status).toBe(404);

    // The next good write does not carry any of them.
    s.ctl.failure = null;
    expect((await s.call("POST", "/sandbox/v1/wallet/fund", m.keys, { amount: 5 })).status).toBe(200);
    const saved = await s.onDisk(m.id);
    expect(saved.state.ledger.map((e) => e.amount)).toEqual([100_000_00, 5_00]);
    expect(saved.state.payouts).toEqual([]);
  });

  it("a sign-up whose first write fails leaves no merchant: its keys give 401 and no file is left", async () => {
    const s = await sandbox();
    const bystander = await s.signUp();
    const merchantsBefore = s.registry.size;
    s.ctl.failure = enospc();
    const attempts = s.ctl.attempted.length;
    const res = await s.call("POST", "/sandbox/v1/merchants", undefined, { wallet_balance: 5_000 });
    expectStoreUnavailable(res);
    expect(res.body).not.toHaveProperty("data");

    // The keys the sandbox had made are in the write that failed; they must not work.
    const lost = JSON.parse(s.ctl.attempted[attempts]!) as Snapshot;
    const keys = { "x-api-key": lost.merchant.api_key, "x-api-secret": lost.merchant.api_secret };
    const denied = await s.call("GET", "/api/v1/wallet/balance", keys);
    expect(denied.status).toBe(401);
    expect(denied.body.error_code).toBe("INVALID_CREDENTIALS");
    expect((await s.call("GET", "/sandbox/v1/merchant", keys)).status).toBe(401);
    expect(s.registry.get(lost.merchant.merchant_id)).toBeUndefined();
    expect(s.registry.size).toBe(merchantsBefore);
    expect(await readdir(s.dir)).not.toContain(`${lost.merchant.merchant_id}.json`);

    // Once the disk takes writes again, sign-up works and lands on disk.
    s.ctl.failure = null;
    const next = await s.signUp({ wallet_balance: 5_000 });
    expect(await balanceOnDisk(s, next.id)).toBe(5_000);
    expect(await balance(s, next.keys)).toBe(5_000);
    expect(await balance(s, bystander.keys)).toBe(1_000_000);
    expect((await s.call("GET", "/health")).status).toBe(200);
  });

  it("settings and the clock go back too: a PATCH and a clock advance during the failure are undone", async () => {
    const s = await sandbox();
    const m = await s.signUp({ wallet_balance: 10_000, business_name: "Before Ltd" });
    expect((await s.call("POST", "/api/v1/payout/transfer", m.keys, payout("p-clock"))).status).toBe(201);
    s.ctl.failure = enospc();
    expectStoreUnavailable(await s.call("PATCH", "/sandbox/v1/merchant", m.keys, { business_name: "After Ltd", limits: { payout_max: 200 } }));
    expectStoreUnavailable(await s.call("POST", "/sandbox/v1/clock/advance", m.keys, { by: "1h" }));
    s.ctl.failure = null;

    const merchant = (await s.call("GET", "/sandbox/v1/merchant", m.keys)).body.data;
    expect(merchant).toMatchObject({ business_name: "Before Ltd", clock: { now: "2026-03-02T09:00:00.000Z" } });
    expect(merchant.limits.payout_max).toBe(5_000_000);
    expect((await s.call("GET", "/sandbox/v1/clock", m.keys)).body.data).toMatchObject({ now: "2026-03-02T09:00:00.000Z", pending_timers: 1 });
    expect((await s.call("GET", "/api/v1/payout/status?reference=p-clock", m.keys)).body.data.status).toBe("processing");
    // The advance, asked again, does its work once.
    const advanced = await s.call("POST", "/sandbox/v1/clock/advance", m.keys, { by: "1h" });
    expect(advanced.body.data).toMatchObject({ now: "2026-03-02T10:00:00.000Z", fired: 1 });
    expect((await s.onDisk(m.id)).state.payouts[0]!.status).toBe("completed");
  });
});

describe("the STORE_UNAVAILABLE message", () => {
  it("names the disk's error once, as the operating system gave it", async () => {
    const s = await sandbox();
    const m = await s.signUp();
    s.ctl.failure = enospc();
    const res = await s.call("POST", "/sandbox/v1/wallet/fund", m.keys, { amount: 1 });
    expectStoreUnavailable(res);
    const once = (text: string) => {
      expect(text).toContain("no space left on device");
      expect(text.match(/ENOSPC/g), text).toHaveLength(1);
    };
    once(res.body.message);
    once((await s.call("GET", "/health")).body.store.error);
  });
});

describe("webhooks of an undone change", () => {
  /** A merchant with a virtual account and a payout in flight, webhooks to a local receiver, all saved. */
  async function merchantWithReceiver(s: Sandbox) {
    const r = await receiver();
    const m = await s.signUp({ wallet_balance: 10_000, webhook_url: r.url });
    const va = await s.call("POST", "/api/v1/virtual-account/create", m.keys, {
      email: "ada@example.com", reference: "va-1", bank: "partnerbank", first_name: "Ada", last_name: "Obi", bvn: "22212345678",
    });
    expect(va.status, JSON.stringify(va.body)).toBe(200);
    expect((await s.call("POST", "/api/v1/payout/transfer", m.keys, payout("in-flight"))).status).toBe(201);
    const tenant = s.registry.get(m.id)!;
    await s.runtime.dispatcher.idle(tenant);
    expect(r.received).toEqual([]);
    return { m, r, tenant, account: va.body.data.account_number as string };
  }

  it("an incoming transfer and a payout completion refused by the disk send no webhook; the next good change sends only its own", async () => {
    const s = await sandbox();
    const { m, r, tenant, account } = await merchantWithReceiver(s);

    s.ctl.failure = enospc();
    expectStoreUnavailable(await s.call("POST", `/sandbox/v1/virtual-accounts/${account}/transfers`, m.keys, { amount: 500, narration: "undone-transfer" }));
    expectStoreUnavailable(await s.call("POST", "/sandbox/v1/payouts/in-flight/complete", m.keys));
    await s.runtime.dispatcher.idle(tenant);
    expect(r.received).toEqual([]);
    expect((await s.call("GET", "/sandbox/v1/events", m.keys)).body.data).toEqual([]);
    expect(await balance(s, m.keys)).toBe(await balanceOnDisk(s, m.id));

    s.ctl.failure = null;
    const good = await s.call("POST", `/sandbox/v1/virtual-accounts/${account}/transfers`, m.keys, { amount: 300, narration: "kept-transfer" });
    expect(good.status).toBe(201);
    await r.waitFor(1);
    await s.runtime.dispatcher.idle(tenant);
    expect(r.received.map((w) => [w.body.event, w.body.data.reference, w.body.data.amount])).toEqual([["payment.received", "kept-transfer", 300]]);
  });

  it("a clock advance refused by the disk sends no webhook for the timers it fired", async () => {
    const s = await sandbox();
    const { m, r, tenant } = await merchantWithReceiver(s);

    s.ctl.failure = enospc();
    // The payout's settlement timer fires during the advance; the advance cannot be saved.
    expectStoreUnavailable(await s.call("POST", "/sandbox/v1/clock/advance", m.keys, { by: "1m" }));
    await s.runtime.dispatcher.idle(tenant);
    s.ctl.failure = null;
    expect((await s.call("GET", "/api/v1/payout/status?reference=in-flight", m.keys)).body.data.status).toBe("processing");

    // The client retries the advance: now the payout completes, is saved, and its webhook goes out.
    const advanced = await s.call("POST", "/sandbox/v1/clock/advance", m.keys, { by: "1m" });
    expect(advanced.body.data).toMatchObject({ fired: 1 });
    await s.runtime.dispatcher.idle(tenant);
    expect((await s.onDisk(m.id)).state.payouts[0]!.status).toBe("completed");
    // The receiver hears of the completion once: never of the one the sandbox undid.
    expect(r.received.map((w) => [w.body.event, w.body.data.reference])).toEqual([["payout.completed", "in-flight"]]);
  });
});
