/**
 * `--data DIR`: one lowdb data file per merchant (`<merchant_id>.json`), written atomically (lowdb's
 * TextFile writes through steno: temp file + rename). Writes for one merchant are batched: while a
 * write is running, every change that asks to be saved waits for the single next write, which
 * serialises the state once for all of them.
 *
 * A write that fails leaves no change applied: the merchant is reloaded from its last good file
 * (memory matches disk again), and every change that reload undid is refused (StoreUnavailable: the
 * requests answer 503, and a client that retries does not pay twice). `health()` says the store is
 * failing until a write succeeds again.
 */
import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { TextFile } from "lowdb/node";
import { parseSnapshot, type Snapshot } from "../domain/snapshot.js";

/** How files are read and written: steno's atomic writes by default; tests inject failures. */
export interface StoreIO {
  write(path: string, text: string): Promise<void>;
  read(path: string): Promise<string | null>;
}

const fileIO: StoreIO = {
  write: (path, text) => new TextFile(path).write(text),
  read: (path) => new TextFile(path).read(),
};

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

interface Writer {
  /** The write in progress, if any. */
  running: Promise<void> | null;
  /** Changes made since the running write serialised the state: the next write takes them. */
  queued: Batch | null;
}

export interface FileStoreOptions {
  io?: StoreIO;
  /**
   * Undoes a failed write: puts the merchant back as its last good file has it, or, with no file
   * yet (a new merchant's first write failed), takes it out.
   */
  revert: (merchantId: string, saved: Snapshot | null) => void;
}

export class FileStore {
  private readonly writers = new Map<string, Writer>();
  private readonly io: StoreIO;
  private failing: { error: string; since: number } | null = null;
  /** Writes made so far (each one serialisation of one merchant), for tests and the benchmark. */
  writeCount = 0;

  constructor(
    readonly dir: string,
    private readonly options: FileStoreOptions,
  ) {
    this.io = options.io ?? fileIO;
  }

  fileOf(merchantId: string): string {
    return join(this.dir, `${merchantId}.json`);
  }

  health(): { ok: true } | { ok: false; error: string; since: string } {
    return this.failing ? { ok: false, error: this.failing.error, since: new Date(this.failing.since).toISOString() } : { ok: true };
  }

  /**
   * Reads every merchant file. The folder is created if missing and checked to be writable first, so
   * a folder the sandbox cannot use stops the start with what to do, not the first save with EACCES.
   * A file that cannot be read or is not a valid snapshot is an error naming it.
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
    const names = (await readdir(this.dir)).filter((n) => n.endsWith(".json")).sort();
    const snapshots: Snapshot[] = [];
    for (const name of names) {
      const path = join(this.dir, name);
      const parsed = await this.readSnapshot(path);
      if ("error" in parsed) throw new Error(`data file ${path} ${parsed.error}`);
      if (parsed.snapshot) snapshots.push(parsed.snapshot); // null: deleted since the listing
    }
    return snapshots;
  }

  /**
   * Resolves once a write that includes every change made so far to merchant `merchantId` has landed;
   * rejects with StoreUnavailable. `snapshot` gives the merchant as it stands when a write starts.
   */
  persist(merchantId: string, snapshot: () => Snapshot): Promise<void> {
    let writer = this.writers.get(merchantId);
    if (!writer) this.writers.set(merchantId, (writer = { running: null, queued: null }));
    const w = writer;
    const joined = (w.queued ??= batch());
    if (!w.running) this.startNext(merchantId, snapshot, w);
    return joined.promise;
  }

  /** Deletes a merchant's file (the merchant was deleted). */
  async remove(merchantId: string): Promise<void> {
    await this.writers.get(merchantId)?.running;
    this.writers.delete(merchantId);
    await rm(this.fileOf(merchantId), { force: true });
  }

  /** Waits for every write in progress or queued (graceful stop). */
  async flush(): Promise<void> {
    for (;;) {
      const pending = [...this.writers.values()].flatMap((w) => [w.running, w.queued?.promise].filter((p): p is Promise<void> => !!p));
      if (pending.length === 0) return;
      await Promise.allSettled(pending);
    }
  }

  private startNext(merchantId: string, snapshot: () => Snapshot, w: Writer): void {
    const current = w.queued;
    if (!current) return;
    w.queued = null; // changes from here on need the write after this one
    // Serialised now, synchronously: exactly the changes made so far.
    const text = JSON.stringify(snapshot());
    w.running = this.write(merchantId, text).then(
      () => current.resolve(),
      async (err: Error) => {
        const failure = new StoreUnavailable(describeWriteError(err));
        await this.undo(merchantId);
        // The reload undid the changes this write held and those made while it ran: refuse them all.
        current.reject(failure);
        w.queued?.reject(failure);
        w.queued = null;
      },
    );
    void w.running.finally(() => {
      w.running = null;
      this.startNext(merchantId, snapshot, w);
    });
  }

  private async write(merchantId: string, text: string): Promise<void> {
    this.writeCount += 1;
    try {
      await mkdir(this.dir, { recursive: true });
      await this.io.write(this.fileOf(merchantId), text);
    } catch (err) {
      this.failing ??= { error: describeWriteError(err as Error), since: Date.now() };
      console.error(`[merchant-sandbox] merchant ${merchantId}: saving to ${this.fileOf(merchantId)} failed; its unsaved changes are undone:`, err);
      throw err;
    }
    this.failing = null;
  }

  /** Memory back to the last good file (or the merchant out, if it never had one). */
  private async undo(merchantId: string): Promise<void> {
    const parsed = await this.readSnapshot(this.fileOf(merchantId));
    if ("error" in parsed) {
      console.error(`[merchant-sandbox] merchant ${merchantId}: its last saved file ${parsed.error}; it is kept as it is in memory`);
      return;
    }
    this.options.revert(merchantId, parsed.snapshot);
  }

  private async readSnapshot(path: string): Promise<{ snapshot: Snapshot | null } | { error: string }> {
    let text: string | null;
    try {
      text = await this.io.read(path);
    } catch (err) {
      return { error: `cannot be read: ${(err as Error).message}` };
    }
    if (text === null) return { snapshot: null };
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (err) {
      return { error: `cannot be read: ${(err as Error).message}` };
    }
    const parsed = parseSnapshot(raw);
    return "error" in parsed ? { error: `is not a valid merchant-sandbox file at ${parsed.path}: ${parsed.error}` } : parsed;
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
