/**
 * `--data DIR`: each merchant is a lowdb document (`Low`) whose adapter is its journal
 * (journal-adapter.ts): a snapshot file (`<merchant_id>.json`) and an append-only journal
 * (`<merchant_id>.<n>.journal`) of what changed since, folded in by a compaction once it outgrows it.
 *
 * Writes for one merchant are grouped: while a write is running, every change that asks to be saved
 * waits for the single next write, which takes all of them at once. A response waits for its write:
 * handed to the OS (`sync: "os"`, the default) or on the disk (`"fsync"`: fdatasync per grouped write).
 *
 * A write that fails leaves no change applied: the merchant is reloaded from its files as last written
 * well (memory matches disk again), and every change that reload undid is refused (StoreUnavailable:
 * the requests answer 503, and a client that retries does not pay twice). `health()` says the store is
 * failing until a write succeeds again.
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Low } from "lowdb";
import type { Snapshot } from "../domain/snapshot.js";
import { JOURNAL, JournalAdapter, snapshotPath, type JournalHost, type MerchantDoc } from "./journal-adapter.js";
import type { LiveMerchant } from "./journal-diff.js";
import { fileIO, StoreUnavailable, type DataSync, type StoreIO } from "./store-io.js";

export { DATA_SYNC_LEVELS, readText, StoreUnavailable, type StoreIO } from "./store-io.js";

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

/** One merchant in the store: its document, and its writes in progress and waiting. */
interface Held {
  low: Low<MerchantDoc | null>;
  /** `low.adapter`, typed: the store also compacts, cancels and reads back through it. */
  files: JournalAdapter;
  /** The write in progress, if any. */
  running: Promise<void> | null;
  /** Changes made since the running write took the state: the next write takes them. */
  queued: Batch | null;
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

export class FileStore {
  private readonly merchants = new Map<string, Held>();
  private readonly host: JournalHost;
  private failing: { error: string; since: number } | null = null;
  /** Writes made so far (each one grouped write of one merchant), for tests and the benchmark. */
  writeCount = 0;
  /** Compactions finished, for tests and the benchmark. */
  compactions = 0;

  constructor(
    readonly dir: string,
    private readonly options: FileStoreOptions,
  ) {
    this.host = {
      dir,
      io: { ...fileIO(options.sync ?? "os"), ...options.io } as Required<StoreIO>,
      wholeBelow: options.wholeBelowBytes ?? 256 * 1024,
      compactAbove: options.compactAboveBytes ?? 4 * 1024 * 1024,
      guard: (merchantId, write) => this.guard(merchantId, write),
      settle: (merchantId) => {
        const m = this.merchants.get(merchantId);
        return m ? this.save(merchantId, m) : Promise.resolve();
      },
      compacted: () => void (this.compactions += 1),
    };
  }

  fileOf(merchantId: string): string {
    return snapshotPath(this.dir, merchantId);
  }

  health(): { ok: true } | { ok: false; error: string; since: string } {
    return this.failing ? { ok: false, error: this.failing.error, since: new Date(this.failing.since).toISOString() } : { ok: true };
  }

  /**
   * Reads every merchant: its snapshot file and the journals written since. The folder is created if
   * missing and checked to be writable first, so a folder the sandbox cannot use stops the start with
   * what to do, not the first save with EACCES. A file that cannot be read, or a snapshot and journal
   * that do not make a valid merchant, is an error naming it.
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
    const names = await this.host.io.list(this.dir);
    const journals = new Map<string, number[]>();
    for (const name of names) {
      const m = JOURNAL.exec(name);
      if (m) journals.set(m[1]!, [...(journals.get(m[1]!) ?? []), Number(m[2])]);
    }
    const snapshots: Snapshot[] = [];
    for (const name of names.filter((n) => n.endsWith(".json")).sort()) {
      const merchantId = name.slice(0, -".json".length);
      const m = this.hold(merchantId, journals.get(merchantId) ?? []);
      try {
        await m.low.read();
      } catch (err) {
        throw new Error(`data file ${(err as Error).message}`);
      }
      if (m.low.data) snapshots.push(m.low.data.snapshot());
      else this.merchants.delete(merchantId); // deleted since the listing
    }
    return snapshots;
  }

  /**
   * Takes a restored merchant as written (it was just read from its files), so that its next write
   * appends only what changed. Without it, the first write after a start is whole.
   */
  adopt(merchantId: string, live: () => LiveMerchant): void {
    const m = this.merchants.get(merchantId);
    if (m?.low.data && m.files.adopt(live())) m.low.data = { ...m.low.data, live };
  }

  /**
   * Resolves once a write that includes every change made so far to merchant `merchantId` has landed;
   * rejects with StoreUnavailable. `snapshot` gives the merchant as it stands when a write starts;
   * `live`, its parts, lets the write take only what changed (without it, every write is whole).
   */
  persist(merchantId: string, snapshot: () => Snapshot, live?: () => LiveMerchant): Promise<void> {
    const m = this.merchants.get(merchantId) ?? this.hold(merchantId);
    m.low.data = { snapshot, live };
    return this.save(merchantId, m);
  }

  /** Deletes a merchant's files (the merchant was deleted). */
  async remove(merchantId: string): Promise<void> {
    const m = this.merchants.get(merchantId);
    if (!m) return void (await rm(this.fileOf(merchantId), { force: true }));
    m.files.cancelCompaction();
    await m.running;
    await m.files.compacting;
    this.merchants.delete(merchantId);
    await m.files.remove();
  }

  /** Waits for every write and compaction in progress or queued. */
  async flush(): Promise<void> {
    for (;;) {
      const pending = [...this.merchants.values()].flatMap((m) =>
        [m.running, m.queued?.promise, m.files.compacting].filter((p): p is Promise<void> => !!p),
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
    for (const merchantId of this.merchants.keys()) await this.compact(merchantId);
    await this.flush();
    await this.host.io.close();
  }

  /** Folds the merchant's journal into its snapshot now (resolves when done; nothing to fold, at once). */
  async compact(merchantId: string): Promise<void> {
    await this.merchants.get(merchantId)?.files.compact();
  }

  /** A merchant's document, read from its files (`listed`: the journal generations found there) or about to be written first. */
  private hold(merchantId: string, listed?: number[]): Held {
    const files = new JournalAdapter(merchantId, this.host, listed);
    const m: Held = { low: new Low<MerchantDoc | null>(files, null), files, running: null, queued: null };
    this.merchants.set(merchantId, m);
    return m;
  }

  /** Joins the merchant's next write (starting it if none is running). */
  private save(merchantId: string, m: Held): Promise<void> {
    const joined = (m.queued ??= batch());
    if (!m.running) this.startNext(merchantId, m);
    return joined.promise;
  }

  private startNext(merchantId: string, m: Held): void {
    const current = m.queued;
    if (!current) return;
    m.queued = null; // changes from here on need the write after this one
    // The adapter takes the change now, synchronously: exactly the changes made so far.
    m.running = m.low.write().then(
      () => current.resolve(),
      async (err: Error) => {
        const failure = new StoreUnavailable(describeWriteError(err));
        m.files.failed();
        await this.undo(merchantId, m);
        // The reload undid the changes this write held and those made while it ran: refuse them all.
        current.reject(failure);
        m.queued?.reject(failure);
        m.queued = null;
      },
    );
    void m.running.finally(() => {
      m.running = null;
      this.startNext(merchantId, m);
    });
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

  /** Memory back to the files as last written well (or the merchant out, if it never had one). */
  private async undo(merchantId: string, m: Held): Promise<void> {
    let saved: MerchantDoc | null;
    try {
      saved = await m.files.read();
    } catch (err) {
      console.error(`[merchant-sandbox] merchant ${merchantId}: its saved files ${(err as Error).message}; it is kept as it is in memory`);
      return;
    }
    this.options.revert(merchantId, saved?.snapshot() ?? null);
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
