/**
 * What the OpenAPI document says about the request log (GET and DELETE /sandbox/v1/requests, GET
 * /sandbox/v1/requests/{seq}): descriptions and examples. The examples are the demo merchant's own log:
 * its sample activity runs through the API at start (fixtures/demo-activity.json), so its first twelve
 * requests are these (see control-docs.ts for the contract they keep).
 */
import { errorExample, invalidExample, type Examples } from "../http/openapi.js";
import { AT, DEMO, DEMO_PROCESSING_PAYOUT } from "../http/demo-examples.js";
import { MAX_PER_PAGE } from "../http/paging.js";
import { DEFAULT_REQUEST_LOG_SIZE, ENTRY_OVERHEAD_BYTES, LOGGED_BODY_BYTES, MAX_REQUEST_LOG_SIZE, REQUEST_LOG_BYTES } from "../domain/request-log.js";
import { DEFAULT_LOG_BUDGET_MB, MB } from "../engine/log-budget.js";
import { thousands } from "../domain/money.js";

/** The demo merchant's sample activity as its log holds it: seq, operationId, path, status, objects touched. */
const DEMO_LOG = [
  [1, "createVirtualAccount", "/api/v1/virtual-account/create", 200, [["virtual_account", DEMO.virtualAccount]]],
  [2, "createCheckout", "/api/v1/checkout/create", 200, [["checkout", DEMO.checkout]]],
  [3, "createPayout", "/api/v1/payout/transfer", 201, [["payout", DEMO.heldPayout]]],
  [4, "createPayout", "/api/v1/payout/transfer", 201, [["payout", DEMO.processingPayout]]],
  [5, "buyAirtime", "/api/v1/vtu/airtime", 200, [["vtu", "TXN_N408IIWLSHCFE7TA"]]],
  [6, "createCardholder", "/api/v1/virtual-cards/cardholders", 200, [["cardholder", "1"]]],
  [7, "createVirtualCard", "/api/v1/virtual-cards", 200, [["card", "1"]]],
  [8, "fundVirtualCard", "/api/v1/virtual-cards/1/fund", 200, [["card", "1"], ["card_transaction", "TXN_IEFKR5ZGCF1RYSW5"]]],
  [9, "createVirtualCard", "/api/v1/virtual-cards", 200, [["card", "2"]]],
  [10, "freezeVirtualCard", "/api/v1/virtual-cards/2/freeze", 200, [["card", "2"]]],
  [11, "createVirtualCard", "/api/v1/virtual-cards", 200, [["card", "3"]]],
  [12, "createCardholder", "/api/v1/virtual-cards/cardholders", 200, [["cardholder", "2"]]],
] as const;

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
  };
};

const LOG = { enabled: true, capacity: DEFAULT_REQUEST_LOG_SIZE, size: DEMO_LOG.length, next_seq: DEMO_LOG.length + 1 };

/** A page of the demo log: the given seqs, `total` of them in all. */
const pageOf = (seqs: number[], total = seqs.length, per_page = 20) => ({
  success: true,
  data: seqs.map(summary),
  pagination: { current_page: 1, per_page, total_pages: Math.ceil(total / per_page), total },
  log: LOG,
});

// ---- GET /sandbox/v1/requests --------------------------------------------------------------------

export const LIST_DESCRIPTION = `
The calling merchant's request log: every \`/api/v1\` request it made and the answer it got, **newest first**, to see
exactly what an integration sent and what it was told. Sandbox only: the real service has no such endpoint.

What each request records: \`method\`, \`path\`, \`query\`, \`operation\` (the operationId of the route it reached, or
null), \`status\` (null when the connection was reset on purpose: \`delivery\` is then \`connection_reset\`; a reply held
back is \`slow_response\`), \`error_code\`, \`latency_ms\` (wall clock, to the final answer), \`client_ip\`, \`at\` (the
merchant's clock) and \`wall_at\` (the wall clock), \`objects\` (the records it created, read or changed: \`{ kind, id }\`)
and \`events\` (ids of the webhook events it caused). A list leaves out the headers and bodies: GET
/sandbox/v1/requests/{seq} has them.

What is never logged: the \`X-Api-Secret\` header (and \`Authorization\`, \`Cookie\`), shown as \`[not logged]\`; the key
is masked (its first 8 characters and last 4). A request refused for its credentials proves no merchant, so no
merchant's log holds it. Control routes (\`/sandbox/v1\`) are not logged.

Bounds: the newest ${DEFAULT_REQUEST_LOG_SIZE} requests per merchant (\`--request-log\`, up to ${thousands(MAX_REQUEST_LOG_SIZE)}; 0 turns the
log off) and ${REQUEST_LOG_BYTES / MB} MB (estimated: bodies, headers and ${ENTRY_OVERHEAD_BYTES} bytes a request), each body kept up to
${LOGGED_BODY_BYTES / 1024} KB (\`request_body_truncated\`, \`response_body_truncated\`). The request and delivery logs of all
merchants together hold at most \`--log-budget-mb\` (${DEFAULT_LOG_BUDGET_MB} MB by default): past it the largest logs lose their
oldest entries first, so a busy merchant's log may hold fewer. The log is traffic, not state: it is never in a snapshot or a \`--data\` file, it stays
through POST /sandbox/v1/reset and PUT /sandbox/v1/snapshot, and a restart empties it. \`log\` tells whether it is on
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
- \`page\` (from 1, default 1) and \`per_page\` (1 to ${MAX_PER_PAGE}, default 20), with \`pagination\` as in the other lists.

A bad value gets 422 \`VALIDATION_ERROR\` naming the field.`.trim();

export const LIST_QUERY: Record<string, Examples> = {
  per_page: { newest: { summary: "The three newest requests", value: 3 } },
  path: { payouts: { summary: "Requests to the payout routes", value: "/api/v1/payout" } },
  operation: { byOperation: { summary: "Card issues only", value: "createVirtualCard" } },
  status: {
    created: { summary: "Answers with 201 Created", value: "201" },
    clientErrors: { summary: "Refusals (4xx): the demo has none", value: "4xx" },
  },
  error_code: { byErrorCode: { summary: "Validation errors: the demo has none", value: "VALIDATION_ERROR" } },
  since: { today: { summary: "Requests of 2 March 2026 (the demo's day), from midnight", value: "2026-03-02T00:00:00Z" } },
  until: { today: { summary: "... to the end of the day", value: "2026-03-02T23:59:59Z" } },
  after: { tail: { summary: "The requests after seq 10, oldest first (tailing)", value: 10 } },
};

export const LIST_RESPONSES: Examples = {
  newest: { summary: "The three newest of the demo's twelve requests", value: pageOf([12, 11, 10], 12, 3) },
  payouts: { summary: "The demo's two payouts", value: pageOf([4, 3]) },
  byOperation: { summary: "The three card issues, newest first", value: pageOf([11, 9, 7]) },
  created: { summary: "The two payouts (201)", value: pageOf([4, 3]) },
  clientErrors: { summary: "No refusal: an empty page", value: pageOf([]) },
  byErrorCode: { summary: "No validation error: an empty page", value: pageOf([]) },
  today: { summary: "The whole demo log, newest first", value: pageOf([12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]) },
  tail: { summary: "Requests 11 and 12, oldest first", value: pageOf([11, 12]) },
};

export const LIST_ERRORS = {
  422: {
    badStatus: invalidExample("A status that is neither a class nor a code", {
      status: ["Must be a status class (2xx, 4xx, 5xx) or a status code such as 422."],
    }),
    untilBeforeSince: invalidExample("A time range whose end is before its start", { until: ["Must not be before since."] }),
    badAfter: invalidExample("A cursor that is not a seq", { after: ["Must be a whole number from 0."] }),
  },
};

// ---- GET /sandbox/v1/requests/{seq} --------------------------------------------------------------

export const GET_DESCRIPTION = `
One request of the calling merchant's log, whole: everything a list shows, plus \`request_headers\` (names in lower
case; \`X-Api-Secret\` never, shown as \`[not logged]\`; \`X-Api-Key\` masked), \`request_body\` and \`response_body\`
exactly as sent (text, up to ${LOGGED_BODY_BYTES / 1024} KB each: \`*_truncated\` says when it was cut), and \`links\`:

- \`links.objects\`: each object the request touched with the URL that shows it now (the /api/v1 route; for a payment
  into a virtual account, whose narration is not unique, GET /sandbox/v1/virtual-accounts/payments?transaction_id=),
  or null when it is gone (after POST /sandbox/v1/reset).
- \`links.events\`: each webhook event the request caused, its \`type\` and \`status\` now (null when gone), and
  \`deliveries_url\`, the control route listing its delivery attempts.

A seq that is not in the log (never given, dropped as the oldest, cleared, or from before a restart) gets 404
\`NOT_FOUND\`.`.trim();

const payoutBody = {
  amount: 5000,
  bank_code: "058",
  account_number: "0123450002",
  account_name: "ALIYU BABAJIDE",
  bank_name: "Guaranty Trust Bank",
  reference: DEMO.processingPayout,
  narration: "Refund for order 1001",
};
const payoutAnswer = {
  success: true,
  message: "Transfer is processing",
  data: DEMO_PROCESSING_PAYOUT,
};
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

export const GET_PARAM_EXAMPLES: Examples = {
  payout: { summary: "The demo's processing payout (seq 4)", value: 4 },
  cardFunding: { summary: "The demo's card funding (seq 8): a card and its transaction", value: 8 },
  notFound: { summary: "A seq the log does not hold", value: 999 },
};

export const GET_RESPONSES: Examples = {
  payout: {
    summary: "POST /api/v1/payout/transfer: the body sent, the 201, and the payout's status URL",
    value: whole(4, payoutBody, payoutAnswer, [`/api/v1/payout/status?reference=${DEMO.processingPayout}`]),
  },
  cardFunding: {
    summary: "POST /api/v1/virtual-cards/1/fund: the card and its transactions",
    value: whole(8, { amount: 100 }, fundingAnswer, ["/api/v1/virtual-cards/1", "/api/v1/virtual-cards/1/transactions"]),
  },
};

export const GET_ERRORS = {
  404: {
    notFound: errorExample(
      "A seq the log does not hold",
      "NOT_FOUND",
      `Request 999 is not in the log. It keeps the newest ${DEFAULT_REQUEST_LOG_SIZE} requests (--request-log); DELETE /sandbox/v1/requests and a restart empty it.`,
    ),
  },
  422: { badSeq: invalidExample("A seq that is not a whole number from 1", { seq: ["Must be a whole number from 1."] }) },
};

// ---- DELETE /sandbox/v1/requests -----------------------------------------------------------------

export const CLEAR_DESCRIPTION = `
Empties the calling merchant's request log, for a test that starts a fresh run and wants only its own requests
(and integration checks over them alone). Nothing else changes: objects, events and the clock stay. Seqs go on from
where they were, so a tailing reader's cursor stays good. The message says how many requests were cleared (0 is not
an error).`.trim();

export const CLEAR_RESPONSES: Examples = {
  cleared: { summary: "The demo's twelve requests cleared", value: { success: true, message: `${DEMO_LOG.length} request(s) cleared` } },
};
