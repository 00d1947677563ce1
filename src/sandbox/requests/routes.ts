/**
 * The request log's contract (domain/request-log.ts, filled by http/request-log.ts): a page of it, one
 * request whole, and clearing it. Sandbox only: the real service has no such endpoints. The examples are
 * the demo merchant's own log: its sample activity runs through the API at start
 * (fixtures/demo-activity.json), so its first requests are these (DEMO_LOG), each labelled `sample`.
 */
import { pageInfo } from "../../domain/lists.js";
import { z } from "@hono/zod-openapi";
import { isoTime } from "../../domain/fields.js";
import { thousands } from "../../domain/money.js";
import { DEFAULT_REQUEST_LOG_SIZE, ENTRY_OVERHEAD_BYTES, KEY_SHOWN, LOGGED_BODY_BYTES, MAX_REQUEST_LOG_SIZE, REQUEST_LOG_BYTES } from "../../domain/request-log.js";
import { DEFAULT_LOG_BUDGET_MB, MB } from "../../engine/log-budget.js";
import { AT, DEMO, DEMO_LOG, DEMO_PROCESSING_PAYOUT, demoSeqs } from "../../http/demo-examples.js";
import { errorExample, examples, invalidExample, json } from "../../http/openapi.js";
import { MAX_PER_PAGE, Pagination, pagingFields } from "../../http/paging.js";
import { routes, Success } from "../../http/route.js";
import { controlErrors } from "../errors.js";

const route = routes({ tags: ["Sandbox"] });

const { page, per_page } = pagingFields("Requests");
const PER_PAGE = per_page.parse(undefined);
const MAX_PATH = 500;
const BODY_KB = LOGGED_BODY_BYTES / 1024;

const STATUS_MESSAGE = "Must be a status class (2xx, 4xx, 5xx) or a status code such as 422.";
const AFTER_MESSAGE = "Must be a whole number from 0.";
const UNTIL_MESSAGE = "Must not be before since.";
const SEQ_MESSAGE = "Must be a whole number from 1.";

/** The 404 of a seq the log does not hold, for a log in this state. */
export const notInLog = (seq: number, log: { enabled: boolean; capacity: number }) =>
  log.enabled
    ? `Request ${seq} is not in the log. It keeps the newest ${log.capacity} requests (--request-log); DELETE /sandbox/v1/requests and a restart empty it.`
    : `Request ${seq} is not in the log: the request log is off (--request-log 0).`;
export const cleared = (count: number) => `${count} request(s) cleared`;

const time = (edge: string) =>
  z.iso
    .datetime({ offset: true, message: "Must be an ISO 8601 time with its zone, e.g. 2026-03-02T09:00:00Z." })
    .transform((t) => Date.parse(t))
    .openapi({ description: `Only requests made at or ${edge} this time (ISO 8601, the merchant's clock).` });

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
  sample: z.boolean().openapi({
    description: "Made by the sandbox itself when it created the demo merchant (its sample activity), not by your code. No request can set it.",
  }),
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

// ---- The demo merchant's log ---------------------------------------------------------------------

/** One request of the demo log as a list shows it (no headers, no bodies). */
const summary = (seq: number) => {
  const [, operation, path, status, objects] = DEMO_LOG[seq - 1]!;
  return {
    seq,
    request_id: `5b0e8f3c-2d4a-4e6b-9c1d-${String(seq).padStart(12, "0")}`,
    method: "POST",
    path,
    query: "",
    operation,
    status,
    error_code: null,
    latency_ms: 1.2,
    client_ip: "127.0.0.1",
    at: AT,
    wall_at: AT,
    delivery: "answered",
    objects: objects.map(([kind, id]) => ({ kind, id })),
    events: [],
    sample: true,
  };
};

const TOTAL = DEMO_LOG.length;
/** Every seq of the demo log, newest first. */
const ALL = DEMO_LOG.map((r) => r[0]).reverse();
const newestFirst = (seqs: number[]) => [...seqs].sort((a, b) => b - a);
/** The cursor of the tailing example: the last four requests come after it. */
const TAIL_AFTER = TOTAL - 4;

const LOG = { enabled: true, capacity: DEFAULT_REQUEST_LOG_SIZE, size: DEMO_LOG.length, next_seq: DEMO_LOG.length + 1 };

/** A page of the demo log: the given seqs, `total` of them in all. */
const pageOf = (seqs: number[], total = seqs.length, perPage = PER_PAGE) => ({
  success: true,
  data: seqs.map(summary),
  pagination: pageInfo(total, 1, perPage),
  log: LOG,
});

/** One request of the demo log whole, with its bodies and the URLs of what it touched. */
const whole = (seq: number, requestBody: unknown, answer: unknown, urls: string[]) => {
  const { objects, events, ...rest } = summary(seq);
  return {
    success: true,
    data: {
      ...rest,
      request_headers: { "content-type": "application/json", "x-api-key": "pk_test_…46d1", "x-api-secret": "[not logged]" },
      request_body: JSON.stringify(requestBody),
      request_body_truncated: false,
      response_body: JSON.stringify(answer),
      response_body_truncated: false,
      objects,
      events,
      links: { objects: objects.map((o, i) => ({ ...o, url: urls[i] ?? null })), events: [] },
    },
  };
};

// ---- GET /sandbox/v1/requests --------------------------------------------------------------------

export const list = route({
  method: "get",
  path: "/requests",
  operationId: "listRequests",
  summary: "The merchant's request log, newest first (paged; filter by status, path, error code, operation, time; tail with after)",
  description: `
The calling merchant's request log: every \`/api/v1\` request it made and the answer it got, **newest first**, to see
exactly what an integration sent and what it was told. Sandbox only: the real service has no such endpoint.

What each request records: \`method\`, \`path\`, \`query\`, \`operation\` (the operationId of the route it reached, or
null), \`status\` (null when the connection was reset on purpose: \`delivery\` is then \`connection_reset\`; a reply held
back is \`slow_response\`), \`error_code\`, \`latency_ms\` (wall clock, to the final answer), \`client_ip\`, \`at\` (the
merchant's clock) and \`wall_at\` (the wall clock), \`objects\` (the records it created, read or changed: \`{ kind, id }\`)
and \`events\` (ids of the webhook events it caused). \`sample\` is true for the requests the sandbox made itself
when it created the demo merchant (its sample activity), and for no request of yours, whatever it sends. A list
leaves out the headers and bodies: GET /sandbox/v1/requests/{seq} has them.

What is never logged: the \`X-Api-Secret\` header (and \`Authorization\`, \`Cookie\`), shown as \`[not logged]\`; the key
is masked (its first ${KEY_SHOWN.first} characters and last ${KEY_SHOWN.last}). A request refused for its credentials proves no merchant, so no
merchant's log holds it. Control routes (\`/sandbox/v1\`) are not logged.

Bounds: the newest ${DEFAULT_REQUEST_LOG_SIZE} requests per merchant (\`--request-log\`, up to ${thousands(MAX_REQUEST_LOG_SIZE)}; 0 turns the
log off) and ${REQUEST_LOG_BYTES / MB} MB (estimated: bodies, headers and ${ENTRY_OVERHEAD_BYTES} bytes a request), each body kept up to
${BODY_KB} KB (\`request_body_truncated\`, \`response_body_truncated\`). The request and delivery logs of all
merchants together hold at most \`--log-budget-mb\` (${DEFAULT_LOG_BUDGET_MB} MB by default): past it the largest logs lose their
oldest entries first, so a busy merchant's log may hold fewer. The log is traffic, not state: it is never in a snapshot or a \`--data\` file, it stays
through POST /sandbox/v1/reset and PUT /sandbox/v1/snapshot, and a restart empties it. With \`--data postgres://…\` it is kept
in the database for every node instead: any node lists the requests every node served, in one seq order, and it stays
through a node's restart. \`log\` tells whether it is on
(\`enabled\`), its \`capacity\`, how many requests it holds (\`size\`) and the seq the next request will get
(\`next_seq\`).

Every filter is optional, and every filter given must hold:

- \`status\`: a class (\`2xx\`, \`4xx\`, \`5xx\`...) or one code (\`422\`). A reset connection has no status and matches none.
- \`path\`: a prefix of the path (\`/api/v1/payout\`), starting with \`/\`.
- \`error_code\`: exactly this \`error_code\` (\`VALIDATION_ERROR\`).
- \`operation\`: exactly this operationId (\`createPayout\`).
- \`since\`, \`until\`: ISO 8601 times with their zone, on the merchant's clock, both ends included. An \`until\` before
  \`since\` gets 422 on \`until\`.
- \`after\`: a seq. Only the requests after it, **oldest first**: the cursor of a reader that tails the log (the CLI's
  \`merchant-sandbox logs --follow\`). Seqs only ever grow, through DELETE /sandbox/v1/requests too, so a cursor stays
  good; after a restart \`next_seq\` is below it.
- \`page\` (from 1, default ${page.parse(undefined)}) and \`per_page\` (1 to ${MAX_PER_PAGE}, default ${PER_PAGE}), with \`pagination\` as in the other lists.

A bad value gets 422 \`VALIDATION_ERROR\` naming the field.`.trim(),
  request: {
    query: z
      .object({
        per_page: examples(per_page, { newest: { summary: "The three newest requests", value: 3 } }),
        page: examples(page, {}),
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
          {
            created: { summary: "Answers with 201 Created", value: "201" },
            clientErrors: { summary: "Refusals (4xx): the demo has none", value: "4xx" },
          },
        ),
        path: examples(
          z
            .string()
            .regex(/^\//, { message: "Must start with /, e.g. /api/v1/payout." })
            .max(MAX_PATH, { message: `Must be at most ${MAX_PATH} characters.` })
            .optional()
            .openapi({ description: "Only requests whose path starts with this." }),
          { payouts: { summary: "Requests to the payout routes", value: "/api/v1/payout" } },
        ),
        error_code: examples(
          z
            .string()
            .regex(/^[A-Z][A-Z0-9_]{0,63}$/, { message: "Must be an error code in capitals, e.g. VALIDATION_ERROR." })
            .optional()
            .openapi({ description: "Only requests answered with this error_code." }),
          { byErrorCode: { summary: "Validation errors: the demo has none", value: "VALIDATION_ERROR" } },
        ),
        operation: examples(
          z
            .string()
            .regex(/^[a-z][a-zA-Z0-9]{0,63}$/, { message: "Must be an operationId, e.g. createPayout." })
            .optional()
            .openapi({ description: "Only requests to the operation with this operationId." }),
          { byOperation: { summary: "Card issues only", value: "createVirtualCard" } },
        ),
        since: examples(time("after").optional(), { today: { summary: "Requests of 2 March 2026 (the demo's day), from midnight", value: "2026-03-02T00:00:00Z" } }),
        until: examples(time("before").optional(), { today: { summary: "... to the end of the day", value: "2026-03-02T23:59:59Z" } }),
        after: examples(
          z.coerce
            .number({ message: AFTER_MESSAGE })
            .int({ message: AFTER_MESSAGE })
            .min(0, { message: AFTER_MESSAGE })
            .max(Number.MAX_SAFE_INTEGER, { message: AFTER_MESSAGE })
            .optional()
            .openapi({ description: "A seq: only the requests after it, oldest first (for tailing the log)." }),
          { tail: { summary: `The requests after seq ${TAIL_AFTER}, oldest first (tailing)`, value: TAIL_AFTER } },
        ),
      })
      .refine((q) => q.since === undefined || q.until === undefined || q.since <= q.until, { message: UNTIL_MESSAGE, path: ["until"] }),
  },
  responses: {
    200: json(Success({ data: z.array(RequestSummary), pagination: Pagination, log: LogState }), "A page of requests, without their headers and bodies", {
      newest: { summary: `The three newest of the demo's ${TOTAL} requests`, value: pageOf(ALL.slice(0, 3), TOTAL, 3) },
      payouts: { summary: "The demo's two payouts, each after its name enquiry", value: pageOf(newestFirst([...demoSeqs("verifyAccount"), ...demoSeqs("createPayout")])) },
      byOperation: { summary: "The three card issues, newest first", value: pageOf(newestFirst(demoSeqs("createVirtualCard"))) },
      created: { summary: "The two payouts (201)", value: pageOf(newestFirst(demoSeqs("createPayout"))) },
      clientErrors: { summary: "No refusal: an empty page", value: pageOf([]) },
      byErrorCode: { summary: "No validation error: an empty page", value: pageOf([]) },
      today: { summary: "The whole demo log, newest first", value: pageOf(ALL) },
      tail: { summary: `Requests ${TAIL_AFTER + 1} to ${TOTAL}, oldest first`, value: pageOf(ALL.filter((seq) => seq > TAIL_AFTER).reverse()) },
    }),
    ...controlErrors({
      422: {
        badStatus: invalidExample("A status that is neither a class nor a code", { status: [STATUS_MESSAGE] }),
        untilBeforeSince: invalidExample("A time range whose end is before its start", { until: [UNTIL_MESSAGE] }),
        badAfter: invalidExample("A cursor that is not a seq", { after: [AFTER_MESSAGE] }),
      },
    }),
  },
});

// ---- GET /sandbox/v1/requests/{seq} --------------------------------------------------------------

const PROCESSING_SEQ = demoSeqs("createPayout")[1]!;
const FUNDING_SEQ = demoSeqs("fundVirtualCard")[0]!;
const { amount, account_name, bank_name, reference, narration } = DEMO_PROCESSING_PAYOUT;
const payoutBody = { amount, bank_code: "058", account_number: "0123450002", account_name, bank_name, reference, narration };
const fundingAnswer = {
  success: true,
  message: "Card funded successfully",
  card_id: 1,
  transaction_id: "TXN_IEFKR5ZGCF1RYSW5",
  amount: 100,
  fee: 1,
  currency: "USD",
  balance: 100,
  exchange_rate: 1600,
  wallet_amount: 161600,
};

export const getOne = route({
  method: "get",
  path: "/requests/{seq}",
  operationId: "getRequest",
  summary: "One request of the log, with its headers, bodies and links to what it touched",
  description: `
One request of the calling merchant's log, whole: everything a list shows, plus \`request_headers\` (names in lower
case; \`X-Api-Secret\` never, shown as \`[not logged]\`; \`X-Api-Key\` masked), \`request_body\` and \`response_body\`
exactly as sent (text, up to ${BODY_KB} KB each: \`*_truncated\` says when it was cut), and \`links\`:

- \`links.objects\`: each object the request touched with the URL that shows it now (the /api/v1 route; for a payment
  into a virtual account, whose narration is not unique, GET /sandbox/v1/virtual-accounts/payments?transaction_id=),
  or null when it is gone (after POST /sandbox/v1/reset).
- \`links.events\`: each webhook event the request caused, its \`type\` and \`status\` now (null when gone), and
  \`deliveries_url\`, the control route listing its delivery attempts.

A seq that is not in the log (never given, dropped as the oldest, cleared, or from before a restart) gets 404
\`NOT_FOUND\`.`.trim(),
  request: {
    params: z.object({
      seq: examples(
        z.coerce.number({ message: SEQ_MESSAGE }).int({ message: SEQ_MESSAGE }).min(1, { message: SEQ_MESSAGE }).max(Number.MAX_SAFE_INTEGER, { message: SEQ_MESSAGE }),
        {
          payout: { summary: `The demo's processing payout (seq ${PROCESSING_SEQ})`, value: PROCESSING_SEQ },
          cardFunding: { summary: `The demo's card funding (seq ${FUNDING_SEQ}): a card and its transaction`, value: FUNDING_SEQ },
          notFound: { summary: "A seq the log does not hold", value: 999 },
        },
      ),
    }),
  },
  responses: {
    200: json(Success({ data: LoggedRequest }), "The request", {
      payout: {
        summary: "POST /api/v1/payout/transfer: the body sent, the 201, and the payout's status URL",
        value: whole(PROCESSING_SEQ, payoutBody, { success: true, message: "Transfer is processing", data: DEMO_PROCESSING_PAYOUT }, [
          `/api/v1/payout/status?reference=${DEMO.processingPayout}`,
        ]),
      },
      cardFunding: {
        summary: "POST /api/v1/virtual-cards/1/fund: the card and its transactions",
        value: whole(FUNDING_SEQ, { amount: 100 }, fundingAnswer, ["/api/v1/virtual-cards/1", "/api/v1/virtual-cards/1/transactions"]),
      },
    }),
    ...controlErrors({
      404: { notFound: errorExample("A seq the log does not hold", "NOT_FOUND", notInLog(999, LOG)) },
      422: { badSeq: invalidExample("A seq that is not a whole number from 1", { seq: [SEQ_MESSAGE] }) },
    }),
  },
});

// ---- DELETE /sandbox/v1/requests -----------------------------------------------------------------

export const clear = route({
  method: "delete",
  path: "/requests",
  operationId: "clearRequests",
  summary: "Empty the merchant's request log",
  description: `
Empties the calling merchant's request log, for a test that starts a fresh run and wants only its own requests
(and integration checks over them alone). Nothing else changes: objects, events and the clock stay. Seqs go on from
where they were, so a tailing reader's cursor stays good. The message says how many requests were cleared (0 is not
an error).`.trim(),
  responses: {
    200: json(Success({ message: z.string() }), "Cleared", {
      cleared: { summary: `The demo's ${TOTAL} requests cleared`, value: { success: true, message: cleared(TOTAL) } },
    }),
    ...controlErrors(),
  },
});
