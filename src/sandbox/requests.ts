/**
 * The merchant's request log (domain/request-log.ts, filled by http/request-log.ts): a page of it, one
 * request whole, and clearing it. Sandbox only: the real service has no such endpoints.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { listRequests, requestLogView, requestSummaryView, requestView } from "../domain/request-log-views.js";
import { ApiError } from "../http/errors.js";
import { examples, json, security } from "../http/openapi.js";
import { Pagination, pagingFields } from "../http/paging.js";
import { router } from "../http/validation.js";
import { isoTime } from "../domain/fields.js";
import { controlErrors } from "./errors.js";
import * as docs from "./requests-docs.js";

const tags = ["Sandbox"];

const STATUS_MESSAGE = "Must be a status class (2xx, 4xx, 5xx) or a status code such as 422.";
const time = (edge: string) =>
  z.iso
    .datetime({ offset: true, message: "Must be an ISO 8601 time with its zone, e.g. 2026-03-02T09:00:00Z." })
    .transform((t) => Date.parse(t))
    .openapi({ description: `Only requests made at or ${edge} this time (ISO 8601, the merchant's clock).` });
const ex = (field: string) => docs.LIST_QUERY[field] ?? {};
const { page, per_page } = pagingFields("Requests");

const ListQuery = z
  .object({
    per_page: examples(per_page, ex("per_page")),
    page: examples(page, ex("page")),
    status: examples(
      z
        .string()
        .regex(/^[1-5]([0-9]{2}|xx|XX)$/, { message: STATUS_MESSAGE })
        .transform((s): readonly [number, number] => {
          const lower = s.toLowerCase();
          return lower.endsWith("xx") ? [Number(lower[0]) * 100, Number(lower[0]) * 100 + 99] : [Number(s), Number(s)];
        })
        .optional()
        .openapi({ description: "A status class (`2xx`, `4xx`, `5xx`) or one status code (`422`)." }),
      ex("status"),
    ),
    path: examples(
      z
        .string()
        .regex(/^\//, { message: "Must start with /, e.g. /api/v1/payout." })
        .max(500, { message: "Must be at most 500 characters." })
        .optional()
        .openapi({ description: "Only requests whose path starts with this." }),
      ex("path"),
    ),
    error_code: examples(
      z
        .string()
        .regex(/^[A-Z][A-Z0-9_]{0,63}$/, { message: "Must be an error code in capitals, e.g. VALIDATION_ERROR." })
        .optional()
        .openapi({ description: "Only requests answered with this error_code." }),
      ex("error_code"),
    ),
    operation: examples(
      z
        .string()
        .regex(/^[a-z][a-zA-Z0-9]{0,63}$/, { message: "Must be an operationId, e.g. createPayout." })
        .optional()
        .openapi({ description: "Only requests to the operation with this operationId." }),
      ex("operation"),
    ),
    since: examples(time("after").optional(), ex("since")),
    until: examples(time("before").optional(), ex("until")),
    after: examples(
      z.coerce
        .number({ message: "Must be a whole number from 0." })
        .int({ message: "Must be a whole number from 0." })
        .min(0, { message: "Must be a whole number from 0." })
        .max(Number.MAX_SAFE_INTEGER, { message: "Must be a whole number from 0." })
        .optional()
        .openapi({ description: "A seq: only the requests after it, oldest first (for tailing the log)." }),
      ex("after"),
    ),
  })
  .refine((q) => q.since === undefined || q.until === undefined || q.since <= q.until, { message: "Must not be before since.", path: ["until"] });

const TouchedObject = z.object({
  kind: z.enum(["payout", "virtual_account", "va_payment", "checkout", "vtu", "cardholder", "card", "card_transaction"]),
  id: z.string(),
});

const summaryFields = {
  seq: z.number().int().openapi({ description: "Per merchant, increasing: the cursor of `after`" }),
  request_id: z.string().openapi({ description: "The X-Request-Id the answer carried" }),
  method: z.string(),
  path: z.string(),
  query: z.string().openapi({ description: "The query string without its `?` (empty without one)" }),
  operation: z.string().nullable().openapi({ description: "The operationId of the route it reached, or null" }),
  status: z.number().int().nullable().openapi({ description: "null when the connection was reset on purpose" }),
  error_code: z.string().nullable(),
  latency_ms: z.number().openapi({ description: "Wall-clock milliseconds to the final answer (or the reset)" }),
  client_ip: z.string(),
  at: isoTime.openapi({ description: "When it arrived, on the merchant's clock" }),
  wall_at: isoTime.openapi({ description: "When it arrived, on the wall clock" }),
  delivery: z.enum(["answered", "connection_reset", "slow_response"]),
  objects: z.array(TouchedObject).openapi({ description: "The records it created, read or changed" }),
  events: z.array(z.string()).openapi({ description: "Ids of the webhook events it caused" }),
};

const RequestSummary = z.object(summaryFields).openapi("LoggedRequestSummary");

const LoggedRequest = z
  .object({
    ...summaryFields,
    request_headers: z.record(z.string(), z.string()).openapi({ description: "Names in lower case; X-Api-Secret never kept, X-Api-Key masked" }),
    request_body: z.string().nullable(),
    request_body_truncated: z.boolean(),
    response_body: z.string().nullable(),
    response_body_truncated: z.boolean(),
    links: z.object({
      objects: z.array(TouchedObject.extend({ url: z.string().nullable().openapi({ description: "Where it can be read now; null once it is gone" }) })),
      events: z.array(
        z.object({
          id: z.string(),
          type: z.string().nullable(),
          status: z.string().nullable(),
          deliveries_url: z.string(),
        }),
      ),
    }),
  })
  .openapi("LoggedRequest");

const LogState = z
  .object({
    enabled: z.boolean(),
    capacity: z.number().int(),
    size: z.number().int(),
    next_seq: z.number().int(),
  })
  .openapi({ description: "The log itself: on or off (--request-log 0), how many requests it keeps and holds, and the seq the next request gets" });

const list = createRoute({
  method: "get",
  path: "/requests",
  tags,
  security,
  operationId: "listRequests",
  summary: "The merchant's request log, newest first (paged; filter by status, path, error code, operation, time; tail with after)",
  description: docs.LIST_DESCRIPTION,
  request: { query: ListQuery },
  responses: {
    200: json(
      z.object({ success: z.literal(true), data: z.array(RequestSummary), pagination: Pagination, log: LogState }),
      "A page of requests, without their headers and bodies",
      docs.LIST_RESPONSES,
    ),
    ...controlErrors(docs.LIST_ERRORS),
  },
});

const SEQ_MESSAGE = "Must be a whole number from 1.";
const getOne = createRoute({
  method: "get",
  path: "/requests/{seq}",
  tags,
  security,
  operationId: "getRequest",
  summary: "One request of the log, with its headers, bodies and links to what it touched",
  description: docs.GET_DESCRIPTION,
  request: {
    params: z.object({
      seq: examples(
        z.coerce.number({ message: SEQ_MESSAGE }).int({ message: SEQ_MESSAGE }).min(1, { message: SEQ_MESSAGE }).max(Number.MAX_SAFE_INTEGER, { message: SEQ_MESSAGE }),
        docs.GET_PARAM_EXAMPLES,
      ),
    }),
  },
  responses: {
    200: json(z.object({ success: z.literal(true), data: LoggedRequest }), "The request", docs.GET_RESPONSES),
    ...controlErrors(docs.GET_ERRORS),
  },
});

const clear = createRoute({
  method: "delete",
  path: "/requests",
  tags,
  security,
  operationId: "clearRequests",
  summary: "Empty the merchant's request log",
  description: docs.CLEAR_DESCRIPTION,
  responses: { 200: json(z.object({ success: z.literal(true), message: z.string() }), "Cleared", docs.CLEAR_RESPONSES), ...controlErrors() },
});

export function requestLogRoutes() {
  return router()
    .openapi(list, (c) => {
      const { page, per_page, ...filter } = c.req.valid("query");
      const log = c.var.tenant.requestLog;
      const { items, pagination } = listRequests(log, filter, { page, per_page });
      return c.json({ success: true as const, data: items.map(requestSummaryView), pagination, log: requestLogView(log) }, 200);
    })
    .openapi(getOne, (c) => {
      const { seq } = c.req.valid("param");
      const tenant = c.var.tenant;
      const entry = tenant.requestLog.get(seq);
      if (!entry) {
        const log = tenant.requestLog;
        throw new ApiError(
          "NOT_FOUND",
          log.enabled
            ? `Request ${seq} is not in the log. It keeps the newest ${log.capacity} requests (--request-log); DELETE /sandbox/v1/requests and a restart empty it.`
            : `Request ${seq} is not in the log: the request log is off (--request-log 0).`,
        );
      }
      return c.json({ success: true as const, data: requestView(entry, tenant.state) }, 200);
    })
    .openapi(clear, (c) => {
      const log = c.var.tenant.requestLog;
      const count = log.size;
      log.clear();
      return c.json({ success: true as const, message: `${count} request(s) cleared` }, 200);
    });
}
