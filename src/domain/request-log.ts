/**
 * A merchant's request log: every /api/v1 request it made and the answer it got, newest kept, oldest
 * dropped (a ring bounded by count and bytes). It is traffic, not merchant state: never saved, kept
 * across reset and snapshot PUT, empty after a restart (README "Sandbox choices"). The request log,
 * the integration checks (checks.ts) and the dashboard's Logs view all read this one record.
 */

/** Bytes of a request or response body kept; the rest is cut (`*_truncated`). */
export const LOGGED_BODY_BYTES = 8 * 1024;
/** Default entries kept per merchant (`--request-log`); 0 turns the log off. */
export const DEFAULT_REQUEST_LOG_SIZE = 500;
/** Most bytes of bodies one merchant's log holds: past it the oldest entries go, whatever their number. */
export const REQUEST_LOG_BYTES = 2 * 1024 * 1024;
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
}

/** The key's first 8 characters and its last 4: enough to tell keys apart, never enough to use one. */
export function maskKey(key: string): string {
  if (key.length <= 12) return "*".repeat(key.length);
  return `${key.slice(0, 8)}…${key.slice(-4)}`;
}

/** A body as kept: at most LOGGED_BODY_BYTES characters (UTF-16 units, close enough to bytes for JSON). */
export function keepBody(body: string | null): { body: string | null; truncated: boolean } {
  if (body === null || body.length <= LOGGED_BODY_BYTES) return { body, truncated: false };
  return { body: body.slice(0, LOGGED_BODY_BYTES), truncated: true };
}

const sizeOf = (e: LoggedRequest) => (e.request_body?.length ?? 0) + (e.response_body?.length ?? 0) + 512;

/**
 * The ring: a fixed array written round and round, so adding is O(1) with no copying, and reading one
 * request by its seq is O(1) too (the seqs it holds are consecutive: it only ever drops the oldest). Past
 * `capacity` entries, or REQUEST_LOG_BYTES of bodies, the oldest go.
 */
export class RequestLog {
  private ring: Array<LoggedRequest | undefined> = [];
  private sizes: number[] = [];
  /** Index of the oldest entry in `ring`. */
  private start = 0;
  private count = 0;
  private bytes = 0;
  private nextSeq = 1;

  constructor(readonly capacity: number = DEFAULT_REQUEST_LOG_SIZE) {}

  get enabled(): boolean {
    return this.capacity > 0;
  }

  get size(): number {
    return this.count;
  }

  /** The seq the next request will get: every seq below it was given out, whether or not it is still held. */
  get next(): number {
    return this.nextSeq;
  }

  /** Assigns the entry's seq and appends it (the entry itself is kept, not a copy). */
  add(entry: Omit<LoggedRequest, "seq">): LoggedRequest {
    const logged = entry as LoggedRequest;
    logged.seq = this.nextSeq++;
    if (!this.enabled) return logged;
    if (this.count === this.capacity) this.dropOldest();
    const size = sizeOf(logged);
    const at = (this.start + this.count) % this.capacity;
    this.ring[at] = logged;
    this.sizes[at] = size;
    this.count++;
    this.bytes += size;
    while (this.bytes > REQUEST_LOG_BYTES && this.count > 1) this.dropOldest();
    return logged;
  }

  private dropOldest(): void {
    this.bytes -= this.sizes[this.start]!;
    this.ring[this.start] = undefined;
    this.start = (this.start + 1) % this.capacity;
    this.count--;
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
    this.ring = [];
    this.sizes = [];
    this.start = 0;
    this.count = 0;
    this.bytes = 0;
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
