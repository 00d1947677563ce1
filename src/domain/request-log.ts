/**
 * A merchant's request log: every /api/v1 request it made and the answer it got, newest kept, oldest
 * dropped (a ring bounded by count and bytes). It is traffic, not merchant state: never saved, kept
 * across reset and snapshot PUT, empty after a restart (README "Sandbox choices"). The request log,
 * the integration checks (checks.ts) and the dashboard's request log all read this one record.
 */

/** Bytes of a request or response body kept; the rest is cut (`*_truncated`). */
export const LOGGED_BODY_BYTES = 8 * 1024;
/** Default entries kept per merchant (`--request-log`); 0 turns the log off. */
export const DEFAULT_REQUEST_LOG_SIZE = 500;
/** Most bytes (entryBytes) one merchant's log holds: past it the oldest entries go, whatever their number. */
export const REQUEST_LOG_BYTES = 2 * 1024 * 1024;
/**
 * Bytes counted for an entry beside its texts: the record itself, its numbers and short fields. With a
 * few per object and event it names, an estimate (entryBytes), not a measure: enough to bound memory.
 */
export const ENTRY_OVERHEAD_BYTES = 512;
const REFERENCE_BYTES = 64;
/** Most entries a merchant's log can be set to hold. */
export const MAX_REQUEST_LOG_SIZE = 10_000;

/** An object a request created, read or changed, for a view to link to. */
export interface TouchedObject {
  kind: "payout" | "virtual_account" | "va_payment" | "checkout" | "vtu" | "cardholder" | "card" | "card_transaction";
  id: string;
}

export interface LoggedRequest {
  /** Per merchant, increasing: the cursor of `GET /sandbox/v1/requests?after=` and `logs --follow`. */
  seq: number;
  /** The request's X-Request-Id, as the response carried it. */
  request_id: string;
  method: string;
  path: string;
  /** The query string without its `?` ("" without one). */
  query: string;
  /** The operationId of the route it reached, or null (no route, or refused before routing). */
  operation: string | null;
  /** Lower-cased names; X-Api-Secret never, X-Api-Key masked (maskKey). */
  request_headers: Record<string, string>;
  request_body: string | null;
  request_body_truncated: boolean;
  /** null when no answer was sent (the connection was reset on purpose). */
  status: number | null;
  error_code: string | null;
  response_body: string | null;
  response_body_truncated: boolean;
  /** Wall-clock milliseconds from the request's arrival to its answer (or its reset). */
  latency_ms: number;
  client_ip: string;
  /** When it arrived, on the merchant's clock and on the wall clock (ms since the epoch). */
  at: number;
  wall_at: number;
  /** What the answer did besides its status: "answered", or how an outcome rule spoiled it. */
  delivery: "answered" | "connection_reset" | "slow_response";
  objects: TouchedObject[];
  /** Ids of the webhook events it caused. */
  events: string[];
  /** Made by the sandbox itself when it created a demo merchant (its sample activity), not by the merchant's code. */
  sample: boolean;
}

/** How much of an API key the log shows: enough to tell keys apart, never enough to use one. */
export const KEY_SHOWN = { first: 8, last: 4 } as const;

export function maskKey(key: string): string {
  if (key.length <= KEY_SHOWN.first + KEY_SHOWN.last) return "*".repeat(key.length);
  return `${key.slice(0, KEY_SHOWN.first)}…${key.slice(-KEY_SHOWN.last)}`;
}

/** A body as kept: at most LOGGED_BODY_BYTES characters (UTF-16 units, close enough to bytes for JSON). */
export function keepBody(body: string | null): { body: string | null; truncated: boolean } {
  if (body === null || body.length <= LOGGED_BODY_BYTES) return { body, truncated: false };
  return { body: body.slice(0, LOGGED_BODY_BYTES), truncated: true };
}

/** The characters of a record of texts (headers): one byte each, as V8 keeps ASCII text. */
export function textBytes(texts: Readonly<Record<string, string>>): number {
  let n = 0;
  for (const name in texts) n += name.length + texts[name]!.length;
  return n;
}

/**
 * The bytes an entry is counted as, for REQUEST_LOG_BYTES and the sandbox-wide log budget: its bodies,
 * headers, path and query as characters, ENTRY_OVERHEAD_BYTES, and REFERENCE_BYTES per object and event.
 */
export function entryBytes(e: Omit<LoggedRequest, "seq">): number {
  const texts = e.path.length + e.query.length + (e.request_body?.length ?? 0) + (e.response_body?.length ?? 0) + textBytes(e.request_headers);
  return texts + ENTRY_OVERHEAD_BYTES + (e.objects.length + e.events.length) * REFERENCE_BYTES;
}

/**
 * The ring: a fixed array written round and round, so adding is O(1) with no copying, and reading one
 * request by its seq is O(1) too (the seqs it holds are consecutive: it only ever drops the oldest). Past
 * `capacity` entries, or REQUEST_LOG_BYTES, the oldest go; `shed` lets the sandbox-wide budget take more.
 */
export class RequestLog {
  private ring: Array<LoggedRequest | undefined> = [];
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
    this.keep(logged);
    return logged;
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
    this.keep(entry);
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

  private keep(logged: LoggedRequest): void {
    if (!this.enabled) return;
    const before = this.held;
    if (this.count === this.capacity) this.dropOldest();
    const size = entryBytes(logged);
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
    for (let i = 0; i < this.count; i++) out[i] = this.ring[(this.start + i) % this.capacity]!;
    return out;
  }

  get(seq: number): LoggedRequest | undefined {
    const oldest = this.nextSeq - this.count;
    if (!Number.isInteger(seq) || seq < oldest || seq >= this.nextSeq) return undefined;
    return this.ring[(this.start + (seq - oldest)) % this.capacity];
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

/** Which record each /api/v1 operation touches, and the field of its answer (or path) that names it. */
const TOUCHES: Record<string, ReadonlyArray<readonly [TouchedObject["kind"], string]>> = {
  createVirtualAccount: [["virtual_account", "account_number"]],
  getVirtualAccount: [["virtual_account", "account_number"]],
  listVirtualAccounts: [["virtual_account", "account_number"]],
  getTransactionStatus: [["va_payment", "transaction_id"], ["virtual_account", "virtual_account"]],
  createCheckout: [["checkout", "reference"]],
  getCheckoutStatus: [["checkout", "reference"]],
  createPayout: [["payout", "reference"]],
  getPayoutStatus: [["payout", "reference"]],
  buyAirtime: [["vtu", "transaction_id"]],
  buyData: [["vtu", "transaction_id"]],
  payCable: [["vtu", "transaction_id"]],
  buyElectricity: [["vtu", "transaction_id"]],
  buyExamPins: [["vtu", "transaction_id"]],
  getVtuTransactionStatus: [["vtu", "transaction_id"]],
  createCardholder: [["cardholder", "cardholder_id"]],
  getCardholder: [["cardholder", "cardholder_id"]],
  createVirtualCard: [["card", "card_id"]],
  listVirtualCards: [["card", "card_id"]],
  getVirtualCard: [["card", "card_id"]],
  fundVirtualCard: [["card", "card_id"], ["card_transaction", "transaction_id"]],
  unloadVirtualCard: [["card", "card_id"], ["card_transaction", "transaction_id"]],
  freezeVirtualCard: [["card", "card_id"]],
  unfreezeVirtualCard: [["card", "card_id"]],
  terminateVirtualCard: [["card", "card_id"]],
  listVirtualCardTransactions: [["card", "card_id"], ["card_transaction", "transaction_id"]],
};

/**
 * The objects a request touched, read from its answer and its path parameters (`id` is a card's):
 * the identifiers the spec's records carry, at the top level and in `data` (one object or a list of
 * at most 100), never deeper. `params` may be given as a function: it is called only for an operation
 * that touches something (reading a route's parameters costs the capture on every request).
 */
export function touchedObjects(operation: string | null, params: Record<string, string> | (() => Record<string, string>), response: unknown): TouchedObject[] {
  const fields = operation ? TOUCHES[operation] : undefined;
  if (!fields) return [];
  if (typeof params === "function") params = params();
  const found = new Map<string, TouchedObject>();
  const read = (r: unknown) => {
    if (r === null || typeof r !== "object" || Array.isArray(r)) return;
    for (const [kind, field] of fields) {
      const id = (r as Record<string, unknown>)[field];
      if ((typeof id === "string" && id !== "") || typeof id === "number") found.set(`${kind}:${id}`, { kind, id: String(id) });
    }
  };
  read({ card_id: params.id, ...params });
  if (response !== null && typeof response === "object") {
    read(response);
    const data = (response as { data?: unknown }).data;
    for (const item of Array.isArray(data) ? data.slice(0, 100) : [data]) read(item);
  }
  return [...found.values()];
}
