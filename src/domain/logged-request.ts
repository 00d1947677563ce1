/**
 * One entry of a merchant's request log (request-log.ts) as its readers see it, and what an entry keeps:
 * bodies cut at LOGGED_BODY_BYTES, the key masked, the bytes it is counted as, and the objects its
 * answer names.
 */

/** Bytes of a request or response body kept; the rest is cut (`*_truncated`). */
export const LOGGED_BODY_BYTES = 8 * 1024;
/**
 * Bytes counted for an entry beside its texts: the record itself, its numbers and short fields. With a
 * few per object and event it names, an estimate (entryBytes), not a measure: enough to bound memory.
 */
export const ENTRY_OVERHEAD_BYTES = 512;
const REFERENCE_BYTES = 64;

/** The bytes a log entry is counted as: its texts' characters, ENTRY_OVERHEAD_BYTES, and REFERENCE_BYTES per object and event it names. */
export const estimatedBytes = (characters: number, references = 0): number => characters + ENTRY_OVERHEAD_BYTES + references * REFERENCE_BYTES;

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

/**
 * A body as kept: at most LOGGED_BODY_BYTES characters (UTF-16 units, close enough to bytes for JSON).
 * A cut body is a copy that does not hold on to the whole text: V8 makes a slice a view of its parent,
 * so the cut is joined to a character first (which makes V8 copy it into one flat text), then that
 * character is sliced off (a view of the copy, not of the parent).
 */
export function keepBody(body: string | null): { body: string | null; truncated: boolean } {
  if (body === null || body.length <= LOGGED_BODY_BYTES) return { body, truncated: false };
  return { body: ` ${body.slice(0, LOGGED_BODY_BYTES)}`.slice(1), truncated: true };
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
  return estimatedBytes(texts, e.objects.length + e.events.length);
}

/** Which record each /api/v1 operation touches, and the field of its answer (or path) that names it. */
export const TOUCHES: Readonly<Record<string, ReadonlyArray<readonly [TouchedObject["kind"], string]>>> = {
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

/** Whether `operation`'s answers name objects it touched (only then are its path parameters worth reading). */
export const touches = (operation: string | null): boolean => operation !== null && Object.hasOwn(TOUCHES, operation);

/** What names an object: a string not empty, or a number. */
const isId = (value: unknown) => (typeof value === "string" && value !== "") || typeof value === "number";
/** Items of a list answer read for objects; the rest are not. */
const LIST_READ = 100;
/** Lists longer than this find repeats through a set of keys rather than by looking back. */
const LOOK_BACK = 8;

/**
 * The objects a request touched, read from its answer and its path parameters (`id` is a card's):
 * the identifiers the spec's records carry, at the top level and in `data` (one object or a list of
 * at most 100), never deeper; each once, in the order first found.
 */
export function touchedObjects(operation: string | null, params: Readonly<Record<string, string>>, response: unknown): TouchedObject[] {
  if (operation === null || !Object.hasOwn(TOUCHES, operation)) return [];
  const fields = TOUCHES[operation]!;
  const data = response !== null && typeof response === "object" ? (response as { data?: unknown }).data : undefined;
  const found: TouchedObject[] = [];
  const keys = Array.isArray(data) && data.length > LOOK_BACK ? new Set<string>() : undefined;
  for (const [kind, field] of fields) note(found, keys, kind, paramOf(params, field));
  if (response === null || typeof response !== "object") return found;
  readRecord(found, keys, fields, response);
  if (!Array.isArray(data)) readRecord(found, keys, fields, data);
  else for (let i = 0; i < data.length && i < LIST_READ; i++) readRecord(found, keys, fields, data[i]);
  return found;
}

function readRecord(found: TouchedObject[], keys: Set<string> | undefined, fields: Fields, r: unknown): void {
  if (r === null || typeof r !== "object" || Array.isArray(r)) return;
  for (const [kind, field] of fields) note(found, keys, kind, (r as Record<string, unknown>)[field]);
}

type Fields = ReadonlyArray<readonly [TouchedObject["kind"], string]>;

/** A field of the path parameters, as `{ card_id: params.id, ...params }` would read it (`id` is a card's). */
const paramOf = (params: Readonly<Record<string, string>>, field: string): unknown =>
  field === "card_id" && !Object.hasOwn(params, "card_id") ? params.id : params[field];

function note(found: TouchedObject[], keys: Set<string> | undefined, kind: TouchedObject["kind"], value: unknown): void {
  if (!isId(value)) return;
  const id = String(value);
  if (keys !== undefined) {
    const key = `${kind}:${id}`;
    if (keys.has(key)) return;
    keys.add(key);
  } else {
    for (const o of found) if (o.kind === kind && o.id === id) return;
  }
  found.push({ kind, id });
}

/** touchedOne: the request touched nothing, or (a list, several objects, its path parameters) must make them. */
export const TOUCHED_NONE = -1;
export const TOUCHED_MANY = -2;

/**
 * Whether touchedObjects(operation, params, response) finds exactly one object, found without making
 * anything: its field's index in TOUCHES (times two) and whether it is in `data` (plus one); or
 * TOUCHED_NONE; or TOUCHED_MANY when it finds several, the parameters name one, or the answer is a list.
 */
export function touchedOne(operation: string | null, params: Readonly<Record<string, string>>, response: unknown): number {
  if (operation === null || !Object.hasOwn(TOUCHES, operation)) return TOUCHED_NONE;
  const fields = TOUCHES[operation]!;
  for (const [, field] of fields) if (isId(paramOf(params, field))) return TOUCHED_MANY;
  if (response === null || typeof response !== "object") return TOUCHED_NONE;
  const data = (response as { data?: unknown }).data;
  if (Array.isArray(data)) return TOUCHED_MANY;
  const top = Array.isArray(response) ? undefined : (response as Record<string, unknown>);
  const inner = data !== null && typeof data === "object" ? (data as Record<string, unknown>) : undefined;
  let found = TOUCHED_NONE;
  for (let k = 0; k < fields.length; k++) {
    const field = fields[k]![1];
    const a = top?.[field];
    const b = inner?.[field];
    const inTop = isId(a);
    const inData = isId(b) && !(inTop && String(a) === String(b));
    if (!inTop && !inData) continue;
    if (found !== TOUCHED_NONE || (inTop && inData)) return TOUCHED_MANY;
    found = 2 * k + (inTop ? 0 : 1);
  }
  return found;
}

/** The one object touchedOne found: its id as touchedObjects names it. */
export function touchedId(operation: string, found: number, response: unknown): string {
  const record = found % 2 === 0 ? response : (response as { data: unknown }).data;
  return String((record as Record<string, unknown>)[TOUCHES[operation]![found >> 1]![1]]);
}

/** The objects of a request that touched one, from its field's index and its id. */
export const oneTouched = (operation: string, field: number, id: string): TouchedObject[] => [{ kind: TOUCHES[operation]![field]![0], id }];
