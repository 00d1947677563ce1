/**
 * With --data, a write that failed (a full disk, say) answered
 * 500, but the change stayed applied in memory and the next good write saved it: a client that
 * retried credited or paid twice, and webhooks went out for changes the disk never held. A failed
 * write must undo its changes (memory back to the last good file), answer 503 STORE_UNAVAILABLE,
 * send no webhook, and make /health say so until a write succeeds again.
 *
 * The sandbox is built in-process, wired as src/server.ts wires it, with a FileStore whose I/O the
 * test controls: writes can be made to fail (ENOSPC) or held, on demand.
 */
import { readdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createRuntime, type Runtime } from "../../src/runtime.js";
import { readText, type FileStore, type StoreIO } from "../../src/store/file-store.js";
import type { Snapshot } from "../../src/domain/snapshot.js";
import { FileTenantStore } from "../../src/persistence/file-tenant-store.js";
import { loadCatalog } from "../../src/store/fixtures.js";
import { Registry } from "../../src/engine/registry.js";
import { client } from "../client.js";
import { closedAfterEach, harness, receivers, tempDirs, type Reply } from "../helpers.js";

// "After" hooks run in the reverse order of registration: receivers close, then the runtime stops and
// the store flushes, then the data folder goes, and the console spy is restored last.
afterEach(() => {
  vi.restoreAllMocks();
});
const dataDir = tempDirs("msb-failed-write-");
const stoppedAfter = closedAfterEach(async (s: { runtime: Runtime; store: FileStore }) => {
  s.runtime.stop();
  await s.store.flush();
});
const receiver = receivers();

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
    read: readText,
  };
  const writeStarts = () => new Promise<void>((resolve) => (ctl.started = resolve));
  return { io, ctl, writeStarts };
}

/** A harness wired as startServer wires it with --data, on a FileStore whose I/O the test controls. */
async function diskSandbox() {
  const dir = await dataDir();
  const { io, ctl, writeStarts } = controlledIO();
  // The store logs each failed write (expected here); kept out of the output, and checked.
  const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
  const registry = new Registry({ catalog: loadCatalog() });
  const tenantStore = new FileTenantStore(dir, registry, io);
  const store = tenantStore.files;
  // Counts the saves asked for, so a test can wait until concurrent requests have all joined a write.
  let persists = 0;
  let persistWaiter: { count: number; wake: () => void } | null = null;
  const persist = store.persist.bind(store);
  vi.spyOn(store, "persist").mockImplementation((...args) => {
    persists += 1;
    if (persistWaiter && persists >= persistWaiter.count) persistWaiter.wake();
    return persist(...args);
  });
  const runtime = createRuntime({ store: tenantStore });
  tenantStore.attach(runtime.driver);
  stoppedAfter({ runtime, store });
  const h = harness({ registry, runtime });

  return {
    ...h,
    dir,
    ctl,
    logged,
    writeStarts,
    runtime,
    store,
    /** Resolves once `n` more saves have been asked for than when it was called. */
    persistsFromNow(n: number): Promise<void> {
      const target = persists + n;
      return new Promise((wake) => {
        if (persists >= target) wake();
        else persistWaiter = { count: target, wake };
      });
    },
    async onDisk(merchantId: string): Promise<Snapshot> {
      return JSON.parse(await readFile(join(dir, `${merchantId}.json`), "utf8")) as Snapshot;
    },
  };
}
type Sandbox = Awaited<ReturnType<typeof diskSandbox>>;

/** The wallet balance (Naira) the merchant's last good file holds. */
async function balanceOnDisk(s: Sandbox, merchantId: string): Promise<number> {
  const ledger = (await s.onDisk(merchantId)).state.ledger;
  return (ledger.at(-1)?.balance_after ?? 0) / 100;
}

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

describe("a --data write that fails", () => {
  it("undoes a wallet funding and a payout: 503 STORE_UNAVAILABLE, memory matches disk, /health says so until a write succeeds", async () => {
    const s = await diskSandbox();
    const m = await s.merchant({ wallet_balance: 50_000 });
    expect((await s.call("GET", "/health")).status).toBe(200);
    const goodBalance = await balanceOnDisk(s, m.id);
    expect(goodBalance).toBe(50_000);

    s.ctl.failure = enospc();
    const before = Date.now();
    expectStoreUnavailable(await m.call("POST", "/sandbox/v1/wallet/fund", { body: { amount: 7_000 } }));
    expectStoreUnavailable(await client(m).payout({ reference: "ghost-1", amount: 1_000 }));

    // Memory is the last good file: no credit, no debit, no payout.
    expect(await client(m).balance()).toBe(goodBalance);
    expect(await balanceOnDisk(s, m.id)).toBe(goodBalance);
    const status = await m.call("GET", "/api/v1/payout/status?reference=ghost-1");
    expect(status.status).toBe(404);
    expect(status.body.error_code).toBe("NOT_FOUND");
    const ledger = await m.call("GET", "/sandbox/v1/wallet/ledger");
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
    const funded = await m.call("POST", "/sandbox/v1/wallet/fund", { body: { amount: 1 } });
    expect(funded.status).toBe(200);
    expect(funded.body.data.balance).toBe(goodBalance + 1);
    expect(await s.call("GET", "/health")).toMatchObject({ status: 200, body: { success: true, status: "ok" } });
    expect(await balanceOnDisk(s, m.id)).toBe(goodBalance + 1);
    expect((await s.onDisk(m.id)).state.payouts).toEqual([]);
  });

  it("a retried transfer (same reference) after recovery is accepted exactly once, and debited once", async () => {
    const s = await diskSandbox();
    const m = await s.merchant({ wallet_balance: 20_000 });
    s.ctl.failure = enospc();
    expectStoreUnavailable(await client(m).payout({ reference: "retry-me", amount: 5_000 }));
    expectStoreUnavailable(await client(m).payout({ reference: "retry-me", amount: 5_000 }));
    s.ctl.failure = null;

    // No ghost of the failed attempts: the reference is free, and the retry goes through once.
    const retried = await client(m).payout({ reference: "retry-me", amount: 5_000 });
    expect(retried.status, JSON.stringify(retried.body)).toBe(201);
    const debit: number = retried.body.data.total_deducted;
    expect(debit).toBeGreaterThanOrEqual(5_000);
    const again = await client(m).payout({ reference: "retry-me", amount: 5_000 });
    expect(again.status).toBe(409);
    expect(again.body.error_code).toBe("DUPLICATE_REFERENCE");

    expect(await client(m).balance()).toBe(20_000 - debit);
    expect(await balanceOnDisk(s, m.id)).toBe(20_000 - debit);
    const saved = await s.onDisk(m.id);
    expect(saved.state.payouts.map((p) => p.reference)).toEqual(["retry-me"]);
    expect(saved.state.ledger.filter((e) => e.amount < 0).reduce((t, e) => t - e.amount, 0) / 100).toBe(debit);
  });

  it("every request batched into the failing write gets 503, and none of them is applied", async () => {
    const s = await diskSandbox();
    const m = await s.merchant({ wallet_balance: 100_000 });
    const tenant = s.registry.get(m.id)!;
    const writesBefore = s.store.writeCount;

    // The first funding's write starts and is held; 30 more fundings pile up behind it.
    let release!: () => void;
    s.ctl.hold = new Promise<void>((resolve) => (release = resolve));
    const started = s.writeStarts();
    const first = m.call("POST", "/sandbox/v1/wallet/fund", { body: { amount: 1 } });
    await started;
    const joined = s.persistsFromNow(30);
    const rest = Array.from({ length: 30 }, (_, i) =>
      i % 3 === 2
        ? client(m).payout({ reference: `batch-${i}`, amount: 100 })
        : m.call("POST", "/sandbox/v1/wallet/fund", { body: { amount: 2 } }),
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
    expect(await client(m).balance()).toBe(100_000);
    expect(await balanceOnDisk(s, m.id)).toBe(100_000);
    for (const i of [2, 5, 29]) expect((await m.call("GET", `/api/v1/payout/status?reference=batch-${i}`)).status).toBe(404);

    // The next good write does not carry any of them.
    s.ctl.failure = null;
    expect((await m.call("POST", "/sandbox/v1/wallet/fund", { body: { amount: 5 } })).status).toBe(200);
    const saved = await s.onDisk(m.id);
    expect(saved.state.ledger.map((e) => e.amount)).toEqual([100_000_00, 5_00]);
    expect(saved.state.payouts).toEqual([]);
  });

  it("a sign-up whose first write fails leaves no merchant: its keys give 401 and no file is left", async () => {
    const s = await diskSandbox();
    const bystander = await s.merchant();
    const merchantsBefore = s.registry.size;
    s.ctl.failure = enospc();
    const attempts = s.ctl.attempted.length;
    const res = await s.call("POST", "/sandbox/v1/merchants", { body: { wallet_balance: 5_000 } });
    expectStoreUnavailable(res);
    expect(res.body).not.toHaveProperty("data");

    // The keys the sandbox had made are in the write that failed; they must not work.
    const lost = JSON.parse(s.ctl.attempted[attempts]!) as Snapshot;
    const keys = { "x-api-key": lost.merchant.api_key, "x-api-secret": lost.merchant.api_secret };
    const denied = await s.call("GET", "/api/v1/wallet/balance", { headers: keys });
    expect(denied.status).toBe(401);
    expect(denied.body.error_code).toBe("INVALID_CREDENTIALS");
    expect((await s.call("GET", "/sandbox/v1/merchant", { headers: keys })).status).toBe(401);
    expect(s.registry.get(lost.merchant.merchant_id)).toBeUndefined();
    expect(s.registry.size).toBe(merchantsBefore);
    expect(await readdir(s.dir)).not.toContain(`${lost.merchant.merchant_id}.json`);

    // Once the disk takes writes again, sign-up works and lands on disk.
    s.ctl.failure = null;
    const next = await s.merchant({ wallet_balance: 5_000 });
    expect(await balanceOnDisk(s, next.id)).toBe(5_000);
    expect(await client(next).balance()).toBe(5_000);
    expect(await client(bystander).balance()).toBe(1_000_000);
    expect((await s.call("GET", "/health")).status).toBe(200);
  });

  it("settings and the clock go back too: a PATCH and a clock advance during the failure are undone", async () => {
    const s = await diskSandbox();
    const m = await s.merchant({ wallet_balance: 10_000, business_name: "Before Ltd" });
    expect((await client(m).payout({ reference: "p-clock", amount: 1_000 })).status).toBe(201);
    s.ctl.failure = enospc();
    expectStoreUnavailable(await m.call("PATCH", "/sandbox/v1/merchant", { body: { business_name: "After Ltd", limits: { payout_max: 200 } } }));
    expectStoreUnavailable(await m.call("POST", "/sandbox/v1/clock/advance", { body: { by: "1h" } }));
    s.ctl.failure = null;

    const merchant = (await m.call("GET", "/sandbox/v1/merchant")).body.data;
    expect(merchant).toMatchObject({ business_name: "Before Ltd", clock: { now: "2026-03-02T09:00:00.000Z" } });
    expect(merchant.limits.payout_max).toBe(5_000_000);
    expect((await m.call("GET", "/sandbox/v1/clock")).body.data).toMatchObject({ now: "2026-03-02T09:00:00.000Z", pending_timers: 1 });
    expect((await m.call("GET", "/api/v1/payout/status?reference=p-clock")).body.data.status).toBe("processing");
    // The advance, asked again, does its work once.
    const advanced = await m.call("POST", "/sandbox/v1/clock/advance", { body: { by: "1h" } });
    expect(advanced.body.data).toMatchObject({ now: "2026-03-02T10:00:00.000Z", fired: 1 });
    expect((await s.onDisk(m.id)).state.payouts[0]!.status).toBe("completed");
  });
});

describe("the STORE_UNAVAILABLE message", () => {
  it("names the disk's error once, as the operating system gave it", async () => {
    const s = await diskSandbox();
    const m = await s.merchant();
    s.ctl.failure = enospc();
    const res = await m.call("POST", "/sandbox/v1/wallet/fund", { body: { amount: 1 } });
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
    const m = await s.merchant({ wallet_balance: 10_000, webhook_url: r.url });
    const va = await client(m).virtualAccount({ reference: "va-1" });
    expect((await client(m).payout({ reference: "in-flight", amount: 1_000 })).status).toBe(201);
    const tenant = s.registry.get(m.id)!;
    await s.runtime.dispatcher.idle(tenant);
    expect(r.received).toEqual([]);
    return { m, r, tenant, account: va.account_number };
  }

  it("an incoming transfer and a payout completion refused by the disk send no webhook; the next good change sends only its own", async () => {
    const s = await diskSandbox();
    const { m, r, tenant, account } = await merchantWithReceiver(s);

    s.ctl.failure = enospc();
    expectStoreUnavailable(await m.call("POST", `/sandbox/v1/virtual-accounts/${account}/transfers`, { body: { amount: 500, narration: "undone-transfer" } }));
    expectStoreUnavailable(await m.call("POST", "/sandbox/v1/payouts/in-flight/complete"));
    await s.runtime.dispatcher.idle(tenant);
    expect(r.received).toEqual([]);
    expect((await m.call("GET", "/sandbox/v1/events")).body.data).toEqual([]);
    expect(await client(m).balance()).toBe(await balanceOnDisk(s, m.id));

    s.ctl.failure = null;
    const good = await m.call("POST", `/sandbox/v1/virtual-accounts/${account}/transfers`, { body: { amount: 300, narration: "kept-transfer" } });
    expect(good.status).toBe(201);
    await r.waitFor(1);
    await s.runtime.dispatcher.idle(tenant);
    expect(r.received.map((w) => [w.body.event, w.body.data.reference, w.body.data.amount])).toEqual([["payment.received", "kept-transfer", 300]]);
  });

  it("a clock advance refused by the disk sends no webhook for the timers it fired", async () => {
    const s = await diskSandbox();
    const { m, r, tenant } = await merchantWithReceiver(s);

    s.ctl.failure = enospc();
    // The payout's settlement timer fires during the advance; the advance cannot be saved.
    expectStoreUnavailable(await m.call("POST", "/sandbox/v1/clock/advance", { body: { by: "1m" } }));
    await s.runtime.dispatcher.idle(tenant);
    s.ctl.failure = null;
    expect((await m.call("GET", "/api/v1/payout/status?reference=in-flight")).body.data.status).toBe("processing");

    // The client retries the advance: now the payout completes, is saved, and its webhook goes out.
    const advanced = await m.call("POST", "/sandbox/v1/clock/advance", { body: { by: "1m" } });
    expect(advanced.body.data).toMatchObject({ fired: 1 });
    await s.runtime.dispatcher.idle(tenant);
    expect((await s.onDisk(m.id)).state.payouts[0]!.status).toBe("completed");
    // The receiver hears of the completion once: never of the one the sandbox undid.
    expect(r.received.map((w) => [w.body.event, w.body.data.reference])).toEqual([["payout.completed", "in-flight"]]);
  });
});
