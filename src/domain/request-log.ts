/**
 * A merchant's request log: every /api/v1 request it made and the answer it got, newest kept, oldest
 * dropped (a ring bounded by count and bytes). It is traffic, not merchant state: never saved, kept
 * across reset and snapshot PUT, empty after a restart (README "Sandbox choices"). The request log,
 * the integration checks (checks.ts) and the dashboard's request log all read this one record.
 *
 * The requests this process serves are kept as RequestRecords (request-record.ts), raw parts formatted
 * when read; entries given whole (adopted from a shared store's rows) are kept as they are.
 */
import { entryBytes, type LoggedRequest } from "./logged-request.js";
import { loggedEntry, RequestRecord } from "./request-record.js";

export {
  ENTRY_OVERHEAD_BYTES,
  entryBytes,
  KEY_SHOWN,
  keepBody,
  LOGGED_BODY_BYTES,
  maskKey,
  textBytes,
  touchedObjects,
  type LoggedRequest,
  type TouchedObject,
} from "./logged-request.js";

/** Default entries kept per merchant (`--request-log`); 0 turns the log off. */
export const DEFAULT_REQUEST_LOG_SIZE = 500;
/** Most bytes (entryBytes) one merchant's log holds: past it the oldest entries go, whatever their number. */
export const REQUEST_LOG_BYTES = 2 * 1024 * 1024;
/** Most entries a merchant's log can be set to hold. */
export const MAX_REQUEST_LOG_SIZE = 10_000;

/**
 * The ring: a fixed array written round and round, so adding is O(1) with no copying, and reading one
 * request by its seq is O(1) too (the seqs it holds are consecutive: it only ever drops the oldest). Past
 * `capacity` entries, or REQUEST_LOG_BYTES, the oldest go; `shed` lets the sandbox-wide budget take more.
 */
export class RequestLog {
  private ring: Array<LoggedRequest | RequestRecord | undefined> = [];
  private sizes: number[] = [];
  /** Index of the oldest entry in `ring`. */
  private start = 0;
  private count = 0;
  private held = 0;
  private nextSeq = 1;

  /** `onResize` hears how many bytes each change added (or, negative, freed), except what `shed` frees. */
  constructor(
    readonly capacity: number = DEFAULT_REQUEST_LOG_SIZE,
    private readonly onResize?: (delta: number) => void,
  ) {}

  get enabled(): boolean {
    return this.capacity > 0;
  }

  get size(): number {
    return this.count;
  }

  /** The entries' bytes (entryBytes), together. */
  get bytes(): number {
    return this.held;
  }

  /** The seq the next request will get: every seq below it was given out, whether or not it is still held. */
  get next(): number {
    return this.nextSeq;
  }

  /** Assigns the entry's seq and appends it (the entry itself is kept, not a copy). */
  add(entry: Omit<LoggedRequest, "seq">): LoggedRequest {
    const logged = entry as LoggedRequest;
    logged.seq = this.nextSeq++;
    this.keep(logged, entryBytes(logged));
    return logged;
  }

  /** Appends a request as recorded, formatted whenever it is read; its seq. */
  record(record: RequestRecord): number {
    const seq = this.nextSeq++;
    this.keep(record, record.bytes);
    return seq;
  }

  /** The newest request, when it is kept as recorded (the next record shares what is the same). */
  get lastRecord(): RequestRecord | undefined {
    if (this.count === 0) return undefined;
    const last = this.ring[(this.start + this.count - 1) % this.capacity];
    return last instanceof RequestRecord ? last : undefined;
  }

  /**
   * Appends an entry whose seq was given elsewhere (a store several processes share hands them out):
   * at least `next`, which becomes seq + 1. Seqs it jumps over are ones this log will never hold
   * (skipTo). Entries adopted in seq order leave the log as `add` would have left it.
   */
  adopt(entry: LoggedRequest): void {
    if (!Number.isSafeInteger(entry.seq) || entry.seq < this.nextSeq) throw new RangeError(`seq ${entry.seq} is not past the last one given (${this.nextSeq - 1})`);
    if (entry.seq > this.nextSeq) this.skipTo(entry.seq);
    this.nextSeq = entry.seq + 1;
    this.keep(entry, entryBytes(entry));
  }

  /**
   * Seqs below `seq` will never be held here (cleared, or dropped elsewhere as too old): the entries
   * below it go, and `next` is at least `seq`. The entries held stay consecutive.
   */
  skipTo(seq: number): void {
    const before = this.held;
    while (this.count > 0 && this.nextSeq - this.count < seq) this.dropOldest();
    if (seq > this.nextSeq) this.nextSeq = seq;
    if (this.held !== before) this.onResize?.(this.held - before);
  }

  private keep(logged: LoggedRequest | RequestRecord, size: number): void {
    if (!this.enabled) return;
    const before = this.held;
    if (this.count === this.capacity) this.dropOldest();
    const at = (this.start + this.count) % this.capacity;
    this.ring[at] = logged;
    this.sizes[at] = size;
    this.count++;
    this.held += size;
    while (this.held > REQUEST_LOG_BYTES && this.count > 1) this.dropOldest();
    // Last: the listener may shed this very log.
    this.onResize?.(this.held - before);
  }

  /** Drops the oldest entries until `bytes` are freed or none is left; the bytes freed (not told to `onResize`). */
  shed(bytes: number): number {
    let freed = 0;
    while (freed < bytes && this.count > 0) freed += this.dropOldest();
    return freed;
  }

  private dropOldest(): number {
    const size = this.sizes[this.start]!;
    this.held -= size;
    this.ring[this.start] = undefined;
    this.start = (this.start + 1) % this.capacity;
    this.count--;
    return size;
  }

  /** Oldest first. */
  all(): LoggedRequest[] {
    const out: LoggedRequest[] = new Array(this.count);
    const oldest = this.nextSeq - this.count;
    for (let i = 0; i < this.count; i++) out[i] = shown(this.ring[(this.start + i) % this.capacity]!, oldest + i);
    return out;
  }

  get(seq: number): LoggedRequest | undefined {
    const oldest = this.nextSeq - this.count;
    if (!Number.isInteger(seq) || seq < oldest || seq >= this.nextSeq) return undefined;
    return shown(this.ring[(this.start + (seq - oldest)) % this.capacity]!, seq);
  }

  /** Empties the log; seqs go on from where they were, so a reader's cursor stays valid. */
  clear(): void {
    const freed = this.held;
    this.ring = [];
    this.sizes = [];
    this.start = 0;
    this.count = 0;
    this.held = 0;
    if (freed > 0) this.onResize?.(-freed);
  }
}

/** An entry as its readers see it: a record is formatted (seq last, as `add` leaves an entry), an entry given whole is itself. */
function shown(kept: LoggedRequest | RequestRecord, seq: number): LoggedRequest {
  if (!(kept instanceof RequestRecord)) return kept;
  const entry = loggedEntry(kept) as LoggedRequest;
  entry.seq = seq;
  return entry;
}
