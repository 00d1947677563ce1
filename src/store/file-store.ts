/**
 * `--data DIR`: per merchant, a snapshot file (`<merchant_id>.json`, a plain snapshot document) and an
 * append-only journal (`<merchant_id>.<n>.journal`) of what changed since it was written. A write
 * appends only the change (journal-diff.ts), so its cost is the change, not the merchant; once the
 * journal outgrows the snapshot, a compaction folds it in, a slice at a time (compaction.ts). A small
 * merchant (a file under `wholeBelowBytes`) is simply rewritten whole: as cheap, and one file to read.
 *
 * Writes for one merchant are grouped: while a write is running, every change that asks to be saved
 * waits for the single next write, which takes all of them at once. A response waits for its write:
 * handed to the OS (`sync: "os"`, the default) or on the disk (`"fsync"`: fdatasync per grouped write).
 *
 * Generations keep the files consistent through a crash at any point: the snapshot names the journal
 * generation it starts (`"journal": n`, a key the snapshot schema ignores); journals of an older
 * generation are stale and ignored, and a new snapshot is always renamed in before the journals it
 * replaces are deleted. Old folders (plain `<id>.json`, no journal) load as generation 0.
 *
 * A write that fails leaves no change applied: the merchant is reloaded from its files as last written
 * well (memory matches disk again), and every change that reload undid is refused (StoreUnavailable:
 * the requests answer 503, and a client that retries does not pay twice). `health()` says the store is
 * failing until a write succeeds again.
 */
import { mkdir, open, readdir, readFile, rename, rm, truncate, writeFile, type FileHandle } from "node:fs/promises";
import { dirname, join } from "node:path";
import { parseSnapshot, type Snapshot } from "../domain/snapshot.js";
import { serialiseInSlices } from "./compaction.js";
import { captureDoc, Tracker, type LiveMerchant } from "./journal-diff.js";
import { decodeJournal, encodeLine } from "./journal-lines.js";
import { replay } from "./journal-replay.js";

/** A file's text, or null when it does not exist (a merchant never saved, a journal not started). */
export async function readText(path: string): Promise<string | null> {
  try {
    return await readFile(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

/** How durable a write is before its response goes: handed to the OS, or fdatasync'd. */
export const DATA_SYNC_LEVELS = ["os", "fsync"] as const;
export type DataSync = (typeof DATA_SYNC_LEVELS)[number];

/**
 * How files are read and written; tests inject failures. `write` replaces a file atomically (temp file
 * + rename). The other methods default to the plain file system when an implementation leaves them out.
 */
export interface StoreIO {
  write(path: string, text: string): Promise<void>;
  read(path: string): Promise<string | null>;
  /** Writes a file from parts as they come (a compaction's new snapshot, renamed in afterwards); resolves to its bytes. */
  writeParts?(path: string, parts: AsyncIterable<Uint8Array>): Promise<number>;
  append?(path: string, text: string): Promise<void>;
  truncate?(path: string, bytes: number): Promise<void>;
  rename?(from: string, to: string): Promise<void>;
  remove?(path: string): Promise<void>;
  list?(dir: string): Promise<string[]>;
  /** Lets go of files held open (the journals being appended to). */
  close?(): Promise<void>;
}

function fileIO(sync: DataSync): Required<StoreIO> {
  const fsync = sync === "fsync";
  const syncDir = async (path: string) => {
    if (!fsync) return;
    const dir = await open(dirname(path), "r");
    try {
      await dir.datasync();
    } finally {
      await dir.close();
    }
  };
  let tmpCount = 0;
  const appending = new Map<string, FileHandle>();
  /** Journals with an append in flight: never closed under it. */
  const writing = new Set<string>();
  const release = async (path: string) => {
    const file = appending.get(path);
    appending.delete(path);
    await file?.close().catch(() => undefined);
  };
  return {
    async write(path, text) {
      const tmp = `${path}.${process.pid}-${tmpCount++}.tmp`;
      const file = await open(tmp, "w");
      try {
        await file.writeFile(text);
        if (fsync) await file.datasync();
      } finally {
        await file.close();
      }
      await rename(tmp, path);
      await syncDir(path);
    },
    read: readText,
    async writeParts(path, parts) {
      const file = await open(path, "w");
      let bytes = 0;
      try {
        for await (const part of parts) {
          await file.write(part);
          bytes += part.length;
        }
        if (fsync) await file.datasync();
      } finally {
        await file.close();
      }
      return bytes;
    },
    async append(path, text) {
      // One write per grouped change on a journal kept open: an open and a close around each would
      // triple the trips to the thread pool that a response waits for.
      let file = appending.get(path);
      if (file) appending.delete(path);
      else file = await open(path, "a");
      appending.set(path, file); // the most recently used last
      for (const [old, handle] of appending) {
        if (appending.size <= MAX_OPEN_JOURNALS) break;
        if (writing.has(old)) continue;
        appending.delete(old);
        void handle.close().catch(() => undefined);
      }
      writing.add(path);
      try {
        await file.write(text);
        if (fsync) await file.datasync();
      } finally {
        writing.delete(path);
      }
    },
    async truncate(path, bytes) {
      await release(path);
      await truncate(path, bytes);
    },
    async rename(from, to) {
      await rename(from, to);
      await syncDir(to);
    },
    async remove(path) {
      await release(path);
      await rm(path, { force: true });
    },
    list: (dir) => readdir(dir),
    async close() {
      const open = [...appending.values()];
      appending.clear();
      await Promise.all(open.map((f) => f.close().catch(() => undefined)));
    },
  };
}

/** Journals kept open for appending at once (the least recently used is closed beyond it). */
const MAX_OPEN_JOURNALS = 64;

/** A change could not be made durable, so it was undone. */
export class StoreUnavailable extends Error {
  constructor(readonly reason: string) {
    super(`The change could not be saved (${reason}); nothing was applied. Retry once the disk is writable again.`);
    this.name = "StoreUnavailable";
  }
}

interface Batch {
  promise: Promise<void>;
  resolve(): void;
  reject(err: Error): void;
}

function batch(): Batch {
  let resolve!: () => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  promise.catch(() => undefined); // background saves may not wait for it
  return { promise, resolve, reject };
}

interface Compaction {
  /** Set when a write fails: the snapshot being made may hold a change that was refused. */
  cancelled: boolean;
  /** While the new snapshot is renamed in and the old journals deleted: what reads the files waits for it. */
  renaming: Promise<void> | null;
  done: Promise<void>;
}

interface Writer {
  /** The write in progress, if any. */
  running: Promise<void> | null;
  /** Changes made since the running write took the state: the next write takes them. */
  queued: Batch | null;
  /** How to read the merchant, from the latest persist call. */
  snapshot: () => Snapshot;
  live: (() => LiveMerchant) | undefined;
  /** What was last written; null: the next write is whole (first write, after a failure, no live view). */
  tracker: Tracker | null;
  /** Generation of the snapshot file (-1: none yet), and of the journal appended to. */
  gen: number;
  journal: number;
  /** Bytes of each journal known to hold only complete, acknowledged lines. */
  sizes: Map<number, number>;
  /** Bytes of the snapshot file as last written. */
  baseBytes: number;
  compaction: Compaction | null;
  /** compact() asked for one: it starts at the next write. */
  compactWanted: boolean;
  /** A torn journal tail could not be cut off at load: nothing may be appended after it, the next write is whole. */
  mustRewrite: boolean;
}

export interface FileStoreOptions {
  io?: StoreIO;
  /**
   * Undoes a failed write: puts the merchant back as its files have it, or, with no file yet (a new
   * merchant's first write failed), takes it out.
   */
  revert: (merchantId: string, saved: Snapshot | null) => void;
  sync?: DataSync;
  /** A merchant smaller than this is rewritten whole on each write (default 256 KB). */
  wholeBelowBytes?: number;
  /** A journal is folded into its snapshot once it is larger than both this and the snapshot (default 4 MB). */
  compactAboveBytes?: number;
}

const journalName = (merchantId: string, gen: number) => `${merchantId}.${gen}.journal`;
const JOURNAL = /^(.+)\.(\d{1,15})\.journal$/;

export class FileStore {
  private readonly writers = new Map<string, Writer>();
  private readonly io: Required<StoreIO>;
  private readonly wholeBelow: number;
  private readonly compactAbove: number;
  private failing: { error: string; since: number } | null = null;
  /** Writes made so far (each one grouped write of one merchant), for tests and the benchmark. */
  writeCount = 0;
  /** Compactions finished, for tests and the benchmark. */
  compactions = 0;

  constructor(
    readonly dir: string,
    private readonly options: FileStoreOptions,
  ) {
    const plain = fileIO(options.sync ?? "os");
    this.io = { ...plain, ...options.io } as Required<StoreIO>;
    this.wholeBelow = options.wholeBelowBytes ?? 256 * 1024;
    this.compactAbove = options.compactAboveBytes ?? 4 * 1024 * 1024;
  }

  fileOf(merchantId: string): string {
    return join(this.dir, `${merchantId}.json`);
  }

  private journalOf(merchantId: string, gen: number): string {
    return join(this.dir, journalName(merchantId, gen));
  }

  health(): { ok: true } | { ok: false; error: string; since: string } {
    return this.failing ? { ok: false, error: this.failing.error, since: new Date(this.failing.since).toISOString() } : { ok: true };
  }

  /**
   * Reads every merchant: its snapshot file and the journals written since. The folder is created if
   * missing and checked to be writable first, so a folder the sandbox cannot use stops the start with
   * what to do, not the first save with EACCES. A file that cannot be read, or a snapshot and journal
   * that do not make a valid merchant, is an error naming it. A journal's torn last line (a crash in
   * mid-append: never acknowledged) is dropped and cut from the file.
   */
  async loadAll(): Promise<Snapshot[]> {
    try {
      await mkdir(this.dir, { recursive: true });
      const probe = join(this.dir, `.write-check-${process.pid}.tmp`);
      await writeFile(probe, "");
      await rm(probe);
    } catch (err) {
      throw new Error(dataFolderProblem(this.dir, err as NodeJS.ErrnoException));
    }
    const names = await this.io.list(this.dir);
    const journals = new Map<string, number[]>();
    for (const name of names) {
      const m = JOURNAL.exec(name);
      if (m) journals.set(m[1]!, [...(journals.get(m[1]!) ?? []), Number(m[2])]);
    }
    const snapshots: Snapshot[] = [];
    for (const name of names.filter((n) => n.endsWith(".json")).sort()) {
      const merchantId = name.slice(0, -".json".length);
      const loaded = await this.readMerchant(merchantId, journals.get(merchantId) ?? [], new Map());
      if ("error" in loaded) throw new Error(`data file ${loaded.error}`);
      if (!loaded.snapshot) continue; // deleted since the listing
      snapshots.push(loaded.snapshot);
      const w = this.writerOf(merchantId, () => loaded.snapshot!);
      Object.assign(w, { gen: loaded.gen, journal: loaded.journal, sizes: loaded.sizes, baseBytes: loaded.baseBytes });
      for (const cut of loaded.torn) {
        try {
          await this.io.truncate(this.journalOf(merchantId, cut.gen), cut.bytes);
        } catch {
          w.mustRewrite = true;
        }
      }
    }
    return snapshots;
  }

  /**
   * Takes a restored merchant as written (it was just read from its files), so that its next write
   * appends only what changed. Without it, the first write after a start is whole.
   */
  adopt(merchantId: string, live: () => LiveMerchant): void {
    const w = this.writers.get(merchantId);
    if (!w || w.mustRewrite) return;
    w.live = live;
    (w.tracker = new Tracker()).reset(live());
  }

  /**
   * Resolves once a write that includes every change made so far to merchant `merchantId` has landed;
   * rejects with StoreUnavailable. `snapshot` gives the merchant as it stands when a write starts;
   * `live`, its parts, lets the write take only what changed (without it, every write is whole).
   */
  persist(merchantId: string, snapshot: () => Snapshot, live?: () => LiveMerchant): Promise<void> {
    const w = this.writerOf(merchantId, snapshot);
    w.snapshot = snapshot;
    if (!live) w.tracker = null;
    w.live = live;
    const joined = (w.queued ??= batch());
    if (!w.running) this.startNext(merchantId, w);
    return joined.promise;
  }

  /** Deletes a merchant's files (the merchant was deleted). */
  async remove(merchantId: string): Promise<void> {
    const w = this.writers.get(merchantId);
    if (w?.compaction) w.compaction.cancelled = true;
    await w?.running;
    await w?.compaction?.done;
    this.writers.delete(merchantId);
    await rm(this.fileOf(merchantId), { force: true });
    for (const gen of w?.sizes.keys() ?? []) await this.io.remove(this.journalOf(merchantId, gen));
  }

  /** Waits for every write and compaction in progress or queued. */
  async flush(): Promise<void> {
    for (;;) {
      const pending = [...this.writers.values()].flatMap((w) =>
        [w.running, w.queued?.promise, w.compaction?.done].filter((p): p is Promise<void> => !!p),
      );
      if (pending.length === 0) return;
      await Promise.allSettled(pending);
    }
  }

  /**
   * Graceful stop: every write lands, and each journal is folded into its snapshot, so a stopped
   * sandbox leaves one plain snapshot file per merchant.
   */
  async close(): Promise<void> {
    await this.flush();
    for (const merchantId of this.writers.keys()) await this.compact(merchantId);
    await this.flush();
    await this.io.close();
  }

  /** Folds the merchant's journal into its snapshot now (resolves when done; nothing to fold, at once). */
  async compact(merchantId: string): Promise<void> {
    const w = this.writers.get(merchantId);
    if (!w?.tracker || this.journalBytes(w) === 0) return;
    if (!w.compaction) {
      // It starts at the next write's line boundary (a write with nothing to append will do).
      w.compactWanted = true;
      await this.persist(merchantId, w.snapshot, w.live).catch(() => undefined);
    }
    await w.compaction?.done;
  }

  private writerOf(merchantId: string, snapshot: () => Snapshot): Writer {
    let w = this.writers.get(merchantId);
    if (!w) {
      w = { running: null, queued: null, snapshot, live: undefined, tracker: null, gen: -1, journal: -1, sizes: new Map(), baseBytes: 0, compaction: null, compactWanted: false, mustRewrite: false };
      this.writers.set(merchantId, w);
    }
    return w;
  }

  private journalBytes(w: Writer): number {
    let total = 0;
    for (const bytes of w.sizes.values()) total += bytes;
    return total;
  }

  private startNext(merchantId: string, w: Writer): void {
    const current = w.queued;
    if (!current) return;
    w.queued = null; // changes from here on need the write after this one
    // The change is taken now, synchronously: exactly the changes made so far.
    const live = w.live?.();
    let work: Promise<void>;
    if (!live || !w.tracker || w.baseBytes + this.journalBytes(w) < this.wholeBelow) {
      work = this.writeWhole(merchantId, w, live);
    } else {
      const ops = w.tracker.diff(live);
      const line = ops.length > 0 ? encodeLine(ops) : null;
      work = line ? this.append(merchantId, w, line) : Promise.resolve(); // takes its journal now
      const outgrown = line !== null && this.journalBytes(w) + line.length > Math.max(this.compactAbove, w.baseBytes);
      if (!w.compaction && (outgrown || w.compactWanted)) {
        // The journal has outgrown its snapshot: fold it in, from the state this line ends at (the
        // lines after it go to the next journal).
        w.compactWanted = false;
        this.startCompaction(merchantId, w, live);
      }
    }
    w.running = work.then(
      () => current.resolve(),
      async (err: Error) => {
        const failure = new StoreUnavailable(describeWriteError(err));
        w.tracker = null; // the journal may end in a torn line: the next write is whole
        if (w.compaction) w.compaction.cancelled = true;
        await this.undo(merchantId, w);
        // The reload undid the changes this write held and those made while it ran: refuse them all.
        current.reject(failure);
        w.queued?.reject(failure);
        w.queued = null;
      },
    );
    void w.running.finally(() => {
      w.running = null;
      this.startNext(merchantId, w);
    });
  }

  /** The whole merchant as a new snapshot generation; older journals go once it has landed. */
  private async writeWhole(merchantId: string, w: Writer, live: LiveMerchant | undefined): Promise<void> {
    const gen = Math.max(w.gen, w.journal, ...w.sizes.keys()) + 1;
    const text = JSON.stringify({ ...w.snapshot(), journal: gen });
    if (live) (w.tracker ??= new Tracker()).reset(live);
    await this.guard(merchantId, async () => {
      await w.compaction?.renaming; // a cancelled compaction still finishing must not land after this
      await mkdir(this.dir, { recursive: true });
      await this.io.write(this.fileOf(merchantId), text);
    });
    const old = [...w.sizes.keys()];
    Object.assign(w, { gen, journal: gen, baseBytes: Buffer.byteLength(text), sizes: new Map([[gen, 0]]), mustRewrite: false });
    for (const g of old) await this.io.remove(this.journalOf(merchantId, g)).catch(() => undefined); // stale now: ignored if left
  }

  private async append(merchantId: string, w: Writer, line: string): Promise<void> {
    const gen = w.journal;
    const before = w.sizes.get(gen) ?? 0;
    const path = this.journalOf(merchantId, gen);
    try {
      await this.guard(merchantId, () => this.io.append(path, line));
    } catch (err) {
      // Best effort: a half-written line would be dropped on load anyway (it is the last one).
      await this.io.truncate(path, before).catch(() => undefined);
      throw err;
    }
    w.sizes.set(gen, before + Buffer.byteLength(line));
  }

  /** Runs one write of the merchant's files, counting it and keeping `health()` up to date. */
  private async guard(merchantId: string, write: () => Promise<void>): Promise<void> {
    this.writeCount += 1;
    try {
      await write();
    } catch (err) {
      this.failing ??= { error: describeWriteError(err as Error), since: Date.now() };
      console.error(`[merchant-sandbox] merchant ${merchantId}: saving to ${this.fileOf(merchantId)} failed; its unsaved changes are undone:`, err);
      throw err;
    }
    this.failing = null;
  }

  /**
   * Folds the journals into a new snapshot: the lists and small sections are taken now, at the line
   * boundary the next journal starts from; the records are serialised a slice at a time. The new file is
   * renamed in only once a write that followed the serialisation has landed (so any record it holds
   * in a newer version than the boundary is acknowledged), then the folded journals are deleted.
   */
  private startCompaction(merchantId: string, w: Writer, live = w.live?.()): void {
    if (!live || w.compaction) return;
    const doc = captureDoc(live);
    const gen = Math.max(w.gen, w.journal, ...w.sizes.keys()) + 1;
    const folded = [...w.sizes.keys()];
    w.journal = gen;
    w.sizes.set(gen, 0);
    const compaction: Compaction = { cancelled: false, renaming: null, done: Promise.resolve() };
    w.compaction = compaction;
    const tmp = `${this.fileOf(merchantId)}.compact`;
    compaction.done = (async () => {
      try {
        const bytes = await this.io.writeParts(tmp, serialiseInSlices(doc, { journal: gen }));
        if (compaction.cancelled) return;
        // Every change made before the last slice was taken lands first (or the compaction is off).
        await this.persist(merchantId, w.snapshot, w.live);
        if (compaction.cancelled) return;
        compaction.renaming = (async () => {
          await this.io.rename(tmp, this.fileOf(merchantId));
          w.gen = gen;
          w.baseBytes = bytes;
          for (const g of folded) {
            w.sizes.delete(g);
            await this.io.remove(this.journalOf(merchantId, g)).catch(() => undefined); // stale now: ignored if left
          }
          this.compactions += 1;
        })();
        await compaction.renaming;
      } catch (err) {
        // The journals stay as they are and are still read; the next compaction tries again.
        if (!(err instanceof StoreUnavailable)) console.error(`[merchant-sandbox] merchant ${merchantId}: compacting its journal failed (it is kept and still read):`, err);
      } finally {
        if (w.compaction === compaction) w.compaction = null;
        await this.io.remove(tmp).catch(() => undefined);
      }
    })();
  }

  /** Memory back to the files as last written well (or the merchant out, if it never had one). */
  private async undo(merchantId: string, w: Writer): Promise<void> {
    await w.compaction?.renaming;
    const loaded = await this.readMerchant(merchantId, [...w.sizes.keys()], w.sizes);
    if ("error" in loaded) {
      console.error(`[merchant-sandbox] merchant ${merchantId}: its saved files ${loaded.error}; it is kept as it is in memory`);
      return;
    }
    this.options.revert(merchantId, loaded.snapshot);
  }

  /**
   * A merchant's snapshot file with its journals of that generation or newer applied. `trusted` cuts a
   * journal to the bytes known to be good (a failed append may have left more).
   */
  private async readMerchant(merchantId: string, journalGens: number[], trusted: Map<number, number>) {
    const path = this.fileOf(merchantId);
    let text: string | null;
    try {
      text = await this.io.read(path);
    } catch (err) {
      return { error: `${path} cannot be read: ${(err as Error).message}` };
    }
    if (text === null) return { snapshot: null };
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (err) {
      return { error: `${path} cannot be read: ${(err as Error).message}` };
    }
    const gen = typeof raw === "object" && raw !== null && Number.isSafeInteger((raw as { journal?: unknown }).journal) ? (raw as { journal: number }).journal : 0;
    const journals: Array<{ where: string; lines: unknown[] }> = [];
    const sizes = new Map<number, number>();
    const torn: Array<{ gen: number; bytes: number }> = [];
    for (const g of journalGens.filter((g) => g >= gen).sort((a, b) => a - b)) {
      const where = this.journalOf(merchantId, g);
      let body: string | null;
      try {
        body = await this.io.read(where);
      } catch (err) {
        return { error: `${where} cannot be read: ${(err as Error).message}` };
      }
      if (body === null) continue;
      const limit = trusted.get(g);
      if (limit !== undefined) body = Buffer.from(body).subarray(0, limit).toString();
      const decoded = decodeJournal(body);
      if ("error" in decoded) return { error: `${where}: ${decoded.error}` };
      journals.push({ where, lines: decoded.lines });
      sizes.set(g, decoded.goodBytes);
      if (decoded.torn) torn.push({ gen: g, bytes: decoded.goodBytes });
    }
    const parsed = journals.length === 0 ? parseSnapshot(raw) : replay(raw, journals);
    if ("error" in parsed) {
      const at = "path" in parsed ? `is not a valid merchant-sandbox file at ${parsed.path}: ${parsed.error}` : parsed.error;
      return { error: `${path} ${at}` };
    }
    const journal = Math.max(gen, ...sizes.keys());
    if (!sizes.has(journal)) sizes.set(journal, 0);
    return { snapshot: parsed.snapshot, gen, journal, sizes, baseBytes: Buffer.byteLength(text), torn };
  }
}

function describeWriteError(err: Error): string {
  const code = (err as NodeJS.ErrnoException).code;
  // Node's own messages already start with the code ("ENOSPC: no space left on device, write").
  return code && !err.message.startsWith(code) ? `${code}: ${err.message}` : err.message;
}

/** Why a `--data` folder cannot be used, and what to do about it. */
export function dataFolderProblem(dir: string, err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case "EACCES":
    case "EPERM":
    case "EROFS": {
      const uid = process.getuid?.();
      return (
        `cannot write to the data folder ${dir} (${err.code}${uid === undefined ? "" : `, running as uid ${uid}`}). ` +
        "Make it writable by that user. With Docker and a host folder, run the container as yourself: " +
        'docker run --user "$(id -u):$(id -g)" -v "$PWD/data:/data" ... (the image runs as uid 1000), or use a named volume: -v sandbox-data:/data'
      );
    }
    case "EEXIST":
    case "ENOTDIR":
      return `the data folder ${dir} cannot be created: a file is in the way${err.path ? ` at ${err.path}` : ""}. Give --data the path of a folder (it is created if missing).`;
    case "ENOSPC":
      return `the disk holding the data folder ${dir} is full: free some space or choose another folder with --data.`;
    default:
      return `the data folder ${dir} cannot be used: ${err.message}`;
  }
}
