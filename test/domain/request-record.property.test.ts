/**
 * The request log keeps each request as a RequestRecord (raw parts) and formats it when read. Here, for
 * arbitrary requests and answers, the entry read equals the entry the log used to make when the request
 * was recorded (the eager formatting below, kept as the reference), the record is counted as that entry
 * (entryBytes), a log of records holds what a log of those entries holds, and the secret is never kept.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  entryBytes,
  keepBody,
  LOGGED_BODY_BYTES,
  maskKey,
  oneTouched,
  TOUCHED_NONE,
  TOUCHES,
  touchedId,
  touchedObjects,
  touchedOne,
  type LoggedRequest,
  type TouchedObject,
} from "../../src/domain/logged-request.js";
import { RequestLog } from "../../src/domain/request-log.js";
import { headersAsShown, loggedEntry, MAX_HEADER_VALUE, MAX_HEADERS, RequestRecord, type RequestParts } from "../../src/domain/request-record.js";

// ---- the reference: the entry as it was made when the request was recorded ----------------------------

const SECRET_HEADERS = new Set(["x-api-secret", "authorization", "cookie", "proxy-authorization"]);

function referenceValue(name: string, value: string): string {
  if (SECRET_HEADERS.has(name)) return "[not logged]";
  if (name === "x-api-key") return maskKey(value);
  return value.length > MAX_HEADER_VALUE ? `${value.slice(0, MAX_HEADER_VALUE)}…` : value;
}

function referenceHeaders(raw: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  let count = 0;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const kept = out[name];
    if (kept !== undefined) out[name] = referenceValue(name, `${kept}, ${raw[i + 1]!}`);
    else if (count++ < MAX_HEADERS) out[name] = referenceValue(name, raw[i + 1]!);
  }
  return out;
}

function referenceObjects(operation: string | null, params: Record<string, string>, response: unknown): TouchedObject[] {
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

function referenceEntry(p: RequestParts): Omit<LoggedRequest, "seq"> {
  const answer = p.answer;
  const request = keepBody(p.requestBody);
  const response = keepBody(p.responseBody);
  const errorCode = answer !== null && typeof answer === "object" ? (answer as { error_code?: unknown }).error_code : undefined;
  const touched = !p.spoiled && (p.status === null || p.status >= 300) ? [] : referenceObjects(p.operation, p.params ?? {}, p.spoiled ? p.handlerAnswer : answer);
  return {
    request_id: p.requestId,
    method: p.method,
    path: p.path,
    query: p.query,
    operation: p.operation,
    request_headers: referenceHeaders(p.rawHeaders),
    request_body: request.body,
    request_body_truncated: request.truncated,
    status: p.status,
    error_code: typeof errorCode === "string" ? errorCode : null,
    response_body: response.body,
    response_body_truncated: response.truncated,
    latency_ms: Math.round(p.latencyMs * 10) / 10,
    client_ip: p.clientIp,
    at: p.at,
    wall_at: p.wallAt,
    delivery: p.delivery,
    objects: touched,
    events: p.events,
    sample: p.sample,
  };
}

// ---- arbitrary requests -------------------------------------------------------------------------------

/** A text equal to `s` but not the same string, as the socket's parser gives for every request. */
const copyOf = (s: string) => ` ${s}`.slice(1);

// The reference read names like `constructor` from Object.prototype (a header so named joined "function
// Object()..." to its value); the record treats names as data. Such names are left out of the comparison.
const plainName = (name: string) => !(name.toLowerCase() in Object.prototype);
const headerName = fc.oneof(
  fc.constantFrom("host", "Host", "x-api-key", "X-Api-Key", "x-api-secret", "X-API-SECRET", "authorization", "Cookie", "proxy-authorization", "content-type", "Content-Length", "user-agent", "accept"),
  fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,10}$/).filter(plainName),
);
// No digit in any value or body: the secret's (below) has some, so it can be looked for.
const text = (maxLength: number) => fc.string({ unit: fc.constantFrom("a", "B", " ", ",", "-", "_", "é", "…"), maxLength });
const headerValue = fc.oneof(
  text(20),
  fc.integer({ min: 0, max: 30 }).map((n) => "k".repeat(n)),
  fc.tuple(fc.integer({ min: MAX_HEADER_VALUE - 3, max: MAX_HEADER_VALUE + 3 }), text(3)).map(([n, t]) => "v".repeat(n) + t),
);
const SECRET = "s3cr3t";
const manyNames = fc.integer({ min: MAX_HEADERS - 2, max: MAX_HEADERS + 4 }).map((n) => Array.from({ length: n }, (_, i) => `X-H${"x".repeat(i)}`));
const headerList = fc
  .oneof(
    fc.array(fc.tuple(headerName, headerValue), { maxLength: 12 }),
    fc.array(fc.tuple(headerName, headerValue), { maxLength: MAX_HEADERS + 8 }),
    fc.tuple(manyNames, headerValue).map(([names, value]) => names.map((name) => [name, value] as [string, string])),
  )
  .map((pairs) => pairs.flatMap(([name, value]) => [name, SECRET_HEADERS.has(name.toLowerCase()) ? `${SECRET}-${value}` : value]));

const idValue = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("", "inv-1", "inv-2", "3", "PO_1") },
  { weight: 3, arbitrary: fc.integer({ min: -3, max: 5 }) },
  { weight: 1, arbitrary: fc.constantFrom(3, -0, 1.5, Number.NaN, Number.POSITIVE_INFINITY, null, undefined, true) },
  { weight: 1, arbitrary: fc.constantFrom({}, [1], { toJSON: () => "inv-1" }) },
);
const FIELDS = [...new Set(Object.values(TOUCHES).flatMap((fields) => fields.map(([, field]) => field))), "id", "other"];
const record = fc.record(Object.fromEntries(FIELDS.map((field) => [field, idValue])), { requiredKeys: [] });
const padding = fc.oneof(fc.constant(0), fc.integer({ min: LOGGED_BODY_BYTES - 400, max: LOGGED_BODY_BYTES + 50 }));
const answerValue = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(record, fc.oneof(record, fc.array(record, { maxLength: 120 }), fc.constantFrom(null, "x", 7)), fc.option(fc.constantFrom("VALIDATION_ERROR", "NOT_FOUND", 42)), padding).map(([top, data, errorCode, pad]) => ({ ...top, success: errorCode === null, ...(errorCode === null ? {} : { error_code: errorCode }), data, ...(pad ? { pad: "p".repeat(pad) } : {}) })) },
  { weight: 1, arbitrary: fc.constantFrom(null, [], [{ reference: "x" }], "text", 5) },
);
/** What the capture finds of the answer: the text `c.json` made and its value, another answer's JSON text, or nothing. */
const sent = fc.oneof(
  { weight: 5, arbitrary: answerValue.map((answer) => ({ text: JSON.stringify(answer) as string | null, answer: answer as unknown })) },
  { weight: 1, arbitrary: answerValue.map((answer) => JSON.stringify(answer)).map((t) => ({ text: t as string | null, answer: JSON.parse(t) as unknown })) },
  { weight: 1, arbitrary: fc.constantFrom({ text: "not json" as string | null, answer: null as unknown }, { text: null, answer: null }) },
);
const body = fc.oneof(fc.constant(null), text(30), fc.tuple(padding, text(4)).map(([n, t]) => "b".repeat(n) + t));
const time = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 1_700_000_000, max: 1_900_000_000 }).map((s) => s * 1000 + 7) },
  { weight: 1, arbitrary: fc.maxSafeNat() },
  { weight: 1, arbitrary: fc.double({ noNaN: true }) },
);
const operation = fc.constantFrom(null, "getWalletBalance", ...Object.keys(TOUCHES));
const params = fc.oneof(fc.constant(undefined), fc.constant({}), fc.constant(undefined), fc.dictionary(fc.constantFrom("id", "account_number", "card_id"), fc.constantFrom("3", "0123456789", "")));

/** One request: its headers the previous one's (as the same client sends them), one value changed, or new. */
const request = fc.record({
  headers: fc.oneof(fc.constant("same" as const), fc.tuple(fc.nat(), headerValue), headerList),
  path: fc.constantFrom("/api/v1/payout/transfer", "/api/v1/wallet/balance", "/api/v1/virtual-cards/3"),
  query: fc.constantFrom("", "reference=inv-1"),
  operation,
  requestBody: body,
  sent,
  handlerAnswer: answerValue,
  spoiled: fc.oneof(fc.constant(false), fc.constant(false), fc.constant(true)),
  params,
  status: fc.oneof(fc.constantFrom(200, 201), fc.constantFrom(null, 200, 201, 299, 300, 400, 422, 500, 504)),
  latencyMs: fc.double({ min: 0, max: 1e6, noNaN: true }),
  wallAt: time,
  atFromWall: fc.oneof(fc.integer({ min: -1e6, max: 1e6 }), fc.constant(0)),
  at: fc.oneof(fc.constant(null), fc.constant(null), time),
  delivery: fc.constantFrom("answered", "connection_reset", "slow_response") as fc.Arbitrary<LoggedRequest["delivery"]>,
  events: fc.array(fc.constantFrom("EVT_1", "EVT_2"), { maxLength: 3 }),
  sample: fc.boolean(),
});

type Request = typeof request extends fc.Arbitrary<infer T> ? T : never;

/** The parts the capture hands over, request after request, each raw header list new strings. */
function partsOf(requests: Request[]): RequestParts[] {
  let previous: string[] = [];
  return requests.map((r, i) => {
    let raw: string[];
    if (r.headers === "same") raw = previous.map(copyOf);
    else if (Array.isArray(r.headers) && typeof r.headers[0] === "number") {
      const [at, value] = r.headers as [number, string];
      raw = previous.map(copyOf);
      if (raw.length > 0) raw[2 * (at % (raw.length / 2)) + 1] = value;
    } else raw = r.headers as string[];
    previous = raw;
    return {
      requestId: `req-${i}`,
      method: r.requestBody === null ? "GET" : "POST",
      path: copyOf(r.path),
      query: r.query,
      operation: r.operation,
      rawHeaders: raw,
      requestBody: r.requestBody,
      responseBody: r.sent.text,
      answer: r.sent.answer,
      handlerAnswer: r.handlerAnswer,
      spoiled: r.spoiled,
      params: r.params,
      status: r.status,
      latencyMs: r.latencyMs,
      at: r.at ?? r.wallAt + r.atFromWall,
      wallAt: r.wallAt,
      clientIp: "203.0.113.9",
      delivery: r.delivery,
      events: r.events,
      sample: r.sample,
    };
  });
}

const requests = fc.array(request, { minLength: 1, maxLength: 6 });

describe("a request as recorded, formatted when read", () => {
  it("reads as the entry formatted when recorded, is counted as it, and never holds the secret", () => {
    fc.assert(
      fc.property(requests, (rs) => {
        let previous: RequestRecord | undefined;
        for (const p of partsOf(rs)) {
          const record = new RequestRecord(p, previous);
          const expected = referenceEntry(p);
          const read = loggedEntry(record);
          expect(read).toEqual(expected);
          // Key order too: the headers are shown as the client sent them.
          expect(JSON.stringify(read)).toBe(JSON.stringify(expected));
          expect(record.bytes).toBe(entryBytes(expected));
          expect(JSON.stringify(record)).not.toContain(SECRET);
          previous = record;
        }
      }),
      { numRuns: 3_000 },
    );
  });

  it("a log of records holds, entry for entry and byte for byte, what a log of the formatted entries holds", () => {
    fc.assert(
      fc.property(requests, fc.integer({ min: 1, max: 4 }), (rs, capacity) => {
        const recorded = new RequestLog(capacity);
        const formatted = new RequestLog(capacity);
        for (const p of partsOf(rs)) {
          recorded.record(new RequestRecord(p, recorded.lastRecord));
          formatted.add(referenceEntry(p));
        }
        expect(recorded.all()).toEqual(formatted.all());
        expect([recorded.size, recorded.bytes, recorded.next]).toEqual([formatted.size, formatted.bytes, formatted.next]);
        for (let seq = recorded.next - recorded.size; seq < recorded.next; seq++) expect(recorded.get(seq)).toEqual(formatted.get(seq));
      }),
      { numRuns: 1_000 },
    );
  });

  it("touchedObjects finds what the reference finds; touchedOne finds the one object, or none, without making it", () => {
    fc.assert(
      fc.property(operation, params, answerValue, (op, ps, answer) => {
        const expected = referenceObjects(op, ps ?? {}, answer);
        expect(touchedObjects(op, ps ?? {}, answer)).toEqual(expected);
        const one = touchedOne(op, ps ?? {}, answer);
        if (one === TOUCHED_NONE) expect(expected).toEqual([]);
        else if (one >= 0) expect(oneTouched(op!, one >> 1, touchedId(op!, one, answer))).toEqual(expected);
      }),
      { numRuns: 5_000 },
    );
  });
});

describe("headers as shown", () => {
  it("a name every object has (constructor, __proto__) is shown as any other name", () => {
    expect(headersAsShown(["Constructor", "a", "__proto__", "b", "toString", "c"])).toEqual(JSON.parse('{"constructor":"a","__proto__":"b","tostring":"c"}'));
    const record = new RequestRecord(
      {
        requestId: "r", method: "GET", path: "/p", query: "", operation: null, rawHeaders: ["constructor", "a", "x-api-key", "pk_test_0123456789"],
        requestBody: null, responseBody: null, answer: null, handlerAnswer: null, spoiled: false, params: undefined, status: 200,
        latencyMs: 1, at: 5, wallAt: 5, clientIp: "ip", delivery: "answered", events: [], sample: false,
      },
      undefined,
    );
    expect(loggedEntry(record).request_headers).toEqual({ constructor: "a", "x-api-key": "pk_test_…6789" });
  });
});
