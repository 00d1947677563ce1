/**
 * The file operations of the `--data` store, and their plain file-system implementation. A whole file is
 * replaced through lowdb's atomic writer (steno: a temp file beside it, renamed in), so a reader sees the
 * old file or the new one, never a part. With `fsync`, what a response waits for is on the disk: the new
 * text before the rename that puts it in place, the folder's entry after it, each journal append.
 */
import { open, readdir, readFile, rename, rm, truncate, type FileHandle } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { Writer } from "steno";

/** A file's text, or null when it does not exist (a merchant never saved, a journal not started). */
export async function readText(path: string): Promise<string | null> {
  try {
    return await readFile(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

/** A change could not be made durable, so it was undone. */
export class StoreUnavailable extends Error {
  /** `message` replaces the folder store's wording (a database's store says what to wait for). */
  constructor(readonly reason: string, message?: string) {
    super(message ?? `The change could not be saved (${reason}); nothing was applied. Retry once the disk is writable again.`);
    this.name = "StoreUnavailable";
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

/** Journals kept open for appending at once (the least recently used is closed beyond it). */
const MAX_OPEN_JOURNALS = 64;

async function datasync(path: string, flags: "r" | "r+"): Promise<void> {
  const file = await open(path, flags);
  try {
    await file.datasync();
  } finally {
    await file.close();
  }
}

/**
 * `text` as the data of steno's write, ending with an fdatasync of the temp file it is writing (steno
 * itself never syncs): writeFile asks for the next part only once the last is written, and renames after.
 */
async function* syncedBeforeRename(path: string, text: string): AsyncGenerator<string> {
  yield text;
  // steno 4 writes `.<name>.tmp` beside the file; "r+" creates nothing, so another name fails the write.
  await datasync(join(dirname(path), `.${basename(path)}.tmp`), "r+");
}

export function fileIO(sync: DataSync): Required<StoreIO> {
  const fsync = sync === "fsync";
  const syncDir = async (path: string) => {
    if (fsync) await datasync(dirname(path), "r");
  };
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
      // A writer per call: the store never runs two writes of one file at once (steno's queue is not needed).
      await new Writer(path).write(fsync ? syncedBeforeRename(path, text) : text);
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
