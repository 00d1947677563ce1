/**
 * A logged request as the log keeps it until someone reads it: its raw parts, held by reference (the
 * header strings the socket read, the body texts already in memory, numbers, flags), never the secret.
 * `loggedEntry` formats it into the LoggedRequest every reader sees (names lower-cased, the key masked,
 * bodies cut, the objects made). An entry lives until `--request-log` newer ones push it out, so it
 * survives scavenges: its bytes, not the code that fills it, are what the log costs (bench/FAST-PATH.md).
 */
import {
  estimatedBytes,
  keepBody,
  KEY_SHOWN,
  maskKey,
  oneTouched,
  textBytes,
  TOUCHED_MANY,
  TOUCHED_NONE,
  touchedId,
  touchedObjects,
  touchedOne,
  type LoggedRequest,
  type TouchedObject,
} from "./logged-request.js";

/** Most header names an entry shows; a repeated name joins the one kept. */
export const MAX_HEADERS = 30;
/** Characters of a header value shown; a longer one is cut and ends with "…". */
export const MAX_HEADER_VALUE = 500;
const SECRET_HEADERS = new Set(["x-api-secret", "authorization", "cookie", "proxy-authorization"]);
const SECRET_LENGTHS: boolean[] = [];
for (const name of SECRET_HEADERS) SECRET_LENGTHS[name.length] = true;
/** SECRET_HEADERS.has(name), looked up only for a name of a secret's length (a lookup hashes the name). */
const isSecret = (name: string): boolean => SECRET_LENGTHS[name.length] === true && SECRET_HEADERS.has(name);
/** What a secret header shows instead of its value. */
const NOT_LOGGED = "[not logged]";
const KEY_HEADER = "x-api-key";

// Most requests touch nothing and cause no event: they share these (frozen: no entry can change another's).
const NO_OBJECTS = Object.freeze([]) as unknown as TouchedObject[];
export const NO_EVENTS = Object.freeze([]) as unknown as string[];

const DELIVERIES: ReadonlyArray<LoggedRequest["delivery"]> = ["answered", "connection_reset", "slow_response"];
/** `flags`: the delivery's index in its two low bits, then these, then the field of the one object touched (objects). */
const SAMPLE = 4;
const REQUEST_CUT = 8;
const RESPONSE_CUT = 16;
/** `atFromWall` holds `at` itself: it is not a small whole number of ms from `wallAt`. */
const AT_WHOLE = 32;
const FIELD_SHIFT = 6;
/**
 * Times are kept as small integers (V8 stores those in the record itself; any other number is an
 * object of its own, which each scavenge copies): the wall clock in two parts, the merchant's clock as
 * its distance from it.
 */
const SMALL = 2 ** 30;

/**
 * A whole number below SMALL as V8's small integer: the result of arithmetic on doubles stays a double,
 * and a double stored in a record is boxed, unless made an int32 again.
 */
const small = (n: number): number => ((n | 0) === n && !Object.is(n, -0) ? n | 0 : n);

/** What the capture hands over: the request and its answer as they are in memory, nothing formatted. */
export interface RequestParts {
  requestId: string;
  method: string;
  path: string;
  query: string;
  operation: string | null;
  /** Names and values in turn, as read (any case), secrets included: they are left out here. */
  rawHeaders: readonly string[];
  requestBody: string | null;
  /** The answer's JSON text as sent, and its value; null when there was none (a reset, an answer not JSON). */
  responseBody: string | null;
  answer: unknown;
  /** The first answer the handler made, when an outcome rule spoiled the one sent (`spoiled`). */
  handlerAnswer: unknown;
  spoiled: boolean;
  /** The route's path parameters: read only for an operation that touches something (touches()). */
  params: Readonly<Record<string, string>> | undefined;
  status: number | null;
  latencyMs: number;
  at: number;
  wallAt: number;
  clientIp: string;
  delivery: LoggedRequest["delivery"];
  events: string[];
  sample: boolean;
}

/** Headers as kept: names lower-cased and values in turn (the secret's never), or, in rare cases, as shown. */
type KeptHeaders = readonly string[] | Readonly<Record<string, string>>;

export class RequestRecord {
  // Declared, not defined: the constructor's assignments alone make the fields (one shape, no defining pass).
  declare readonly requestId: string;
  declare readonly method: string;
  declare readonly path: string;
  declare readonly query: string;
  declare readonly operation: string | null;
  /** Usually a list shown by `headersShown`: the previous record's when they are the same (one client sends the same ones). */
  declare readonly headers: KeptHeaders;
  /** Their characters as shown (textBytes), for the next record that shares them. */
  declare readonly headerBytes: number;
  /** As keepBody keeps them: cut copies past LOGGED_BODY_BYTES (`flags` says so), so a large body is not kept whole. */
  declare readonly requestBody: string | null;
  declare readonly responseBody: string | null;
  declare readonly status: number | null;
  declare readonly errorCode: string | null;
  /**
   * The objects touched, or, when it is one (most requests that touch any), its id alone: a string the
   * answer holds already (and the merchant's state), so it costs the record nothing; its kind is its
   * field's (FIELD_SHIFT).
   */
  declare readonly objects: TouchedObject[] | string;
  /** Tenths of a millisecond: an integer, so it costs no number of its own. */
  declare readonly latency: number;
  /** `wallAt` as wallHigh * SMALL + wallLow, or in wallHigh when it is not a whole number (wallLow -1). */
  declare readonly wallHigh: number;
  declare readonly wallLow: number;
  declare readonly atFromWall: number;
  declare readonly clientIp: string;
  declare readonly events: string[];
  declare readonly flags: number;

  constructor(p: RequestParts, previous: RequestRecord | undefined) {
    this.requestId = p.requestId;
    this.method = p.method;
    this.path = previous !== undefined && previous.path === p.path ? previous.path : p.path;
    this.query = p.query;
    this.operation = p.operation;
    const shared = previous !== undefined && Array.isArray(previous.headers) ? (previous.headers as readonly string[]) : undefined;
    const headers = keptHeaders(p.rawHeaders, shared);
    this.headers = headers;
    this.headerBytes = headers === shared ? previous!.headerBytes : headerBytes(headers);
    let flags = DELIVERIES.indexOf(p.delivery) | (p.sample ? SAMPLE : 0);
    const wallAt = p.wallAt;
    const whole = Number.isSafeInteger(wallAt) && wallAt >= 0 && !Object.is(wallAt, -0);
    this.wallHigh = whole ? small(Math.floor(wallAt / SMALL)) : wallAt;
    this.wallLow = whole ? small(wallAt - this.wallHigh * SMALL) : -1;
    const atFromWall = p.at - wallAt;
    if (Number.isInteger(atFromWall) && Math.abs(atFromWall) < SMALL && Object.is(wallAt + atFromWall, p.at)) this.atFromWall = small(atFromWall);
    else {
      this.atFromWall = p.at;
      flags |= AT_WHOLE;
    }
    const request = keepBody(p.requestBody);
    if (request.truncated) flags |= REQUEST_CUT;
    const response = keepBody(p.responseBody);
    if (response.truncated) flags |= RESPONSE_CUT;
    this.requestBody = request.body;
    this.responseBody = response.body;
    this.status = p.status;
    const answer = p.answer;
    const errorCode = answer !== null && typeof answer === "object" ? (answer as { error_code?: unknown }).error_code : undefined;
    this.errorCode = typeof errorCode === "string" ? errorCode : null;
    // A refusal touched nothing; but an answer spoiled on purpose after its change was made (reset, 500,
    // 504: an outcome rule `response`) hides a real change, which the handler's own answer names.
    let objects: TouchedObject[] | string = NO_OBJECTS;
    if (p.spoiled || (p.status !== null && p.status < 300)) {
      const from = p.spoiled ? p.handlerAnswer : answer;
      const params = p.params ?? NO_PARAMS;
      const one = touchedOne(p.operation, params, from);
      if (one === TOUCHED_MANY) {
        const found = touchedObjects(p.operation, params, from);
        if (found.length > 0) objects = found;
      } else if (one !== TOUCHED_NONE) {
        objects = touchedId(p.operation!, one, from);
        flags |= (one >> 1) << FIELD_SHIFT;
      }
    }
    this.objects = objects;
    this.latency = small(Math.round(p.latencyMs * 10));
    this.clientIp = p.clientIp;
    this.events = p.events;
    this.flags = flags;
  }

  get wallAt(): number {
    return this.wallLow < 0 ? this.wallHigh : this.wallHigh * SMALL + this.wallLow;
  }

  get at(): number {
    return (this.flags & AT_WHOLE) !== 0 ? this.atFromWall : this.wallAt + this.atFromWall;
  }

  /** entryBytes of the entry it formats into, counted without formatting it. */
  get bytes(): number {
    const count = typeof this.objects === "string" ? 1 : this.objects.length;
    const texts = this.path.length + this.query.length + (this.requestBody?.length ?? 0) + (this.responseBody?.length ?? 0) + this.headerBytes;
    return estimatedBytes(texts, count + this.events.length);
  }
}

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * The headers to keep: the previous record's list when every name and value is the same (the same
 * client sends the same headers), else a new list, holding the previous one's strings where they are
 * equal. In rare cases (a name repeated, too many names, a value too long) the headers as shown.
 */
function keptHeaders(raw: readonly string[], previous: readonly string[] | undefined): KeptHeaders {
  const n = raw.length - (raw.length % 2);
  if (n > 2 * MAX_HEADERS) return headersAsShown(raw);
  const shared = previous === undefined ? 0 : Math.min(n, previous.length);
  // Undefined while every header so far is the previous record's.
  let kept: string[] | undefined = previous !== undefined && previous.length === n ? undefined : new Array<string>(n);
  let sameNames = kept === undefined;
  for (let i = 0; i < n; i += 2) {
    let name = raw[i]!.toLowerCase();
    let value = raw[i + 1]!;
    if (isSecret(name)) value = NOT_LOGGED;
    else if (value.length > MAX_HEADER_VALUE) return headersAsShown(raw);
    if (i < shared) {
      // Equal strings: the previous record's are kept, the request's own are left to die young.
      const sameName = previous![i] === name;
      const sameValue = previous![i + 1] === value;
      if (kept === undefined) {
        if (sameName && sameValue) continue;
        kept = previous!.slice(0, i);
      }
      if (sameName) name = previous![i]!;
      else sameNames = false;
      if (sameValue) value = previous![i + 1]!;
    }
    kept![i] = name;
    kept![i + 1] = value;
  }
  if (kept === undefined) return previous!;
  // The previous list had no repeated name; a list of other names is checked.
  if (!sameNames && repeatsAName(kept)) return headersAsShown(raw);
  return kept;
}

function repeatsAName(kept: readonly string[]): boolean {
  for (let i = 2; i < kept.length; i += 2) {
    const name = kept[i]!;
    for (let j = 0; j < i; j += 2) if (kept[j] === name) return true;
  }
  return false;
}

/** The characters of kept headers as shown (textBytes of headersShown), without showing them. */
function headerBytes(headers: KeptHeaders): number {
  if (!Array.isArray(headers)) return textBytes(headers as Record<string, string>);
  const list = headers as readonly string[];
  let n = 0;
  for (let i = 0; i < list.length; i += 2) {
    const name = list[i]!;
    const length = list[i + 1]!.length;
    n += name.length + (name === KEY_HEADER ? maskedLength(length) : length);
  }
  return n;
}

const maskedLength = (length: number) => (length <= KEY_SHOWN.first + KEY_SHOWN.last ? length : KEY_SHOWN.first + 1 + KEY_SHOWN.last);

/** One header as shown: the secret's value never, the key masked, a long value cut. */
function shownValue(name: string, value: string): string {
  if (isSecret(name)) return NOT_LOGGED;
  if (name === KEY_HEADER) return maskKey(value);
  return value.length > MAX_HEADER_VALUE ? `${value.slice(0, MAX_HEADER_VALUE)}…` : value;
}

/** Sets a header on a record of them as data, even one named like a property every object has. */
function setHeader(out: Record<string, string>, name: string, value: string): void {
  if (name === "__proto__") Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
  else out[name] = value;
}

/**
 * The headers as shown, from the raw list: names lower-cased, at most MAX_HEADERS of them, a repeated
 * one joined to the one kept with ", ".
 */
export function headersAsShown(raw: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  let count = 0;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (Object.hasOwn(out, name)) setHeader(out, name, shownValue(name, `${out[name]!}, ${raw[i + 1]!}`));
    else if (count++ < MAX_HEADERS) setHeader(out, name, shownValue(name, raw[i + 1]!));
  }
  return out;
}

/** The kept headers as shown. */
function headersShown(headers: KeptHeaders): Record<string, string> {
  if (!Array.isArray(headers)) return headers as Record<string, string>;
  const list = headers as readonly string[];
  const out: Record<string, string> = {};
  for (let i = 0; i < list.length; i += 2) {
    const name = list[i]!;
    setHeader(out, name, name === KEY_HEADER ? maskKey(list[i + 1]!) : list[i + 1]!);
  }
  return out;
}

const objectsOf = (r: RequestRecord): TouchedObject[] =>
  typeof r.objects === "string" ? oneTouched(r.operation!, r.flags >> FIELD_SHIFT, r.objects) : r.objects;

/** The entry a record formats into: what every reader of the log sees. */
export function loggedEntry(r: RequestRecord): Omit<LoggedRequest, "seq"> {
  const flags = r.flags;
  return {
    request_id: r.requestId,
    method: r.method,
    path: r.path,
    query: r.query,
    operation: r.operation,
    request_headers: headersShown(r.headers),
    request_body: r.requestBody,
    request_body_truncated: (flags & REQUEST_CUT) !== 0,
    status: r.status,
    error_code: r.errorCode,
    response_body: r.responseBody,
    response_body_truncated: (flags & RESPONSE_CUT) !== 0,
    latency_ms: r.latency / 10,
    client_ip: r.clientIp,
    at: r.at,
    wall_at: r.wallAt,
    delivery: DELIVERIES[flags & 3]!,
    objects: objectsOf(r),
    events: r.events,
    sample: (flags & SAMPLE) !== 0,
  };
}
