/**
 * One merchant's files, as the lowdb adapter of its document: `read` is the snapshot with the journal
 * written since replayed over it, `write` appends only what changed (journal-diff.ts), or rewrites the
 * merchant whole while it is small (through lowdb's atomic writer: store-io.ts), and folds the journal
 * into a new snapshot once it outgrows the last.
 *
 * Generations keep the files consistent through a crash at any point: the snapshot names the journal
 * generation it starts (`"journal": n`, a key the snapshot schema ignores); journals of an older
 * generation are stale and ignored, and a new snapshot is always renamed in before the journals it
 * replaces are deleted. Old folders (plain `<id>.json`, no journal) load as generation 0.
 */
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import type { Adapter } from "lowdb";
import { parseSnapshot, type Snapshot } from "../domain/snapshot.js";
import { serialiseInSlices } from "./compaction.js";
import { captureDoc, Tracker, type LiveMerchant } from "./journal-diff.js";
import { decodeJournal, encodeLine } from "./journal-lines.js";
import { replay } from "./journal-replay.js";
import { StoreUnavailable, type StoreIO } from "./store-io.js";

/** A merchant as its lowdb document holds it. */
export interface MerchantDoc {
  /** The merchant whole, as a snapshot document. */
  snapshot: () => Snapshot;
  /** Its live parts, when a registry holds it: they let a write take only what changed. */
  live?: () => LiveMerchant;
}

/** What the adapters of one store share. */
export interface JournalHost {
  dir: string;
  io: Required<StoreIO>;
  /** A merchant smaller than this is rewritten whole on each write. */
  wholeBelow: number;
  /** A journal is folded into its snapshot once it is larger than both this and the snapshot. */
  compactAbove: number;
  /** Runs one write of a merchant's files (the store counts it and keeps its health by it). */
  guard(merchantId: string, write: () => Promise<void>): Promise<void>;
  /** Resolves once a write holding every change made so far to the merchant has landed. */
  settle(merchantId: string): Promise<void>;
  /** Counts a finished compaction. */
  compacted(): void;
}

interface Compaction {
  /** Set when a write fails: the snapshot being made may hold a change that was refused. */
  cancelled: boolean;
  /** While the new snapshot is renamed in and the old journals deleted: what reads the files waits for it. */
  renaming: Promise<void> | null;
  done: Promise<void>;
}

const journalName = (merchantId: string, gen: number) => `${merchantId}.${gen}.journal`;
/** A merchant's snapshot file in the `--data` folder. */
export const snapshotPath = (dir: string, merchantId: string) => join(dir, `${merchantId}.json`);
/** A journal's file name: the merchant and the generation. */
export const JOURNAL = /^(.+)\.(\d{1,15})\.journal$/;

export class JournalAdapter implements Adapter<MerchantDoc | null> {
  /** What was last written; null: the next write is whole (first write, after a failure, no live view). */
  private tracker: Tracker | null = null;
  /** Generation of the snapshot file (-1: none yet), and of the journal appended to. */
  private gen = -1;
  private journal = -1;
  /** Bytes of each journal known to hold only complete, acknowledged lines. */
  private sizes = new Map<number, number>();
  /** Bytes of the snapshot file as last written. */
  private baseBytes = 0;
  private compaction: Compaction | null = null;
  /** compact() asked for one: it starts at the next write. */
  private compactWanted = false;
  /** A torn journal tail could not be cut off at load: nothing may be appended after it, the next write is whole. */
  private mustRewrite = false;

  /** `listed`: the journal generations the folder held at start, read (and taken as its own) by the first read. */
  constructor(
    readonly merchantId: string,
    private readonly host: JournalHost,
    private listed?: number[],
  ) {}

  get file(): string {
    return snapshotPath(this.host.dir, this.merchantId);
  }

  private journalOf(gen: number): string {
    return join(this.host.dir, journalName(this.merchantId, gen));
  }

  private journalBytes(): number {
    let total = 0;
    for (const bytes of this.sizes.values()) total += bytes;
    return total;
  }

  /** A compaction in progress, for what waits for the store to be idle. */
  get compacting(): Promise<void> | undefined {
    return this.compaction?.done;
  }

  /**
   * The merchant as its files have it: the snapshot with its journals of that generation or newer
   * applied, each cut to the bytes known to be good (a failed append may have left more); null when it
   * has no file. Throws an error naming the file when they do not make a valid merchant. The first read
   * of a listed merchant takes the files as found, cutting off a journal's torn last line (a crash in
   * mid-append: never acknowledged).
   */
  async read(): Promise<MerchantDoc | null> {
    await this.compaction?.renaming;
    const start = this.listed;
    const loaded = await this.readFiles(start ?? [...this.sizes.keys()], start ? new Map() : this.sizes);
    if (!loaded) return null;
    if (start) {
      this.listed = undefined;
      Object.assign(this, { gen: loaded.gen, journal: loaded.journal, sizes: loaded.sizes, baseBytes: loaded.baseBytes });
      for (const cut of loaded.torn) {
        try {
          await this.host.io.truncate(this.journalOf(cut.gen), cut.bytes);
        } catch {
          this.mustRewrite = true;
        }
      }
    }
    const { snapshot } = loaded;
    return { snapshot: () => snapshot };
  }

  /**
   * Saves the document: the change since the last write, taken now (synchronously: exactly the changes
   * made so far), or the merchant whole.
   */
  write(doc: MerchantDoc | null): Promise<void> {
    if (!doc) return Promise.resolve();
    const live = doc.live?.();
    if (!live || !this.tracker || this.baseBytes + this.journalBytes() < this.host.wholeBelow) return this.writeWhole(doc, live);
    const ops = this.tracker.diff(live);
    const line = ops.length > 0 ? encodeLine(ops) : null;
    const work = line ? this.append(line) : Promise.resolve(); // takes its journal now
    const outgrown = line !== null && this.journalBytes() + line.length > Math.max(this.host.compactAbove, this.baseBytes);
    if (!this.compaction && (outgrown || this.compactWanted)) {
      // The journal has outgrown its snapshot: fold it in, from the state this line ends at (the lines
      // after it go to the next journal).
      this.compactWanted = false;
      this.startCompaction(live);
    }
    return work;
  }

  /** Takes the merchant just read from these files as written, so that its next write appends only what changed. */
  adopt(live: LiveMerchant): boolean {
    if (this.mustRewrite) return false;
    (this.tracker = new Tracker()).reset(live);
    return true;
  }

  /** A write failed: the journal may end in a torn line (the next write is whole), and a compaction may hold a refused change. */
  failed(): void {
    this.tracker = null;
    this.cancelCompaction();
  }

  cancelCompaction(): void {
    if (this.compaction) this.compaction.cancelled = true;
  }

  /** Folds the journal into the snapshot now (resolves when done; nothing to fold, at once). */
  async compact(): Promise<void> {
    if (!this.tracker || this.journalBytes() === 0) return;
    if (!this.compaction) {
      // It starts at the next write's line boundary (a write with nothing to append will do).
      this.compactWanted = true;
      await this.host.settle(this.merchantId).catch(() => undefined);
    }
    await this.compaction?.done;
  }

  /** Deletes the merchant's files (once its writes and compaction are over). */
  async remove(): Promise<void> {
    await rm(this.file, { force: true });
    for (const gen of this.sizes.keys()) await this.host.io.remove(this.journalOf(gen));
  }

  /** The whole merchant as a new snapshot generation; older journals go once it has landed. */
  private async writeWhole(doc: MerchantDoc, live: LiveMerchant | undefined): Promise<void> {
    const gen = Math.max(this.gen, this.journal, ...this.sizes.keys()) + 1;
    const text = JSON.stringify({ ...doc.snapshot(), journal: gen });
    if (live) (this.tracker ??= new Tracker()).reset(live);
    else this.tracker = null; // nothing to diff the next write against
    await this.host.guard(this.merchantId, async () => {
      await this.compaction?.renaming; // a cancelled compaction still finishing must not land after this
      await mkdir(this.host.dir, { recursive: true });
      await this.host.io.write(this.file, text);
    });
    const old = [...this.sizes.keys()];
    Object.assign(this, { gen, journal: gen, baseBytes: Buffer.byteLength(text), sizes: new Map([[gen, 0]]), mustRewrite: false });
    for (const g of old) await this.host.io.remove(this.journalOf(g)).catch(() => undefined); // stale now: ignored if left
  }

  private async append(line: string): Promise<void> {
    const gen = this.journal;
    const before = this.sizes.get(gen) ?? 0;
    const path = this.journalOf(gen);
    try {
      await this.host.guard(this.merchantId, () => this.host.io.append(path, line));
    } catch (err) {
      // Best effort: a half-written line would be dropped on load anyway (it is the last one).
      await this.host.io.truncate(path, before).catch(() => undefined);
      throw err;
    }
    this.sizes.set(gen, before + Buffer.byteLength(line));
  }

  /**
   * Folds the journals into a new snapshot: the lists and small sections are taken now, at the line
   * boundary the next journal starts from; the records are serialised a slice at a time. The new file is
   * renamed in only once a write that followed the serialisation has landed (so any record it holds in a
   * newer version than the boundary is acknowledged), then the folded journals are deleted. That wait is
   * why it is not written through steno, which renames as soon as the text is written.
   */
  private startCompaction(live: LiveMerchant): void {
    const { io } = this.host;
    const doc = captureDoc(live);
    const gen = Math.max(this.gen, this.journal, ...this.sizes.keys()) + 1;
    const folded = [...this.sizes.keys()];
    this.journal = gen;
    this.sizes.set(gen, 0);
    const compaction: Compaction = { cancelled: false, renaming: null, done: Promise.resolve() };
    this.compaction = compaction;
    const tmp = `${this.file}.compact`;
    compaction.done = (async () => {
      try {
        const bytes = await io.writeParts(tmp, serialiseInSlices(doc, { journal: gen }));
        if (compaction.cancelled) return;
        // Every change made before the last slice was taken lands first (or the compaction is off).
        await this.host.settle(this.merchantId);
        if (compaction.cancelled) return;
        compaction.renaming = (async () => {
          await io.rename(tmp, this.file);
          this.gen = gen;
          this.baseBytes = bytes;
          for (const g of folded) {
            this.sizes.delete(g);
            await io.remove(this.journalOf(g)).catch(() => undefined); // stale now: ignored if left
          }
          this.host.compacted();
        })();
        await compaction.renaming;
      } catch (err) {
        // The journals stay as they are and are still read; the next compaction tries again.
        if (!(err instanceof StoreUnavailable)) console.error(`[merchant-sandbox] merchant ${this.merchantId}: compacting its journal failed (it is kept and still read):`, err);
      } finally {
        if (this.compaction === compaction) this.compaction = null;
        await io.remove(tmp).catch(() => undefined);
      }
    })();
  }

  private async readFiles(journalGens: number[], trusted: Map<number, number>) {
    const path = this.file;
    const unreadable = (where: string, err: unknown) => new Error(`${where} cannot be read: ${(err as Error).message}`);
    let text: string | null;
    let raw: unknown;
    try {
      text = await this.host.io.read(path);
      if (text === null) return null;
      raw = JSON.parse(text);
    } catch (err) {
      throw unreadable(path, err);
    }
    const gen = typeof raw === "object" && raw !== null && Number.isSafeInteger((raw as { journal?: unknown }).journal) ? (raw as { journal: number }).journal : 0;
    const journals: Array<{ where: string; lines: unknown[] }> = [];
    const sizes = new Map<number, number>();
    const torn: Array<{ gen: number; bytes: number }> = [];
    for (const g of journalGens.filter((g) => g >= gen).sort((a, b) => a - b)) {
      const where = this.journalOf(g);
      let body: string | null;
      try {
        body = await this.host.io.read(where);
      } catch (err) {
        throw unreadable(where, err);
      }
      if (body === null) continue;
      const limit = trusted.get(g);
      if (limit !== undefined) body = Buffer.from(body).subarray(0, limit).toString();
      const decoded = decodeJournal(body);
      if ("error" in decoded) throw new Error(`${where}: ${decoded.error}`);
      journals.push({ where, lines: decoded.lines });
      sizes.set(g, decoded.goodBytes);
      if (decoded.torn) torn.push({ gen: g, bytes: decoded.goodBytes });
    }
    const parsed = journals.length === 0 ? parseSnapshot(raw) : replay(raw, journals);
    if ("error" in parsed) throw new Error(`${path} ${"path" in parsed ? `is not a valid merchant-sandbox file at ${parsed.path}: ${parsed.error}` : parsed.error}`);
    const journal = Math.max(gen, ...sizes.keys());
    if (!sizes.has(journal)) sizes.set(journal, 0);
    return { snapshot: parsed.snapshot, gen, journal, sizes, baseBytes: Buffer.byteLength(text), torn };
  }
}
