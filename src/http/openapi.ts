/** Small builders for route definitions, so each route reads as request -> responses. */
import type { z } from "@hono/zod-openapi";
import { ErrorSchema } from "./schemas.js";

export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

/** A required JSON body: required, so a missing or non-JSON body is validated (not skipped). */
export const body = <T extends z.ZodType>(schema: T) => ({
  body: { required: true, content: { "application/json": { schema } } },
});

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "Malformed JSON (INVALID_JSON)",
  401: "MISSING_CREDENTIALS or INVALID_CREDENTIALS",
  403: "IP_NOT_WHITELISTED, SERVICE_NOT_ENABLED or PAYOUT_DISABLED",
  404: "NOT_FOUND",
  409: "DUPLICATE_REFERENCE or INVALID_STATE",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  422: "VALIDATION_ERROR or a business rule refusal (see error_code)",
  429: "RATE_LIMITED, IP_RATE_LIMITED or QUOTA_EXCEEDED (with retry_after), or MERCHANT_LIMIT_REACHED",
  500: "INTERNAL_ERROR (a sandbox bug), with request_id",
  503: "STORE_UNAVAILABLE: with --data, the change could not be saved and was not applied",
};

/**
 * Error responses every route can give, plus the route's own: any request can be refused for its
 * body (400, 413, 415, even where none is expected), a parameter (422), auth (401, 403), limits
 * (429), meet a bug (500), or (with --data) a disk that cannot save (503).
 */
export function errors(...statuses: number[]) {
  const all = [...new Set([400, 401, 403, 413, 415, 422, 429, 500, 503, ...statuses])].sort();
  return Object.fromEntries(all.map((s) => [s, json(ErrorSchema, ERROR_DESCRIPTIONS[s] ?? "Error")])) as Record<
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
  { name: "Checkout", description: "Payment links for one exact amount, valid 30 minutes" },
  { name: "Payouts", description: "Transfers from the wallet to Nigerian bank accounts" },
  { name: "VTU", description: "Airtime, data, cable TV, electricity and exam pins, paid from the wallet" },
  { name: "Virtual cards", description: "Cardholders and virtual USD cards funded from the wallet" },
  { name: "Sandbox", description: "The sandbox's control API (/sandbox/v1): merchants, the clock, levers, outcome rules, webhooks logs, snapshots, scenarios" },
  { name: "Webhooks", description: "Events the sandbox POSTs to the merchant's webhook_url" },
];

/** Security requirement shared by every /api/v1 and merchant-scoped /sandbox/v1 route. */
export const security = [{ ApiKey: [], ApiSecret: [] }];
