/**
 * The `--data` journal. A write appends only what changed; a line a crash cut short is
 * dropped (it was never acknowledged); a crash at any point of a compaction (new snapshot written,
 * renamed in, old journal not yet deleted) loses nothing and applies nothing twice; a failed append is
 * undone and refused; old plain files still load; a stop folds every journal into its snapshot.
 *
 * The sandbox is built in-process as src/server.ts wires it, on a FileStore whose I/O the test steers
 * (StoreIO), with every merchant journaled (no "small merchant" whole rewrites) unless a test says so.
 */
import { appendFile, open, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { parseSnapshot, type Snapshot } from "../../src/domain/snapshot.js";
import { liveOf, snapshotOf, type Tenant } from "../../src/engine/tenant.js";
import { createRuntime } from "../../src/runtime.js";
import { FileTenantStore } from "../../src/persistence/file-tenant-store.js";
import { buildRegistry } from "../../src/server.js";
import { FileStore, type FileStoreOptions, type StoreIO } from "../../src/store/file-store.js";
import { client } from "../client.js";
import { closedAfterEach, expectLedgerConsistent, harness, signUpAt, startFromArgs, stopServers, tempDirs } from "../helpers.js";
import { parseSettings } from "../../src/config.js";

const dataDir = tempDirs("msb-journal-");
const stopped = closedAfterEach(async (s: { stop(): Promise<void> }) => s.stop());
afterEach(stopServers);
afterEach(() => {
  vi.restoreAllMocks();
});

const enospc = () => Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });

/** A journaled sandbox on `dir`; `io` overrides parts of the real file system. */
async function journaled(dir: string, io: Partial<StoreIO> = {}, options: Partial<FileStoreOptions> = {}) {
  const { registry } = buildRegistry({});
  const tenantStore = new FileTenantStore(dir, registry, { io: io as StoreIO, wholeBelowBytes: 0, ...options });
  const store = tenantStore.files;
  const runtime = createRuntime({ store: tenantStore });
  stopped({ stop: async () => (runtime.stop(), await store.close()) });
  const h = harness({ registry, runtime });
  return { h, store, registry };
}

/** What a fresh start would read from `dir`: the merchant `id`'s document. */
async function loadedFrom(dir: string, id: string): Promise<Snapshot | undefined> {
  return (await new FileStore(dir, { revert: () => undefined }).loadAll()).find((s) => s.merchant.merchant_id === id);
}

/** The merchant's state as a document, as a fresh read gives it. */
function documentOf(t: Tenant) {
  const parsed = parseSnapshot(JSON.parse(JSON.stringify(snapshotOf(t))));
  if ("error" in parsed) throw new Error(parsed.error);
  return JSON.parse(JSON.stringify(parsed.snapshot)) as unknown;
}

const journalsIn = async (dir: string, id: string) => (await readdir(dir)).filter((n) => n.startsWith(`${id}.`) && n.endsWith(".journal")).sort();

/** A merchant without the payout attempt caps (the tests make many). */
const busy = (h: ReturnType<typeof harness>, wallet_balance: number) =>
  h.merchant({ wallet_balance, limits: { requests_per_minute: 0, payout_attempts_per_hour: 0, payout_attempts_per_ip_per_hour: 0 } });

let references = 0;
/** `n` fundings and payouts, then a minute on the clock (the payouts settle: records change in place). */
async function activity(m: Awaited<ReturnType<typeof busy>>, n: number) {
  const c = client(m);
  for (let i = 0; i < n; i++) {
    expect((await m.call("POST", "/sandbox/v1/wallet/fund", { body: { amount: 100 + i } })).status).toBe(200);
    expect((await c.payout({ reference: `p-${++references}`, amount: 1_000 })).status).toBe(201);
  }
  expect((await m.call("POST", "/sandbox/v1/clock/advance", { body: { seconds: 60 } })).status).toBe(200);
}

describe("the --data journal", () => {
  it("a write appends only the change: the snapshot file stays, the journal grows by a line far smaller than the merchant", async () => {
    const dir = await dataDir();
    const { h } = await journaled(dir);
    const m = await busy(h, 1_000_000);
    await activity(m, 30);
    const snapshotBytes = (await stat(join(dir, `${m.id}.json`))).size;
    const [journal] = await journalsIn(dir, m.id);
    const before = (await stat(join(dir, journal!))).size;
    expect((await m.call("POST", "/sandbox/v1/wallet/fund", { body: { amount: 1 } })).status).toBe(200);
    expect((await stat(join(dir, `${m.id}.json`))).size).toBe(snapshotBytes);
    const line = (await stat(join(dir, journal!))).size - before;
    expect(line).toBeGreaterThan(0);
    expect(line).toBeLessThan(1_000);
    expect(JSON.stringify(snapshotOf(m.tenant)).length).toBeGreaterThan(20 * line);
    expect(await loadedFrom(dir, m.id)).toEqual(documentOf(m.tenant));
  });

  it("a payout that fails after a later one was made: its volume entry, replaced inside the window, is journaled", async () => {
    // The volume window is diffed at its ends only (it grows with the merchant); the failure replaces an
    // entry that is neither first nor last, which only the domain's mark (listEdited) tells the store.
    const dir = await dataDir();
    const { h } = await journaled(dir);
    const m = await busy(h, 1_000_000);
    const c = client(m);
    await activity(m, 2);
    expect((await c.payout({ reference: "fails-late", amount: 2_000, account_number: "0123450001" })).status).toBe(201);
    expect((await c.payout({ reference: "settles", amount: 3_000 })).status).toBe(201);
    expect((await m.call("POST", "/sandbox/v1/clock/advance", { body: { seconds: 60 } })).status).toBe(200);
    const entries = m.tenant.state.windows.payoutVolume.entries;
    const failed = entries.findIndex((e) => e.reference === "fails-late");
    expect(entries[failed]).toMatchObject({ counted: false });
    expect(failed).toBeGreaterThan(0);
    expect(failed).toBeLessThan(entries.length - 1);
    expect(await loadedFrom(dir, m.id)).toEqual(documentOf(m.tenant));
  });

  it("a torn last line (a crash in mid-append) is dropped and cut off; the next writes go on from the good lines", async () => {
    const dir = await dataDir();
    const { h } = await journaled(dir);
    const m = await busy(h, 50_000);
    await activity(m, 3);
    const acknowledged = documentOf(m.tenant);
    const [journal] = await journalsIn(dir, m.id);
    const path = join(dir, journal!);
    const good = (await stat(path)).size;
    await appendFile(path, '120 1a2b3c {"never":"finished'); // what a crash mid-write leaves

    const restarted = await journaled(dir);
    const [restored] = await restarted.store.loadAll();
    expect(JSON.parse(JSON.stringify(restored))).toEqual(acknowledged);
    expect((await stat(path)).size).toBe(good); // cut back to the last good line
    const t = restarted.registry.restore(restored!);
    restarted.store.adopt(t.id, () => liveOf(t));
    const again = restarted.h.existing(t.id);
    expect((await again.call("POST", "/sandbox/v1/wallet/fund", { body: { amount: 7 } })).status).toBe(200);
    expect(await loadedFrom(dir, m.id)).toEqual(documentOf(t));
  });

  it("a damaged line followed by good ones is not a crash's trace: the start stops, naming the journal and the line", async () => {
    const dir = await dataDir();
    const { h } = await journaled(dir);
    const m = await busy(h, 50_000);
    await activity(m, 2);
    const [journal] = await journalsIn(dir, m.id);
    const path = join(dir, journal!);
    const lines = (await readFile(path, "utf8")).split("\n");
    lines[1] = `${lines[1]!.slice(0, -2)}X${lines[1]!.slice(-1)}`; // same length, another byte
    await writeFile(path, lines.join("\n"));
    await expect(new FileStore(dir, { revert: () => undefined }).loadAll()).rejects.toThrow(new RegExp(`${journal!.replace(/\./g, "\\.")}: line 2 is damaged`));
  });

  it("a compaction folds the journal into the snapshot while writes go on, and the folded journal goes", async () => {
    const dir = await dataDir();
    const { h, store } = await journaled(dir);
    const m = await busy(h, 1_000_000);
    await activity(m, 10);
    const folding = store.compact(m.id);
    await activity(m, 5); // while it runs
    await folding;
    expect(store.compactions).toBe(1);
    await activity(m, 2);
    await store.flush();
    expect(await journalsIn(dir, m.id)).toHaveLength(1); // only the journal after the new snapshot
    expect(await loadedFrom(dir, m.id)).toEqual(documentOf(m.tenant));
  });

  it("a crash after the new snapshot is renamed in, before the old journal is deleted: the stale journal is ignored", async () => {
    const dir = await dataDir();
    // Deleting journals never happens: as if the process died right after the rename.
    const { h, store } = await journaled(dir, { remove: async () => undefined });
    const m = await busy(h, 1_000_000);
    await activity(m, 8);
    await store.compact(m.id);
    await activity(m, 3);
    await store.flush();
    expect((await journalsIn(dir, m.id)).length).toBeGreaterThan(1); // the stale one is still there
    expect(await loadedFrom(dir, m.id)).toEqual(documentOf(m.tenant));
  });

  it("a crash before the new snapshot is renamed in (the rename fails): both journals are read over the old snapshot", async () => {
    const dir = await dataDir();
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { h, store } = await journaled(dir, {
      rename: async () => {
        throw enospc();
      },
    });
    const m = await busy(h, 1_000_000);
    await activity(m, 8);
    await store.compact(m.id);
    expect(store.compactions).toBe(0);
    expect(logged.mock.calls.some((args) => /compacting its journal failed/.test(String(args[0])))).toBe(true);
    await activity(m, 3);
    await store.flush();
    expect(await loadedFrom(dir, m.id)).toEqual(documentOf(m.tenant));
    expect((await readdir(dir)).some((n) => n.endsWith(".compact"))).toBe(false);
  });

  it("a failed append is undone and refused (503), the next write starts a new generation, and the files hold only what was acknowledged", async () => {
    const dir = await dataDir();
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    let failing = false;
    const { h } = await journaled(dir, {
      append: async (path, text) => {
        if (failing) {
          await appendFile(path, text.slice(0, 10)); // half a line, then the disk is full
          throw enospc();
        }
        await appendFile(path, text);
      },
    });
    const m = await busy(h, 20_000);
    await activity(m, 2);
    const acknowledged = documentOf(m.tenant);
    failing = true;
    const refused = await client(m).payout({ reference: "ghost", amount: 1_000 });
    expect(refused.status).toBe(503);
    expect(refused.body.error_code).toBe("STORE_UNAVAILABLE");
    expect(documentOf(h.existing(m.id).tenant)).toEqual(acknowledged); // memory back to the files
    expect(await loadedFrom(dir, m.id)).toEqual(acknowledged);

    failing = false;
    expect((await client(m).payout({ reference: "real", amount: 1_000 })).status).toBe(201);
    const t = h.existing(m.id).tenant;
    expect(t.state.payouts.has("ghost")).toBe(false);
    expect(await loadedFrom(dir, m.id)).toEqual(documentOf(t));
    expectLedgerConsistent(t);
  });

  it("a folder of plain <id>.json files (before the journal) loads, and its merchants are journaled from there", async () => {
    const dir = await dataDir();
    // A small merchant is rewritten whole: its file, less the generation key, is exactly an old one.
    const first = await journaled(dir, {}, { wholeBelowBytes: 1e9 });
    const m = await busy(first.h, 30_000);
    await activity(m, 2);
    const file = join(dir, `${m.id}.json`);
    const { journal: _gen, ...plain } = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
    await writeFile(file, JSON.stringify(plain));
    expect(await journalsIn(dir, m.id)).toEqual([]);

    const second = await journaled(dir);
    const [restored] = await second.store.loadAll();
    const t = second.registry.restore(restored!);
    second.store.adopt(t.id, () => liveOf(t));
    const size = (await stat(file)).size;
    expect((await second.h.existing(t.id).call("POST", "/sandbox/v1/wallet/fund", { body: { amount: 5 } })).status).toBe(200);
    expect((await stat(file)).size).toBe(size); // appended, not rewritten
    expect(await journalsIn(dir, m.id)).toEqual([`${m.id}.0.journal`]);
    expect(await loadedFrom(dir, m.id)).toEqual(documentOf(t));
  });

  it("a stop folds every journal into its snapshot: one plain snapshot file per merchant is left", async () => {
    const dir = await dataDir();
    const { h, store } = await journaled(dir, {}, { sync: "fsync" });
    const m = await busy(h, 30_000);
    await activity(m, 3);
    expect(await journalsIn(dir, m.id)).toHaveLength(1);
    await store.close();
    expect(await journalsIn(dir, m.id)).toEqual([]);
    const parsed = parseSnapshot(JSON.parse(await readFile(join(dir, `${m.id}.json`), "utf8")));
    expect("snapshot" in parsed && JSON.parse(JSON.stringify(parsed.snapshot))).toEqual(documentOf(m.tenant));
  });

  it("--data-sync fsync serves and saves; another level is refused with the choices named", async () => {
    const dir = await dataDir();
    // Every file handle shares one prototype: watch its fdatasync.
    const probe = await open(join(dir, "probe"), "w");
    const datasync = vi.spyOn(Object.getPrototypeOf(probe) as { datasync(): Promise<void> }, "datasync");
    await probe.close();
    const s = await startFromArgs(["--data", dir, "--data-sync", "fsync"]);
    const m = await signUpAt(s.url, { wallet_balance: 10 });
    const before = datasync.mock.calls.length;
    expect((await m.call("POST", "/sandbox/v1/wallet/fund", { body: { amount: 5 } })).status).toBe(200);
    expect(datasync.mock.calls.length).toBeGreaterThan(before);
    expect((await loadedFrom(dir, m.id))?.state.ledger.at(-1)?.amount).toBe(500);
    expect(parseSettings(["--data-sync", "sometimes"], {})).toEqual({ error: expect.stringMatching(/data_sync .*"os".*"fsync"/) });
  });
});
