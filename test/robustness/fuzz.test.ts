/**
 * Robustness, property-based: every operation of the OpenAPI document under /api/v1 and
 * /sandbox/v1 is fed random and malformed requests (fast-check, fixed seed) and must
 *   1. never answer 5xx;
 *   2. answer JSON: the error envelope `{ success: false, message (non-empty), error_code }` on 4xx,
 *      `success: true` on 2xx (and nothing else: no 1xx/3xx);
 *   3. change no state when it answers an error: a fingerprint of every merchant of the registry
 *      (config, clock and the whole state except the rate-limit windows, which legitimately record
 *      refused payout attempts) is the same before and after; for the two sign-up style operations
 *      (POST /sandbox/v1/merchants, POST /sandbox/v1/scenarios) the number of merchants too;
 *   4. match the OpenAPI document (checked by the harness on every call);
 *   5. and the other way round: a JSON body the sandbox accepts (2xx) is one the operation's request
 *      schema in the document allows (a client or mock built from the document must not refuse it).
 * A 2xx on a mutating operation may change state; the merchant and its fixtures are then rebuilt so
 * that every run starts from the same state and a counterexample replays on its own.
 *
 * The operation list comes from the document itself; nothing is skipped. Inputs: random JSON with
 * wrong types, huge numbers, negative amounts, NaN-like strings, unicode and emoji, 10,000-character
 * strings, prototype keys; bodies that are valid but for one mutated field (fields taken from the
 * operation's request schema in the document); invalid JSON text; exotic number literals; deep
 * nesting; bodies over 1 MB; wrong and odd content types and lengths; duplicate and malformed query
 * parameters; path parameters with odd (percent-encoded, malformed, traversal) characters or real ids
 * of the wrong kind; wrong, missing and other merchants' credentials; odd extra headers.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { accountHolderName } from "../../src/domain/names.js";
import { client } from "../client.js";
import { harness, makeNuban, START, type Harness, type Merchant, type Reply } from "../helpers.js";
import { documentAjv, openApiDocument } from "../openapi-check.js";

const SEED = 424242;
const NUM_RUNS = 40;
fc.configureGlobal({ seed: SEED, numRuns: NUM_RUNS });

// ---- The operations, from the document ------------------------------------------------------------

type Schema = Record<string, any>;
interface Param {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  schema: Schema;
}
interface Operation {
  method: string;
  template: string;
  key: string;
  params: Param[];
  bodySchema: Schema | undefined;
  /** No security requirement: sign-up style operations called without credentials. */
  anonymous: boolean;
  /** Succeeding creates merchants: state checks on error are about the registry. */
  createsMerchants: boolean;
}

const DOC = openApiDocument() as unknown as { paths: Record<string, Record<string, Schema>>; components: { schemas: Record<string, Schema> } };

function resolve(schema: Schema | undefined): Schema {
  if (!schema) return {};
  if (typeof schema.$ref === "string") return resolve(DOC.components.schemas[schema.$ref.split("/").pop()!]);
  if (Array.isArray(schema.allOf)) {
    const parts = schema.allOf.map(resolve);
    return {
      type: "object",
      properties: Object.assign({}, ...parts.map((p: Schema) => p.properties ?? {})),
      required: parts.flatMap((p: Schema) => p.required ?? []),
    };
  }
  return schema;
}

const OPERATIONS: Operation[] = Object.entries(DOC.paths)
  .filter(([template]) => template.startsWith("/api/v1/") || template.startsWith("/sandbox/v1/"))
  .flatMap(([template, ops]) =>
    Object.entries(ops).map(([method, op]) => {
      const key = `${method.toUpperCase()} ${template}`;
      return {
        method: method.toUpperCase(),
        template,
        key,
        params: (op.parameters ?? []) as Param[],
        bodySchema: op.requestBody?.content?.["application/json"]?.schema ? resolve(op.requestBody.content["application/json"].schema) : undefined,
        anonymous: op.security === undefined || (Array.isArray(op.security) && op.security.length === 0),
        createsMerchants: key === "POST /sandbox/v1/merchants" || key === "POST /sandbox/v1/scenarios",
      };
    }),
  );

// ---- Fixtures: a merchant with one of everything ------------------------------------------------

interface Fixtures {
  m: Merchant;
  accountNumber: string;
  vaReference: string;
  narration: string;
  vaTransactionId: string;
  checkoutRef: string;
  checkoutOrderNo: string;
  payoutRef: string;
  payoutPendingRef: string;
  payoutSlashRef: string;
  payoutOrderNo: string;
  vtuRef: string;
  vtuDoneRef: string;
  cardholderId: number;
  pendingCardholderId: number;
  cardId: number;
  frozenCardId: number;
  eventId: string;
  ruleId: string;
  snapshot: unknown;
}
type Token = Exclude<keyof Fixtures, "m" | "snapshot">;
const TOKENS: Token[] = [
  "accountNumber", "vaReference", "narration", "vaTransactionId", "checkoutRef", "checkoutOrderNo", "payoutRef", "payoutPendingRef",
  "payoutSlashRef", "payoutOrderNo", "vtuRef", "vtuDoneRef", "cardholderId", "pendingCardholderId", "cardId", "frozenCardId", "eventId", "ruleId",
];

const NUBAN = makeNuban("058", "123456789");
const PAYOUT = { bank_code: "058", account_number: NUBAN, account_name: accountHolderName("058", NUBAN), bank_name: "Guaranty Trust Bank" };
const LIMITS = { requests_per_minute: 0, payout_attempts_per_hour: 0, payout_attempts_per_ip_per_hour: 0 };

async function makeFixtures(h: Harness): Promise<Fixtures> {
  const c = client(
    await h.merchant({
      wallet_balance: 10_000_000,
      kyc: { bvn: "22345678901" },
      limits: { ...LIMITS, payout_review_threshold: 50_000 },
    }),
  );
  const accepted = (res: Reply, what: string, status: string) => {
    expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    expect(res.body.status ?? res.body.data.status, what).toBe(status);
    return res.body;
  };
  const { account_number: accountNumber } = await c.virtualAccount({ reference: "FX-CUST-1" });
  const payment = await c.transferIn(accountNumber, 2_000, { narration: "fx-narration" });
  const checkout = await c.checkout({ amount: 1_500, description: "Order 1" });
  const payout = await c.processingPayout({ ...PAYOUT, amount: 1_000, reference: "FX-PO-1" });
  const pending = accepted(await c.payout({ ...PAYOUT, amount: 60_000, reference: "FX-PO-2" }), "held payout", "pending_approval");
  await c.processingPayout({ ...PAYOUT, amount: 500, reference: "FX/PO:3" });
  await c.rule({ target: "vtu", outcome: "processing", times: 1 });
  const vtu = accepted(await c.airtime({ amount: 100 }), "airtime", "processing");
  const vtuDone = accepted(await c.airtime({ network: "glo", phone: "08051234567", amount: 100 }), "airtime", "success");
  const holder = await c.cardholder({ email: "ada@example.com" });
  const pendingHolder = await c.cardholder({ first_name: "Uche", last_name: "Eze", email: "uche@example.com" }, { approved: false });
  const card = await c.fundedCard(50, { cardholder_id: holder.cardholder_id });
  const frozen = await c.fundedCard(0, { cardholder_id: holder.cardholder_id, brand: "MASTERCARD" });
  accepted(await c.call("POST", `/api/v1/virtual-cards/${frozen.card_id}/freeze`), "freeze", "frozen");
  const rule = await c.rule({ target: "payout", outcome: "completed", match: { account_number: "0000000000" } });
  const [event] = await c.events();
  return {
    m: c.merchant,
    accountNumber,
    vaReference: "FX-CUST-1",
    narration: "fx-narration",
    vaTransactionId: payment.transaction_id,
    checkoutRef: checkout.reference,
    checkoutOrderNo: checkout.order_no,
    payoutRef: payout.reference,
    payoutPendingRef: pending.data.reference,
    payoutSlashRef: "FX/PO:3",
    payoutOrderNo: payout.order_no,
    vtuRef: vtu.reference,
    vtuDoneRef: vtuDone.reference,
    cardholderId: holder.cardholder_id,
    pendingCardholderId: pendingHolder.cardholder_id,
    cardId: card.card_id,
    frozenCardId: frozen.card_id,
    eventId: event!.id,
    ruleId: rule.id,
    snapshot: await c.snapshot(),
  };
}

/** The fixture a path or query parameter of an operation most likely names (the others are tried too). */
function preferredTokens(op: Operation, param: string): Token[] {
  const t = op.template;
  if (param === "account_number") return ["accountNumber"];
  if (param === "event_id") return ["eventId"];
  if (t.includes("/payouts/") || t.startsWith("/api/v1/payout/")) return ["payoutRef", "payoutPendingRef", "payoutSlashRef"];
  if (t.includes("/vtu/")) return ["vtuRef", "vtuDoneRef"];
  if (t.includes("/checkout/")) return ["checkoutRef"];
  if (t.includes("/transaction/status")) return ["narration", "vaTransactionId"];
  if (t.includes("/cardholders/")) return ["cardholderId", "pendingCardholderId"];
  if (t.includes("/virtual-cards/")) return ["cardId", "frozenCardId"];
  if (t.includes("/outcomes/")) return ["ruleId"];
  if (t.includes("/events/")) return ["eventId"];
  return TOKENS;
}

/** A body each operation accepts (or refuses only for a business reason) on fresh fixtures. */
const BASE_BODIES: Record<string, (fx: Fixtures) => unknown> = {
  "POST /api/v1/virtual-account/create": () => ({ email: "fuzz@example.com", reference: "FUZZ-VA-1", bank: "partnerbank", first_name: "Fuzz", last_name: "Test" }),
  "POST /api/v1/checkout/create": () => ({ amount: 2_500, description: "Fuzz order", customer_email: "fuzz@example.com", customer_name: "Fuzz Test" }),
  "POST /api/v1/payout/verify-account": () => ({ bank_code: "058", account_number: NUBAN }),
  "POST /api/v1/payout/transfer": () => ({ ...PAYOUT, amount: 1_000, reference: "FUZZ-PO-1", narration: "fuzz" }),
  "POST /api/v1/vtu/airtime": () => ({ network: "mtn", phone: "08031234567", amount: 100, airtime_type: "VTU" }),
  "POST /api/v1/vtu/data": () => ({ phone: "08031234567", data_plan_id: 101 }),
  "POST /api/v1/vtu/cable": () => ({ cable_plan_id: 201, smart_card_number: "1234567890", phone: "08031234567" }),
  "POST /api/v1/vtu/electricity": () => ({ disco_id: 1, meter_number: "12345678901", meter_type: "Prepaid", amount: 1_000 }),
  "POST /api/v1/vtu/exam": () => ({ exam_type_id: 301, quantity: 1 }),
  "POST /api/v1/virtual-cards/cardholders": () => ({ first_name: "Fuzz", last_name: "Test", email: "fuzz.holder@example.com", phone: "08031234567" }),
  "POST /api/v1/virtual-cards": (fx) => ({ cardholder_id: fx.cardholderId, brand: "VISA", label: "fuzz" }),
  "POST /api/v1/virtual-cards/{id}/fund": () => ({ amount: 10 }),
  "POST /api/v1/virtual-cards/{id}/unload": () => ({ amount: 5 }),
  "POST /sandbox/v1/merchants": () => ({ business_name: "Fuzz Ltd", wallet_balance: 1_000, limits: { ...LIMITS }, capabilities: { payouts: true } }),
  "PATCH /sandbox/v1/merchant": () => ({ business_name: "Fuzz Renamed", limits: { ...LIMITS }, capabilities: { vtu: true } }),
  "POST /sandbox/v1/wallet/fund": () => ({ amount: 100, description: "top-up" }),
  "POST /sandbox/v1/virtual-accounts/{account_number}/transfers": () => ({ amount: 100, narration: "fuzz-narration", payer_name: "ADA OBI", payer_bank: "GTB" }),
  "POST /sandbox/v1/payouts/{reference}/approve": () => ({ reason: "fuzz" }),
  "POST /sandbox/v1/payouts/{reference}/reject": () => ({ reason: "fuzz" }),
  "POST /sandbox/v1/payouts/{reference}/complete": () => ({ reason: "fuzz" }),
  "POST /sandbox/v1/payouts/{reference}/fail": () => ({ reason: "fuzz" }),
  "POST /sandbox/v1/checkout/{reference}/pay": () => ({ amount: 1_500 }),
  "POST /sandbox/v1/virtual-cards/{id}/spend": () => ({ amount: 1, merchant_name: "Shop" }),
  "POST /sandbox/v1/outcomes": () => ({ target: "payout", outcome: "failed", times: 1, match: { amount: 1_000 } }),
  "POST /sandbox/v1/clock/advance": () => ({ seconds: 1 }),
  "POST /sandbox/v1/reset": () => ({ wallet_balance: 1_000 }),
  "PUT /sandbox/v1/snapshot": (fx) => structuredClone(fx.snapshot),
  "POST /sandbox/v1/scenarios": () => ({ name: "fuzz", merchants: { a: { wallet_balance: 10 } }, payment_links: [{ as: "link", amount: 500 }] }),
  // Integration checks
  "PUT /sandbox/v1/checks/credits": () => ({ transaction_ids: ["TXN_FUZZ_1", "TXN_FUZZ_1"] }),
  // The fixtures' merchant has no webhook_url, so the doctor refuses (409) before it sends anything.
  "POST /sandbox/v1/webhooks/doctor": () => ({ records_url: "https://shop.example.com/credited" }),
};

/** Other valid bodies, for fields the base bodies leave out. */
const MORE_VALID_BODIES: Record<string, Array<(fx: Fixtures) => unknown>> = {
  "POST /api/v1/virtual-account/create": [
    () => ({ customer_type: "business", email: "acme@example.com", reference: "FUZZ-VA-2", bank: "partnerbank", business_name: "Acme Ltd", cac_number: "RC1234567" }),
    () => ({ customer_type: "individual", email: "ada2@example.com", reference: "FUZZ-VA-3", bank: "partnerbank", first_name: "Ada", last_name: "Obi", bvn: "22345678901" }),
  ],
  "POST /sandbox/v1/merchants": [() => ({ wallet_balance: 5 }), () => ({ business_name: "Only A Name" })],
  "POST /sandbox/v1/clock/advance": [() => ({ by: "5m" }), () => ({ to: "2026-03-03T00:00:00.000Z" })],
  "PUT /sandbox/v1/checks/credits": [() => ({ transaction_ids: [] })],
};
const validBodies = (op: Operation) => [BASE_BODIES[op.key]!, ...(MORE_VALID_BODIES[op.key] ?? [])];

function sendValid(h: Harness, fx: Fixtures, op: Operation, body: unknown): Promise<Reply> {
  const url = op.template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(tokenValue(fx, preferredTokens(op, name)[0]!)));
  const headers: Record<string, string> = op.anonymous ? {} : { "x-api-key": fx.m.apiKey, "x-api-secret": fx.m.apiSecret };
  return h.call(op.method, url, { body, headers });
}

// ---- State fingerprint ----------------------------------------------------------------------------

const mapsAsArrays = (_key: string, value: unknown) => (value instanceof Map ? [...value] : value instanceof Set ? [...value] : value);

/** Every merchant's config, clock and state, except the rate-limit windows. */
function fingerprint(h: Harness): string {
  return JSON.stringify(
    h.registry.list().map((t) => {
      const { windows: _windows, ...state } = t.state;
      return { id: t.id, config: t.config, clock: t.clock.settings(), state };
    }),
    mapsAsArrays,
  );
}

// ---- Generators -----------------------------------------------------------------------------------

const LONG = "x".repeat(10_000);
const LONG_EMOJI = "💸".repeat(10_000);
const LONG_DIGITS = "9".repeat(10_000);
const HUGE_BODY = JSON.stringify({ amount: 100, narration: "a".repeat(1_100_000) });
const DEEP_ARRAY = "[".repeat(5_000) + "]".repeat(5_000);
const DEEP_OBJECT = '{"a":'.repeat(3_000) + "1" + "}".repeat(3_000);

const NUMBERS = [
  1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, -(Number.MAX_SAFE_INTEGER + 2), Number.MAX_VALUE, Number.MIN_VALUE, 2 ** 53, 1e21,
  -1, -0.01, -100, -1_000_000, 0, -0, 0.001, 0.005, 1.005, 100.005, 0.1 + 0.2, 1e-7, 123456789.123, 2 ** 31, 2 ** 32 + 1, 1.5, 99.999,
];
const STRINGS = [
  "NaN", "Infinity", "-Infinity", "+Infinity", "1e308", "1e309", "-1e308", "9007199254740993", "-0", "0x1F", "1_000", " 100 ", "100abc", "١٠٠", "１００",
  "100", "-100", "0", "true", "null", "undefined", "[]", "{}", "", " ", "\t", "\n", "\u0000", "\u202e", "\ufeff", "\ud800", "💸🇳🇬", "Ọlá Ọ̀ṣun",
  "𝕏".repeat(50), "<script>alert(1)</script>", "' OR 1=1 --", "../../etc/passwd", "%00", "%2F", "${jndi:ldap://x}", "__proto__", "constructor",
  "http://127.0.0.1:9/hook", "javascript:alert(1)", "a@b", "ADA@EXAMPLE.COM", "2026-02-30T25:61:00Z", "9999-12-31T23:59:59.999Z", "+275760-09-13T00:00:00.001Z",
  "mtn", "MTN", "VISA", "visa", "partnerbank", "Prepaid", "individual", "payout", "completed", "RC123456", "22345678901", "08031234567", NUBAN,
  LONG, LONG_EMOJI, LONG_DIGITS,
];
const KEYS = ["__proto__", "constructor", "prototype", "toString", "", " ", "💸", "amount", "reference", "id", "data", "success", "a.b", "$where", "x".repeat(300)];

const scalar: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.constantFrom(...NUMBERS), weight: 3 },
  { arbitrary: fc.constantFrom(...STRINGS), weight: 4 },
  { arbitrary: fc.string({ unit: "grapheme", maxLength: 30 }), weight: 2 },
  { arbitrary: fc.string({ unit: "binary", maxLength: 20 }), weight: 1 },
  { arbitrary: fc.integer(), weight: 1 },
  { arbitrary: fc.double(), weight: 1 },
  { arbitrary: fc.boolean(), weight: 1 },
  { arbitrary: fc.constant(null), weight: 1 },
);

const jsonValue = (keys: string[]): fc.Arbitrary<unknown> => {
  const key = fc.oneof(fc.constantFrom(...keys, ...KEYS), fc.string({ maxLength: 8 }));
  return fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small", maxDepth: 3 },
      { arbitrary: scalar, weight: 3 },
      { arbitrary: fc.array(tie("value"), { maxLength: 3 }), weight: 1 },
      { arbitrary: fc.dictionary(key, tie("value"), { maxKeys: 4 }), weight: 1 },
    ),
  })).value;
};

/** Values a field's own schema says are at or just past its edges. */
function edgeValues(schema: Schema): unknown[] {
  const s = resolve(schema);
  const out: unknown[] = [];
  const numeric = s.type === "number" || s.type === "integer";
  if (numeric) {
    const step = s.type === "integer" ? 1 : 0.01;
    for (const bound of [s.minimum, s.maximum, s.exclusiveMinimum, s.exclusiveMaximum]) {
      if (typeof bound === "number") out.push(bound, bound - step, bound + step, -bound);
    }
    if (s.type === "integer") out.push(1.5, 0.999999);
    out.push(0.001, 10.005);
  }
  if (s.type === "string" || (Array.isArray(s.type) && s.type.includes("string"))) {
    if (typeof s.maxLength === "number") out.push("a".repeat(s.maxLength), "a".repeat(s.maxLength + 1), "💸".repeat(s.maxLength));
    if (typeof s.minLength === "number" && s.minLength > 0) out.push("a".repeat(s.minLength - 1));
    for (const e of (s.enum ?? []) as string[]) out.push(e.toUpperCase(), e.toLowerCase(), ` ${e}`, `${e}\u0000`);
    if (s.format === "email") out.push("not-an-email", "a@b", "a@example.com\n", `${"a".repeat(250)}@example.com`);
    if (s.format === "uri") out.push("http://", "not a uri", "ftp://x", "javascript:alert(1)");
    if (s.format === "date-time") out.push("2026-03-02", "2026-02-30T00:00:00Z", "0000-01-01T00:00:00Z", "+275760-09-13T00:00:00.001Z");
    if (typeof s.pattern === "string") out.push("0".repeat(11), "0".repeat(9), "+2348031234567", "RC123", "rc1", "BN123456789", "123abc");
    out.push(1, true, ["x"]);
  }
  if (s.type === "boolean") out.push("true", 1, 0, "false", null);
  if (s.type === "object") out.push([], "{}", { unknown: 1 }, null);
  if (s.type === "array") out.push({}, [null], Array.from({ length: 101 }, () => "1.1.1.1"), "1.1.1.1");
  return out.length ? out : [null];
}

/** Field paths of a request schema, one level of nesting, with the field's schema. */
function schemaFields(schema: Schema | undefined, base: unknown): Array<{ path: string[]; schema: Schema }> {
  const out: Array<{ path: string[]; schema: Schema }> = [];
  const props = (resolve(schema).properties ?? {}) as Record<string, Schema>;
  for (const [name, sub] of Object.entries(props)) {
    out.push({ path: [name], schema: sub });
    const inner = (resolve(sub).properties ?? {}) as Record<string, Schema>;
    for (const [child, childSchema] of Object.entries(inner)) out.push({ path: [name, child], schema: childSchema });
  }
  // A free-form schema (scenarios) says nothing of its fields: use the base body's own.
  if (base && typeof base === "object" && !Array.isArray(base)) {
    for (const name of Object.keys(base)) if (!out.some((f) => f.path.length === 1 && f.path[0] === name)) out.push({ path: [name], schema: {} });
  }
  return out;
}

type Mutation =
  | { kind: "set"; path: string[]; value: unknown }
  | { kind: "delete"; path: string[] }
  | { kind: "extra"; key: string; value: unknown }
  | { kind: "literal"; path: string[]; literal: string }
  | { kind: "whole"; as: "array" | "null" | "string" | "number" | "empty" | "nested" }
  | { kind: "double"; a: { path: string[]; value: unknown }; b: { path: string[]; value: unknown } };

type BodyPlan =
  | { kind: "none" }
  | { kind: "mutated"; mutation: Mutation; contentType: string }
  | { kind: "random"; value: unknown; contentType: string }
  | { kind: "raw"; text: string; contentType: string }
  | { kind: "broken"; how: "truncate" | "trailing-comma" | "single-quotes" | "comment" | "bom" | "duplicate-keys" | "nan-literal" | "form"; contentType: string }
  | { kind: "wrong-type"; contentType: string };

type PathValue = { token: Token } | { raw: string } | { encoded: unknown };
type QueryValue = { token: Token } | { raw: string } | { encoded: unknown };

interface RequestPlan {
  path: Record<string, PathValue>;
  query: Array<[string, QueryValue]>;
  credentials: "valid" | "none" | "no-secret" | "no-key" | "wrong-secret" | "short-secret" | "long-secret" | "wrong-key" | "swapped" | "demo" | "padded";
  headers: Record<string, string>;
  ip: string;
  body: BodyPlan;
}

const NUMBER_LITERALS = ["9007199254740993", "1e400", "-1e400", "1E2", "-0", "0.0000001", "100.00000000000001", "1" + "0".repeat(400), "1.0", "0e0", "-0.0", "1e-400"];
const CONTENT_TYPES = ["application/json", "application/json; charset=utf-8", "APPLICATION/JSON", "application/vnd.api+json", "application/json;charset=latin1"];
const WRONG_CONTENT_TYPES = [
  "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/xml", "text/json", "application/jsonx",
  "application/json, text/plain", ";;;", "; charset=utf-8", "*/*", "",
  // "(default)": no header, so the request gets undici's text/plain;charset=UTF-8 for a string body;
  // "(absent)": the body as bytes, so the request carries no Content-Type at all.
  "(default)", "(absent)",
];
/**
 * Raw path segments, sent as is. Left out on purpose, here and in the encoded values: segments that
 * take the request off the operation's route, so that it is no longer a request to this operation
 * ("..", ".", "%2e%2e", which URL parsers resolve away; a bare "?", "#" or "/", which cut the path;
 * the empty string, which makes "//"). Such paths are in no operation of the document, and the
 * sandbox answers them by its general rules (401 without credentials, 413 for a huge body, 404
 * otherwise) rather than the 404 the harness expects of an undocumented path.
 */
const ODD_SEGMENTS = [
  "%00", "%2F", "%2f..%2f", "%5C", "%ZZ", "%", "%E0%A4%A", "%ED%A0%80", "%C0%AF", "%FF", "%20", " ", "-1", "0", "1e3", "9007199254740993", "1.5", "0x1",
  "NaN", "Infinity", "+1", "%EF%BC%91", "%F0%9F%92%B8", "a;b", "a%3Fb%3D1", "a%23b", "%3Cscript%3E", "%u0041", "null", "undefined", "__proto__",
  "1%00", "01", "1 ", "💸", "Ọlá", "x".repeat(2_000),
];
const HEADER_NAMES = ["accept", "x-request-id", "x-forwarded-for", "x-real-ip", "idempotency-key", "content-encoding", "accept-encoding", "origin", "cookie", "authorization", "x-api-version", "forwarded"];
const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 40 });

function planArbitrary(op: Operation): fc.Arbitrary<RequestPlan> {
  const pathParams = op.params.filter((p) => p.in === "path");
  const queryParams = op.params.filter((p) => p.in === "query");
  const bodyKeys = Object.keys(resolve(op.bodySchema).properties ?? {});
  const value = jsonValue(bodyKeys);

  const paramValue = (name: string, schema: Schema): fc.Arbitrary<PathValue> =>
    fc.oneof(
      { arbitrary: fc.constantFrom(...preferredTokens(op, name)).map((token) => ({ token })), weight: 5 },
      { arbitrary: fc.constantFrom(...TOKENS).map((token) => ({ token })), weight: 2 },
      { arbitrary: fc.constantFrom(...ODD_SEGMENTS).map((raw) => ({ raw })), weight: 3 },
      {
        arbitrary: fc
          .oneof(scalar, fc.constantFrom(...edgeValues(schema)))
          .filter((v) => (typeof v === "string" ? v : JSON.stringify(v)) !== "")
          .map((encoded) => ({ encoded })),
        weight: 3,
      },
    );

  const path = fc.record(Object.fromEntries(pathParams.map((p) => [p.name, paramValue(p.name, p.schema)]))) as fc.Arbitrary<Record<string, PathValue>>;

  const queryKey = fc.oneof(
    { arbitrary: queryParams.length ? fc.constantFrom(...queryParams.map((p) => p.name)) : fc.constant("reference"), weight: 5 },
    { arbitrary: fc.constantFrom("reference", "page", "per_page", "type", "since", "network", "", "reference[]", "page[0]", "__proto__", "x".repeat(500)), weight: 1 },
  );
  const queryValue = (key: string): fc.Arbitrary<QueryValue> => {
    const schema = queryParams.find((p) => p.name === key)?.schema ?? {};
    return fc.oneof(
      { arbitrary: fc.constantFrom(...preferredTokens(op, key)).map((token) => ({ token })), weight: 3 },
      { arbitrary: fc.constantFrom(...((schema.enum ?? ["x"]) as string[]), ...edgeValues(schema)).map((encoded) => ({ encoded })), weight: 3 },
      { arbitrary: scalar.map((encoded) => ({ encoded })), weight: 3 },
      { arbitrary: fc.constantFrom("%", "%ZZ", "%E0%A4%A", "a&b", "=", "a=b", "+", "%2B", "%00", "1,2", "[1]").map((raw) => ({ raw })), weight: 1 },
    );
  };
  const pair = queryKey.chain((k) => queryValue(k).map((v) => [k, v] as [string, QueryValue]));
  const query = fc
    .tuple(fc.array(pair, { maxLength: 4 }), fc.boolean())
    .chain(([pairs, dup]) =>
      dup && pairs.length ? queryValue(pairs[0]![0]).map((v) => [...pairs, [pairs[0]![0], v] as [string, QueryValue]]) : fc.constant(pairs),
    );

  const credentials = fc.oneof(
    { arbitrary: fc.constant("valid" as const), weight: 12 },
    { arbitrary: fc.constantFrom("none", "no-secret", "no-key", "wrong-secret", "short-secret", "long-secret", "wrong-key", "swapped", "demo", "padded") as fc.Arbitrary<RequestPlan["credentials"]>, weight: 2 },
  );

  const extraHeaders = fc.oneof(
    { arbitrary: fc.constant({}), weight: 3 },
    { arbitrary: fc.dictionary(fc.constantFrom(...HEADER_NAMES), fc.oneof(printable, fc.constant(LONG), fc.constantFrom("gzip", "*", "1.1.1.1, 2.2.2.2", "../", "null")), { maxKeys: 3 }), weight: 2 },
  );
  // A Content-Length that disagrees with the body (Request passes it through as given).
  const contentLength = fc.oneof(
    { arbitrary: fc.constant(null), weight: 6 },
    { arbitrary: fc.constantFrom("0", "5", "-1", "abc", "1048577", "99999999999", "1e3", ""), weight: 1 },
  );
  const headers = fc.tuple(extraHeaders, contentLength).map(([h, length]) => (length === null ? h : { ...h, "content-length": length }));

  const ip = fc.constantFrom("127.0.0.1", "::1", "::ffff:10.0.0.7", "203.0.113.9", "10.1.2.3");

  // The base body's shape, for a free-form request schema (scenarios): fixtures stand in as 1s here.
  const shape = BASE_BODIES[op.key]?.(new Proxy({}, { get: () => 1 }) as Fixtures);
  const fields = schemaFields(op.bodySchema, shape);
  const fieldArb: fc.Arbitrary<{ path: string[]; schema: Schema }> = fields.length ? fc.constantFrom(...fields) : fc.constant({ path: ["amount"], schema: {} });
  const setValue = fieldArb.chain((f) =>
    fc.oneof({ arbitrary: fc.constantFrom(...edgeValues(f.schema)), weight: 3 }, { arbitrary: value, weight: 3 }).map((v) => ({ path: f.path, value: v })),
  );
  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    { arbitrary: setValue.map((s) => ({ kind: "set" as const, ...s })), weight: 8 },
    { arbitrary: fieldArb.map((f) => ({ kind: "delete" as const, path: f.path })), weight: 2 },
    { arbitrary: fc.record({ key: fc.constantFrom(...KEYS, "extra_field"), value }).map((r) => ({ kind: "extra" as const, ...r })), weight: 2 },
    { arbitrary: fc.record({ path: fieldArb.map((f) => f.path), literal: fc.constantFrom(...NUMBER_LITERALS) }).map((r) => ({ kind: "literal" as const, ...r })), weight: 2 },
    { arbitrary: fc.constantFrom("array", "null", "string", "number", "empty", "nested").map((as) => ({ kind: "whole" as const, as: as as "array" })), weight: 1 },
    { arbitrary: fc.record({ a: setValue, b: setValue }).map((r) => ({ kind: "double" as const, ...r })), weight: 1 },
  );
  const contentType = fc.oneof({ arbitrary: fc.constant("application/json"), weight: 8 }, { arbitrary: fc.constantFrom(...CONTENT_TYPES), weight: 1 });

  const body: fc.Arbitrary<BodyPlan> =
    op.method === "GET"
      ? fc.constant({ kind: "none" })
      : fc.oneof(
          { arbitrary: fc.constant({ kind: "none" as const }), weight: 1 },
          { arbitrary: fc.record({ mutation, contentType }).map((r) => ({ kind: "mutated" as const, ...r })), weight: op.bodySchema ? 8 : 1 },
          { arbitrary: fc.record({ value, contentType }).map((r) => ({ kind: "random" as const, ...r })), weight: 2 },
          {
            arbitrary: fc
              .record({
                text: fc.oneof(
                  fc.constantFrom("", " ", "{", "}", "{}}", "[", "nul", "NaN", "Infinity", "undefined", "'x'", "\u0000", "{\"a\":}", "\ufeff{}", HUGE_BODY, DEEP_ARRAY, DEEP_OBJECT),
                  fc.string({ maxLength: 40 }),
                ),
                contentType,
              })
              .map((r) => ({ kind: "raw" as const, ...r })),
            weight: 2,
          },
          {
            arbitrary: fc
              .record({
                how: fc.constantFrom("truncate", "trailing-comma", "single-quotes", "comment", "bom", "duplicate-keys", "nan-literal", "form") as fc.Arbitrary<"truncate">,
                contentType,
              })
              .map((r) => ({ kind: "broken" as const, ...r })),
            weight: 2,
          },
          { arbitrary: fc.constantFrom(...WRONG_CONTENT_TYPES).map((contentType) => ({ kind: "wrong-type" as const, contentType })), weight: 2 },
        );

  return fc.record({ path, query, credentials, headers, ip, body });
}

// ---- Turning a plan into a request ----------------------------------------------------------------

const tokenValue = (fx: Fixtures, token: Token) => String(fx[token]);

function setAt(target: any, path: string[], value: unknown) {
  let node = target;
  for (const key of path.slice(0, -1)) {
    if (node[key] === null || typeof node[key] !== "object" || Array.isArray(node[key])) node[key] = {};
    node = node[key];
  }
  Object.defineProperty(node, path.at(-1)!, { value, enumerable: true, writable: true, configurable: true });
}

function deleteAt(target: any, path: string[]) {
  let node = target;
  for (const key of path.slice(0, -1)) {
    if (node[key] === null || typeof node[key] !== "object") return;
    node = node[key];
  }
  delete node[path.at(-1)!];
}

const LITERAL = "\u0001LITERAL\u0001";

function bodyText(op: Operation, fx: Fixtures, plan: BodyPlan): { text?: string; contentType?: string } {
  const base = () => structuredClone(BASE_BODIES[op.key]?.(fx) ?? {}) as any;
  switch (plan.kind) {
    case "none":
      return {};
    case "random":
      return { text: JSON.stringify(plan.value) ?? "null", contentType: plan.contentType };
    case "raw":
      return { text: plan.text, contentType: plan.contentType };
    case "wrong-type":
      return { text: JSON.stringify(base()), contentType: plan.contentType };
    case "broken": {
      const json = JSON.stringify(base());
      const text = {
        truncate: json.slice(0, Math.max(1, json.length - 2)),
        "trailing-comma": json.replace(/}$/, ",}"),
        "single-quotes": json.replace(/"/g, "'"),
        comment: `/* fuzz */ ${json}`,
        bom: `\ufeff${json}`,
        "duplicate-keys": json.replace(/^\{/, '{"amount": "NaN", "reference": [], ').replace(/, }$/, "}"),
        "nan-literal": json.replace(/:\s*(-?\d+(\.\d+)?)/, ": NaN"),
        form: Object.entries(base()).map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`).join("&"),
      }[plan.how];
      return { text, contentType: plan.contentType };
    }
    case "mutated": {
      const m = plan.mutation;
      let body = base();
      let literal: string | undefined;
      if (m.kind === "set") setAt(body, m.path, structuredClone(m.value));
      else if (m.kind === "delete") deleteAt(body, m.path);
      else if (m.kind === "extra") setAt(body, [m.key], structuredClone(m.value));
      else if (m.kind === "literal") {
        setAt(body, m.path, LITERAL);
        literal = m.literal;
      } else if (m.kind === "double") {
        setAt(body, m.a.path, structuredClone(m.a.value));
        setAt(body, m.b.path, structuredClone(m.b.value));
      } else {
        body = { array: [body], null: null, string: JSON.stringify(body), number: 1e308, empty: {}, nested: { body } }[m.as];
      }
      let text = JSON.stringify(body) ?? "null";
      if (literal !== undefined) text = text.replace(JSON.stringify(LITERAL), literal);
      return { text, contentType: plan.contentType };
    }
  }
}

/** encodeURIComponent, except that a lone surrogate is sent as its (invalid UTF-8) three bytes instead of throwing. */
function encode(text: string): string {
  return text.replace(/[\ud800-\udbff][\udc00-\udfff]|[\ud800-\udfff]|[^\ud800-\udfff]+/g, (part) => {
    if (part.length !== 1 || part.charCodeAt(0) < 0xd800 || part.charCodeAt(0) > 0xdfff) return encodeURIComponent(part);
    const u = part.charCodeAt(0);
    return [0xe0 | (u >> 12), 0x80 | ((u >> 6) & 0x3f), 0x80 | (u & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join("");
  });
}

function encodeValue(fx: Fixtures, v: PathValue | QueryValue): string {
  if ("token" in v) return encode(tokenValue(fx, v.token));
  if ("raw" in v) return v.raw;
  return encode(typeof v.encoded === "string" ? v.encoded : JSON.stringify(v.encoded) ?? "null");
}

interface Built {
  method: string;
  url: string;
  headers: Record<string, string>;
  raw: string | Uint8Array | undefined;
  ip: string;
}

function build(op: Operation, fx: Fixtures, demo: Merchant, plan: RequestPlan): Built {
  let url = op.template.replace(/\{(\w+)\}/g, (_, name: string) => encodeValue(fx, plan.path[name]!));
  if (plan.query.length) url += "?" + plan.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeValue(fx, v)}`).join("&");
  const { apiKey, apiSecret } = fx.m;
  const creds: Record<RequestPlan["credentials"], Record<string, string>> = {
    valid: { "x-api-key": apiKey, "x-api-secret": apiSecret },
    none: {},
    "no-secret": { "x-api-key": apiKey },
    "no-key": { "x-api-secret": apiSecret },
    "wrong-secret": { "x-api-key": apiKey, "x-api-secret": apiSecret.slice(0, -1) + (apiSecret.endsWith("A") ? "B" : "A") },
    "short-secret": { "x-api-key": apiKey, "x-api-secret": "sk_test_x" },
    "long-secret": { "x-api-key": apiKey, "x-api-secret": apiSecret + "x".repeat(5_000) },
    "wrong-key": { "x-api-key": apiKey + "x", "x-api-secret": apiSecret },
    swapped: { "x-api-key": apiSecret, "x-api-secret": apiKey },
    // Another merchant's valid keys: it acts on that merchant, whose state the fingerprint covers too.
    demo: { "x-api-key": demo.apiKey, "x-api-secret": demo.apiSecret },
    padded: { "x-api-key": ` ${apiKey} `, "x-api-secret": `${apiSecret}\t` },
  };
  // Sign-up style operations take no credentials; a plan may still send some (they must be ignored).
  const headers: Record<string, string> = { ...plan.headers, ...(op.anonymous && plan.credentials === "valid" ? {} : creds[plan.credentials]) };
  const { text, contentType } = bodyText(op, fx, plan.body);
  if (contentType !== undefined && contentType !== "(default)" && contentType !== "(absent)") headers["content-type"] = contentType;
  const raw = contentType === "(absent)" && text !== undefined ? new TextEncoder().encode(text) : text;
  return { method: op.method, url, headers, raw, ip: plan.ip };
}

const describeRequest = (b: Built) => {
  const raw = b.raw instanceof Uint8Array ? new TextDecoder().decode(b.raw) : b.raw;
  return `${b.method} ${b.url.length > 300 ? b.url.slice(0, 300) + "…" : b.url}\n  headers: ${JSON.stringify(b.headers, (_k, v) => (typeof v === "string" && v.length > 200 ? v.slice(0, 200) + "…" : v))}\n  body: ${
    raw === undefined ? "(none)" : raw.length > 500 ? JSON.stringify(raw.slice(0, 500)) + `… (${raw.length} chars)` : JSON.stringify(raw)
  }${b.raw instanceof Uint8Array ? " (as bytes, no Content-Type)" : ""}`;
};

/**
 * A fixed corpus of malformed requests, tried on every operation whatever the random draw, one class
 * per test so that a failure names every operation it affects: a JSON body without a Content-Type,
 * with an empty media type, as text/plain; an empty text/plain body with Content-Length: 0; invalid
 * JSON; prototype-named extra keys; a body over 1 MB; each path parameter one character over its
 * documented maxLength; no credentials.
 */
const CORPUS: Array<{ name: string; plans: (op: Operation, plain: Omit<RequestPlan, "body">) => RequestPlan[] }> = [
  { name: "a JSON body with no Content-Type header", plans: (op, plain) => (op.method === "GET" ? [] : [{ ...plain, body: { kind: "wrong-type", contentType: "(absent)" } }]) },
  {
    name: "a JSON body with an empty media type (Content-Type: '' or '; charset=utf-8')",
    plans: (op, plain) =>
      op.method === "GET" ? [] : ["", "; charset=utf-8"].map((contentType) => ({ ...plain, body: { kind: "wrong-type" as const, contentType } })),
  },
  {
    name: "an empty body declared as text/plain with Content-Length: 0",
    plans: (op, plain) => (op.method === "GET" ? [] : [{ ...plain, headers: { "content-length": "0" }, body: { kind: "raw", text: "", contentType: "text/plain" } }]),
  },
  { name: "a body sent as text/plain", plans: (op, plain) => (op.method === "GET" ? [] : [{ ...plain, body: { kind: "wrong-type", contentType: "text/plain" } }]) },
  { name: "invalid JSON text", plans: (op, plain) => (op.method === "GET" ? [] : [{ ...plain, body: { kind: "raw", text: "{", contentType: "application/json" } }]) },
  {
    name: "an extra field named after an Object.prototype member (constructor, toString, __proto__)",
    plans: (op, plain) =>
      op.method === "GET"
        ? []
        : (["constructor", "toString", "__proto__"] as const).map((key) => ({
            ...plain,
            body: { kind: "mutated" as const, mutation: { kind: "extra" as const, key, value: {} }, contentType: "application/json" },
          })),
  },
  { name: "a body over 1 MB", plans: (op, plain) => (op.method === "GET" ? [] : [{ ...plain, body: { kind: "raw", text: HUGE_BODY, contentType: "application/json" } }]) },
  {
    name: "a path parameter one character over its documented maxLength",
    plans: (op, plain) =>
      op.params
        .filter((p) => p.in === "path" && typeof p.schema.maxLength === "number")
        .map((p) => ({ ...plain, path: { ...plain.path, [p.name]: { encoded: "a".repeat(p.schema.maxLength + 1) } }, body: { kind: "none" as const } })),
  },
  { name: "no credentials", plans: (_op, plain) => [{ ...plain, credentials: "none", body: { kind: "none" } }] },
];

function plainPlan(op: Operation): Omit<RequestPlan, "body"> {
  const path = Object.fromEntries(op.params.filter((p) => p.in === "path").map((p) => [p.name, { token: preferredTokens(op, p.name)[0]! } as PathValue]));
  return { path, query: [], credentials: "valid", headers: {}, ip: "127.0.0.1" };
}

// ---- The properties -------------------------------------------------------------------------------

let requestAjv: Ajv2020 | undefined;
/** Why the document's request schema of `op` refuses `body`, or undefined when it allows it. */
function requestSchemaRefuses(op: Operation, body: unknown): string | undefined {
  requestAjv ??= documentAjv();
  const pointer = [op.template, op.method.toLowerCase()].map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");
  const ref = `openapi.json#/paths/${pointer}/requestBody/content/application~1json/schema`;
  const validate = requestAjv.getSchema(ref) ?? requestAjv.compile({ $ref: ref });
  return validate(body) ? undefined : requestAjv.errorsText(validate.errors);
}

function checkReply(op: Operation, built: Built, res: Reply, before: { fp: string; merchants: number }, h: Harness) {
  const where = () => `${describeRequest(built)}\n  -> ${res.status} ${typeof res.body === "string" ? res.body.slice(0, 300) : JSON.stringify(res.body).slice(0, 600)}`;
  // (1) never a 5xx; and nothing but 2xx and 4xx.
  expect(res.status, `5xx: ${where()}`).toBeLessThan(500);
  expect(res.status >= 200 && res.status < 300 || res.status >= 400, `unexpected status: ${where()}`).toBe(true);
  // (2) JSON, in the envelope.
  expect(res.headers.get("content-type") ?? "", `not JSON: ${where()}`).toMatch(/^application\/json/);
  expect(typeof res.body === "object" && res.body !== null && !Array.isArray(res.body), `not a JSON object: ${where()}`).toBe(true);
  if (res.status >= 400) {
    expect(res.body.success, `envelope success: ${where()}`).toBe(false);
    expect(typeof res.body.message === "string" && res.body.message.length > 0, `envelope message: ${where()}`).toBe(true);
    expect(typeof res.body.error_code === "string" && res.body.error_code.length > 0, `envelope error_code: ${where()}`).toBe(true);
    // (3) an error changed nothing.
    if (op.createsMerchants) expect(h.registry.list().length, `a refused request created a merchant: ${where()}`).toBe(before.merchants);
    const after = fingerprint(h);
    if (after !== before.fp) expect(firstDifference(before.fp, after), `state changed on an error: ${where()}`).toBe("");
  } else {
    expect(res.body.success, `2xx without success: true: ${where()}`).toBe(true);
    // (5) what the sandbox accepted, the document allows.
    if (op.bodySchema && typeof built.raw === "string" && /json/i.test(built.headers["content-type"] ?? "")) {
      let sent: unknown;
      try {
        sent = JSON.parse(built.raw);
      } catch {
        return;
      }
      const refusal = requestSchemaRefuses(op, sent);
      expect(refusal, `accepted, but the document's request schema refuses the body: ${where()}`).toBeUndefined();
    }
  }
}

function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `at ${i}: before …${a.slice(Math.max(0, i - 120), i + 120)}…\n after …${b.slice(Math.max(0, i - 120), i + 120)}…`;
}

interface Session {
  h: Harness;
  fx: Fixtures;
  demo: Merchant;
}

async function session(): Promise<Session> {
  const h = harness();
  return { h, fx: await makeFixtures(h), demo: h.demo() };
}

/** One request of a plan, checked against properties 1-4. */
async function runOne(s: Session, op: Operation, plan: RequestPlan): Promise<void> {
  const built = build(op, s.fx, s.demo, plan);
  const before = { fp: fingerprint(s.h), merchants: s.h.registry.list().length };
  const res = await send(s.h, built);
  // A success may change state: the next request starts from fresh fixtures, so runs are independent
  // and a counterexample replays on its own.
  const fresh = res.status < 300 && op.method !== "GET";
  try {
    checkReply(op, built, res, before, s.h);
  } finally {
    if (fresh) {
      s.h.registry.remove(s.fx.m.tenant);
      s.fx = await makeFixtures(s.h);
    }
  }
}

async function send(h: Harness, built: Built): Promise<Reply> {
  // Credentials are in `built.headers` already (or deliberately not): call as the bare harness, which
  // checks the reply against the document. `raw` is typed as a string there but handed to Request as
  // is, so bytes go through too (a request without any Content-Type).
  try {
    return await h.call(built.method, built.url, { raw: built.raw as string | undefined, headers: built.headers, ip: built.ip });
  } catch (err) {
    // (4) the harness found the reply contradicts the document: say which request, in full.
    const detail = (err as { actual?: unknown }).actual;
    throw new Error(`${typeof detail === "string" ? detail : String(err)}\n  request: ${describeRequest(built)}`, { cause: err });
  }
}

describe("robustness: random and malformed input on every operation (fast-check)", () => {
  it("covers every /api/v1 and /sandbox/v1 operation of the document, each with a valid base body where it takes one", () => {
    const documented = Object.entries(DOC.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
    expect(OPERATIONS.map((o) => o.key).sort()).toEqual(documented.filter((k) => / \/(api|sandbox)\/v1\//.test(k)).sort());
    expect(OPERATIONS.length).toBeGreaterThan(50);
    expect(OPERATIONS.filter((o) => o.bodySchema && !BASE_BODIES[o.key]).map((o) => o.key)).toEqual([]);
    expect(Object.keys(BASE_BODIES).filter((k) => !OPERATIONS.some((o) => o.key === k))).toEqual([]);
    expect(OPERATIONS.filter((o) => o.anonymous).map((o) => o.key).sort()).toEqual(["POST /sandbox/v1/merchants", "POST /sandbox/v1/scenarios"]);
  });

  it("the state fingerprint sees every kind of change but the rate-limit windows", async () => {
    const h = harness();
    const fx = await makeFixtures(h);
    const changes: Array<[string, () => unknown]> = [
      ["wallet funding", () => fx.m.call("POST", "/sandbox/v1/wallet/fund", { body: { amount: 1 } })],
      ["card frozen", () => fx.m.call("POST", `/api/v1/virtual-cards/${fx.cardId}/freeze`)],
      ["outcome rule", () => fx.m.call("POST", "/sandbox/v1/outcomes", { body: { target: "kyc", outcome: "approved" } })],
      ["settings", () => fx.m.call("PATCH", "/sandbox/v1/merchant", { body: { business_name: "Changed" } })],
      ["clock", () => fx.m.call("POST", "/sandbox/v1/clock/advance", { body: { seconds: 1 } })],
      ["another merchant", () => h.demo().call("POST", "/sandbox/v1/wallet/fund", { body: { amount: 1 } })],
    ];
    for (const [what, change] of changes) {
      const before = fingerprint(h);
      await change();
      expect(fingerprint(h), what).not.toBe(before);
    }
    const before = fingerprint(h);
    fx.m.tenant.requestTimes.push(START);
    fx.m.tenant.state.windows.payoutAttempts.push(START);
    expect(fingerprint(h)).toBe(before);
  });

  it("the base bodies are valid (so a one-field mutation is 'mostly valid')", async () => {
    for (const op of OPERATIONS.filter((o) => o.bodySchema)) {
      for (const body of validBodies(op)) {
        const h = harness();
        const fx = await makeFixtures(h);
        const res = await sendValid(h, fx, op, body(fx));
        expect(res.body.error_code, `${op.key}: ${JSON.stringify(res.body)}`).not.toBe("VALIDATION_ERROR");
        expect(res.status, `${op.key}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
      }
    }
  });

  it("(5) the document's request schemas allow the valid bodies the sandbox accepts", async () => {
    const refused: string[] = [];
    for (const op of OPERATIONS.filter((o) => o.bodySchema)) {
      for (const body of validBodies(op)) {
        const h = harness();
        const fx = await makeFixtures(h);
        const sent = body(fx);
        const res = await sendValid(h, fx, op, sent);
        const refusal = res.status < 300 ? requestSchemaRefuses(op, sent) : undefined;
        if (refusal) refused.push(`${op.key} ${JSON.stringify(sent).slice(0, 200)} -> ${res.status}, document: ${refusal}`);
      }
    }
    expect(refused).toEqual([]);
  });

  for (const { name, plans } of CORPUS) {
    it(`corpus on every operation: ${name}`, async () => {
      const violations: string[] = [];
      for (const op of OPERATIONS) {
        const s = await session();
        for (const plan of plans(op, plainPlan(op))) {
          try {
            await runOne(s, op, plan);
          } catch (err) {
            const variant = plan.body.kind === "none" ? JSON.stringify(plan.path) : JSON.stringify(plan.body);
            violations.push(`${op.key} ${variant}: ${String((err as Error).message).split("\n")[0]}`);
          }
        }
      }
      expect(violations).toEqual([]);
    }, 60_000);
  }

  for (const op of OPERATIONS) {
    it(`random requests: ${op.key}`, async () => {
      const s = await session();
      await fc.assert(
        fc.asyncProperty(planArbitrary(op), (plan) => runOne(s, op, plan)),
        { seed: SEED, numRuns: NUM_RUNS, interruptAfterTimeLimit: 40_000, markInterruptAsFailure: true },
      );
    }, 60_000);
  }
});
