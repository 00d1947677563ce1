/**
 * `--data DIR`: one lowdb data file per merchant (`<merchant_id>.json`), written atomically (lowdb's
 * TextFile writes through steno: temp file + rename). Writes for one merchant are batched: while a
 * write is running, every change that asks to be saved waits for the single next write, which
 * serialises the state once for all of them.
 */
import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { DataFile } from "lowdb/node";
import type { Tenant } from "./tenant.js";
import { parseSnapshot, toSnapshot, type Snapshot } from "./snapshot.js";

interface Writer {
  /** The write in progress (or the last one), never rejecting. */
  current: Promise<void>;
  /** The write that will start after `current`; joined by every change made before it starts. */
  next?: Promise<void>;
}

export class FileStore {
  private readonly writers = new Map<string, Writer>();
  /** Writes made so far (each one serialisation of one merchant), for tests and the benchmark. */
  writeCount = 0;

  constructor(readonly dir: string) {}

  fileOf(merchantId: string): string {
    return join(this.dir, `${merchantId}.json`);
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
      let raw: unknown;
      try {
        raw = await new DataFile<unknown>(path, { parse: JSON.parse, stringify: JSON.stringify }).read();
      } catch (err) {
        throw new Error(`data file ${path} cannot be read: ${(err as Error).message}`);
      }
      const parsed = parseSnapshot(raw);
      if ("error" in parsed) throw new Error(`data file ${path} is not a valid merchant-sandbox file at ${parsed.path}: ${parsed.error}`);
      snapshots.push(parsed.snapshot);
    }
    return snapshots;
  }

  /** Resolves once a write that includes every change made so far has landed on disk. */
  persist(tenant: Tenant): Promise<void> {
    let w = this.writers.get(tenant.id);
    if (!w) this.writers.set(tenant.id, (w = { current: Promise.resolve() }));
    const writer = w;
    if (!writer.next) {
      const next = writer.current.then(() => {
        writer.next = undefined; // from here on, changes need the write after this one
        return this.write(tenant);
      });
      writer.next = next;
      writer.current = next.catch(() => undefined);
    }
    return writer.next;
  }

  /** Waits for every write in progress or queued (graceful stop). */
  async flush(): Promise<void> {
    await Promise.all([...this.writers.values()].map((w) => w.next ?? w.current));
  }

  private async write(tenant: Tenant): Promise<void> {
    this.writeCount += 1;
    await mkdir(this.dir, { recursive: true });
    const file = new DataFile<Snapshot>(this.fileOf(tenant.id), { parse: JSON.parse, stringify: JSON.stringify });
    await file.write(toSnapshot(tenant.config, tenant.clock.settings(), tenant.state));
  }
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
