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

/** The ring: appends in O(1), drops the oldest past `capacity` entries or REQUEST_LOG_BYTES. */
export class RequestLog {
  private entries: LoggedRequest[] = [];
  private head = 0;
  private bytes = 0;
  private nextSeq = 1;

  constructor(readonly capacity: number = DEFAULT_REQUEST_LOG_SIZE) {}

  get enabled(): boolean {
    return this.capacity > 0;
  }

  get size(): number {
    return this.entries.length - this.head;
  }

  /** Assigns the entry's seq and appends it. */
  add(entry: Omit<LoggedRequest, "seq">): LoggedRequest {
    const logged = { ...entry, seq: this.nextSeq++ } as LoggedRequest;
    if (!this.enabled) return logged;
    this.entries.push(logged);
    this.bytes += sizeOf(logged);
    while (this.size > this.capacity || (this.bytes > REQUEST_LOG_BYTES && this.size > 1)) {
      this.bytes -= sizeOf(this.entries[this.head]!);
      this.entries[this.head++] = undefined as never;
    }
    // Compact now and then, so dropping the oldest stays O(1) amortised.
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
    return logged;
  }

  /** Oldest first. */
  all(): LoggedRequest[] {
    return this.entries.slice(this.head);
  }

  get(seq: number): LoggedRequest | undefined {
    for (let i = this.entries.length - 1; i >= this.head; i--) {
      const e = this.entries[i]!;
      if (e.seq === seq) return e;
      if (e.seq < seq) return undefined;
    }
    return undefined;
  }

  clear(): void {
    this.entries = [];
    this.head = 0;
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
 * at most 100), never deeper.
 */
export function touchedObjects(operation: string | null, params: Record<string, string>, response: unknown): TouchedObject[] {
  const fields = operation ? TOUCHES[operation] : undefined;
  if (!fields) return [];
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
