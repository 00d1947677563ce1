/** Small builders for route definitions, so each route reads as request -> responses. */
import type { z } from "@hono/zod-openapi";
import { gatewayTimeoutMessage, INTERNAL_ERROR_MESSAGE, INVALID_CREDENTIALS } from "./errors.js";
import type { ResponseOperation } from "../domain/outcomes.js";
import { ErrorSchema } from "./schemas.js";
import { BODY_LIMIT_BYTES, megabytes } from "./body-limit.js";
import { CHECKOUT_VALIDITY_MS, DEFAULT_LIMITS, MINUTE } from "../domain/limits.js";

/**
 * A documented example. The document's examples are a contract the test suite keeps
 * (test/platform/openapi-examples.test.ts): a request example named N (body, or a parameter's
 * `examples`) sent to a fresh demo merchant gets the response documented under the same name N, with
 * that status (and that error_code). The first request example is the one /docs pre-fills, so it is
 * the success path. Parameters with one `example` use it for every named request.
 */
export interface Example {
  summary: string;
  description?: string;
  value: unknown;
}
export type Examples = Record<string, Example>;

/** A JSON response (or webhook body) with its schema and its examples. */
export const json = <T extends z.ZodType>(schema: T, description: string, examples: Examples) => ({
  description,
  content: { "application/json": { schema, examples } },
});

/** A required JSON body: required, so a missing or non-JSON body is validated (not skipped). */
export const body = <T extends z.ZodType>(schema: T, examples: Examples) => ({
  body: { required: true, content: { "application/json": { schema, examples } } },
});

/** A path or query parameter documented with the one value every example request uses (a demo id). */
export const example = <S extends z.ZodType>(schema: S, value: string | number) => schema.openapi({ param: { example: value } });

/** A path or query parameter whose value differs per named example request (`examples` on the parameter). */
export const examples = <S extends z.ZodType>(schema: S, named: Examples) => schema.openapi({ param: { examples: named } });

type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 500 | 503 | 504;

const ERROR_DESCRIPTIONS: Record<ErrorStatus, string> = {
  400: "Malformed JSON (INVALID_JSON)",
  401: "MISSING_CREDENTIALS or INVALID_CREDENTIALS",
  403: "IP_NOT_WHITELISTED, SERVICE_NOT_ENABLED or PAYOUT_DISABLED",
  404: "NOT_FOUND",
  409: "DUPLICATE_REFERENCE or INVALID_STATE",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  422: "VALIDATION_ERROR (with errors per field) or a business rule refusal (see error_code)",
  429:
    "RATE_LIMITED, IP_RATE_LIMITED or QUOTA_EXCEEDED (with retry_after, in real seconds with a Retry-After header; for a payout attempt cap on a " +
    "manual merchant clock, in sim seconds with no header: advance the clock that far), or MERCHANT_LIMIT_REACHED",
  500: "INTERNAL_ERROR (a sandbox bug, or on a money-moving operation an outcome rule's 5xx after the change was made), with request_id",
  503: "STORE_UNAVAILABLE: with --data, the change could not be kept (the folder's disk refused it, or PostgreSQL was out of reach) and was not applied; on payouts also BANK_UNAVAILABLE (with retry_after)",
  504: "GATEWAY_TIMEOUT, with request_id: the answer timed out upstream. After a money-moving request it may have been processed: query its status before any retry",
};

/** An example of the error envelope, as the sandbox words it. */
export const errorExample = (summary: string, error_code: string, message: string, extra: object = {}): Example => ({
  summary,
  value: { success: false, message, error_code, ...extra },
});

/** An example VALIDATION_ERROR: every field that breaks its rule, with its messages. */
export const invalidExample = (summary: string, errors: Record<string, string[]>): Example =>
  errorExample(summary, "VALIDATION_ERROR", "The given data was invalid.", { errors });

const EXAMPLE_REQUEST_ID = "3f9d2c1e-8a4b-4c6d-9e0f-1a2b3c4d5e6f";

/**
 * The answers of a money-moving operation whose change was made, then went wrong on the way back (an
 * outcome rule `response`, or a payout's magic account): a 500 or a 504. Either may hide a success.
 */
export const AFTER_COMMIT = {
  serverError: (summary: string): Example =>
    errorExample(summary, "INTERNAL_ERROR", INTERNAL_ERROR_MESSAGE, { request_id: EXAMPLE_REQUEST_ID }),
  gatewayTimeout: (summary: string, operation: ResponseOperation): Example =>
    errorExample(summary, "GATEWAY_TIMEOUT", gatewayTimeoutMessage(operation), { request_id: EXAMPLE_REQUEST_ID }),
};

/** The 500 and 504 examples of a money-moving operation that has no request example of its own for them. */
export const afterCommitErrors = (what: string, operation: ResponseOperation) => ({
  500: { serverErrorAfterCommit: AFTER_COMMIT.serverError(`The ${what} was made, then the answer failed (an outcome rule response server_error)`) },
  504: { gatewayTimeoutAfterCommit: AFTER_COMMIT.gatewayTimeout(`The ${what} was made, then the answer timed out (an outcome rule response gateway_timeout)`, operation) },
});

/** What any route can answer, worded as the sandbox words it (src/http/errors.ts, auth.ts, body-limit.ts). */
const GENERIC_ERRORS: Record<Exclude<ErrorStatus, 404 | 409 | 504>, Examples> = {
  400: { invalidJson: errorExample("The body is not valid JSON", "INVALID_JSON", "The request body is not valid JSON.") },
  401: {
    missingCredentials: errorExample("No X-Api-Key or X-Api-Secret header", "MISSING_CREDENTIALS", "Send both X-Api-Key and X-Api-Secret headers."),
    invalidCredentials: errorExample("Unknown key, or a secret that does not match", "INVALID_CREDENTIALS", INVALID_CREDENTIALS),
  },
  403: { ipNotWhitelisted: errorExample("The merchant has an IP allowlist without this address", "IP_NOT_WHITELISTED", "Requests from 203.0.113.7 are not allowed for this account.") },
  413: { payloadTooLarge: errorExample(`A body over ${megabytes(BODY_LIMIT_BYTES)}`, "PAYLOAD_TOO_LARGE", `The request body is larger than ${megabytes(BODY_LIMIT_BYTES)}.`) },
  415: { unsupportedMediaType: errorExample("A body that is not JSON", "UNSUPPORTED_MEDIA_TYPE", "Request bodies must be JSON (Content-Type: application/json), not text/plain.") },
  422: {
    validationError: invalidExample("A field breaks its rule (every field is reported)", { amount: ["Must have at most two decimal places."] }),
  },
  429: {
    rateLimited: errorExample("Over the merchant's requests per minute (counted on the wall clock)", "RATE_LIMITED", `Too many requests: at most ${DEFAULT_LIMITS.requests_per_minute} per minute for this account. Retry in 12 s.`, { retry_after: 12 }),
  },
  500: {
    internalError: errorExample("A sandbox bug: quote the request_id", "INTERNAL_ERROR", INTERNAL_ERROR_MESSAGE, { request_id: EXAMPLE_REQUEST_ID }),
  },
  503: {
    storeUnavailable: errorExample("With --data, the disk refused the write", "STORE_UNAVAILABLE", "The change could not be saved (disk full); nothing was applied. Retry once the disk is writable again."),
  },
};

/**
 * Error responses every route can give, plus the route's own: any request can be refused for its
 * body (400, 413, 415, even where none is expected), a parameter (422), auth (401, 403), limits
 * (429), meet a bug (500), or (with --data) a disk that cannot save (503). A route's own examples
 * for a 4xx status replace the generic ones; its own 500 and 503 examples come beside them (a bug or
 * a failing disk can still happen there); 404, 409 and 504 exist only where the route documents them.
 */
export function errors(own: Partial<Record<ErrorStatus, Examples>> = {}) {
  const merged: Partial<Record<ErrorStatus, Examples>> = {
    ...GENERIC_ERRORS,
    ...own,
    500: { ...GENERIC_ERRORS[500], ...own[500] },
    503: { ...GENERIC_ERRORS[503], ...own[503] },
  };
  const statuses = (Object.keys(merged).map(Number) as ErrorStatus[]).sort((a, b) => a - b);
  return Object.fromEntries(statuses.map((s) => [s, json(ErrorSchema, ERROR_DESCRIPTIONS[s], merged[s]!)])) as Record<
    number,
    ReturnType<typeof json<typeof ErrorSchema>>
  >;
}

/**
 * An optional request field with a default. The default is applied on the way in and stated in the
 * description, not as a JSON Schema `default`: generators (openapi-typescript's default options among
 * them) make a property with a `default` required, and the spec makes these fields optional.
 */
export function withDefault<S extends z.ZodType, D extends z.output<S>>(schema: S, value: D, description = "") {
  return schema
    .optional()
    .transform((v) => (v === undefined ? value : v) as z.output<S>)
    .openapi({ description: `${description}${description ? " " : ""}Default: ${String(value)}.` });
}

/** The document's tags, in the order a reader meets them. */
export const TAGS = [
  { name: "Wallet", description: "The merchant wallet every operation moves money against" },
  { name: "Virtual accounts", description: "Dedicated NUBAN accounts per customer; transfers into them credit the wallet" },
  { name: "Checkout", description: `Payment links for one exact amount, valid ${CHECKOUT_VALIDITY_MS / MINUTE} minutes` },
  { name: "Payouts", description: "Transfers from the wallet to Nigerian bank accounts" },
  { name: "VTU", description: "Airtime, data, cable TV, electricity and exam pins, paid from the wallet" },
  { name: "Virtual cards", description: "Cardholders and virtual USD cards funded from the wallet" },
  { name: "Sandbox", description: "The sandbox's control API (/sandbox/v1): merchants, the clock, levers, outcome rules, webhooks logs, snapshots, scenarios" },
  { name: "Webhooks", description: "Events the sandbox POSTs to the merchant's webhook_url" },
];

/** Security requirement shared by every /api/v1 and merchant-scoped /sandbox/v1 route. */
export const security = [{ ApiKey: [], ApiSecret: [] }];
