/**
 * A merchant's lowdb document on its journal adapter: what a `Low` writes, a fresh `Low` on the same
 * files reads back (the merchant whole, then only its change appended). The whole-file writes go
 * through lowdb's atomic writer: a write that fails leaves the old file whole, and with fsync the new
 * text is on the disk before it takes the old one's place.
 */
import type { FileHandle } from "node:fs/promises";
import { mkdir, open, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { Low } from "lowdb";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fundWallet } from "../../src/domain/wallet.js";
import { contextOf, liveOf, snapshotOf } from "../../src/engine/tenant.js";
import { buildRegistry } from "../../src/server.js";
import { JournalAdapter, type JournalHost, type MerchantDoc } from "../../src/store/journal-adapter.js";
import { fileIO } from "../../src/store/store-io.js";
import { closedAfterEach, tempDirs } from "../helpers.js";

const dataDir = tempDirs("msb-adapter-");
const closed = closedAfterEach((io: { close(): Promise<void> }) => io.close());
afterEach(() => {
  vi.restoreAllMocks();
});

/** Adapters on `dir` with every write journaled (none whole once one has landed) and no compaction. */
function hostOn(dir: string): JournalHost {
  const io = closed(fileIO("os"));
  return { dir, io, wholeBelow: 0, compactAbove: Number.MAX_SAFE_INTEGER, guard: (_id, write) => write(), settle: async () => undefined, compacted: () => undefined };
}

const asRead = (doc: unknown) => JSON.parse(JSON.stringify(doc)) as unknown;

describe("a merchant's lowdb document", () => {
  it("a Low writes the merchant whole, then appends only its change; a fresh Low on the files reads it back", async () => {
    const dir = await dataDir();
    const host = hostOn(dir);
    const { registry } = buildRegistry({});
    const t = registry.create({ wallet_balance: 1_000 }); // a manual clock: the document holds still
    const low = new Low<MerchantDoc | null>(new JournalAdapter(t.id, host), null);
    low.data = { snapshot: () => snapshotOf(t), live: () => liveOf(t) };
    await low.write();
    const file = join(dir, `${t.id}.json`);
    const whole = await readFile(file, "utf8");
    const gen = (JSON.parse(whole) as { journal: number }).journal;

    fundWallet(contextOf(t), t.state, 12_345);
    await low.write();
    expect(await readFile(file, "utf8")).toBe(whole); // the snapshot stays: the change went to the journal
    const journal = await readFile(join(dir, `${t.id}.${gen}.journal`), "utf8");
    expect(journal.split("\n")).toHaveLength(2); // one line, and its newline
    expect(journal.length).toBeLessThan(whole.length);

    const fresh = new Low<MerchantDoc | null>(new JournalAdapter(t.id, host, [gen]), null);
    await fresh.read();
    expect(asRead(fresh.data?.snapshot())).toEqual(asRead(snapshotOf(t)));
    expect(fresh.data?.snapshot().state.ledger.at(-1)?.amount).toBe(12_345);
  });

  it("a Low on a merchant with no files reads nothing and keeps its default", async () => {
    const low = new Low<MerchantDoc | null>(new JournalAdapter("mch_none", hostOn(await dataDir()), []), null);
    await low.read();
    expect(low.data).toBeNull();
  });

  it("a whole-file write that fails leaves the old file whole, never a part of the new one", async () => {
    const dir = await dataDir();
    const io = closed(fileIO("os"));
    const path = join(dir, "mch_x.json");
    await io.write(path, '{"old":true}');
    // Where lowdb's writer puts the new text (steno 4: `.<name>.tmp`) is taken: the write fails before any rename.
    await mkdir(join(dir, ".mch_x.json.tmp"), { recursive: true });
    await expect(io.write(path, JSON.stringify({ new: "x".repeat(100_000) }))).rejects.toThrow();
    expect(await readFile(path, "utf8")).toBe('{"old":true}');
  });

  it("with fsync, the new text is on the disk before the rename puts it in place, and the folder after", async () => {
    const dir = await dataDir();
    const io = closed(fileIO("fsync"));
    const path = join(dir, "mch_y.json");
    await io.write(path, "old");
    // Every file handle shares one prototype: at each fdatasync, what the file and its neighbours hold.
    const probe = await open(join(dir, "probe"), "w");
    const proto = Object.getPrototypeOf(probe) as { datasync(this: FileHandle): Promise<void> };
    await probe.close();
    const real = proto.datasync;
    const seen: Array<{ file: string; others: string[] }> = [];
    vi.spyOn(proto, "datasync").mockImplementation(async function (this: FileHandle) {
      const others = (await readdir(dir)).filter((n) => n !== "mch_y.json" && n !== "probe");
      seen.push({ file: await readFile(path, "utf8"), others: await Promise.all(others.map((n) => readFile(join(dir, n), "utf8"))) });
      return real.call(this);
    });
    const text = "n".repeat(2_000_000); // written in several parts
    await io.write(path, text);
    expect(seen).toEqual([
      { file: "old", others: [text] }, // the new text, complete beside the old file, synced before the rename
      { file: text, others: [] }, // the folder, once the rename is done
    ]);
  });
});
