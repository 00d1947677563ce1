/**
 * docs/reference/bounds.md: what any input, log or client may reach, and what happens past it, each
 * number read from the constant that enforces it; and which clock each rate limit counts on. Every
 * export of src/domain/bounds.ts is shown by a row that names it in `covers` (a test checks that).
 */
import { z } from "zod";
import * as BOUNDS from "../../../src/domain/bounds.js";
import { MAX_REPORTED_CREDITS, CreditReportInput } from "../../../src/domain/checks.js";
import { CLOCK_END, MAX_ADVANCE_YEARS } from "../../../src/domain/clock-advance.js";
import { HOUR } from "../../../src/domain/limits.js";
import { SLOW_RESPONSE_SECONDS } from "../../../src/domain/outcomes.js";
import { MAX_MATCH_FIELDS } from "../../../src/domain/records.js";
import { DEFAULT_REQUEST_LOG_SIZE, ENTRY_OVERHEAD_BYTES, LOGGED_BODY_BYTES, MAX_REQUEST_LOG_SIZE, REQUEST_LOG_BYTES } from "../../../src/domain/request-log.js";
import { DOCTOR_RUNS_PER_MINUTE } from "../../../src/doctor/desk.js";
import { MAX_RECORDS_BYTES, RECORDS_QUERY } from "../../../src/doctor/records.js";
import { PARALLEL_ATTEMPTS } from "../../../src/engine/clock-driver.js";
import { CUT_TO, DEFAULT_LOG_BUDGET_MB, MAX_LOG_BUDGET_MB, MB } from "../../../src/engine/log-budget.js";
import { BODY_LIMIT_BYTES, megabytes, SNAPSHOT_LIMIT_BYTES } from "../../../src/http/body-limit.js";
import {
  CONNECTIONS_PER_ADDRESS,
  HEADERS_TIMEOUT_MS,
  KEEP_ALIVE_TIMEOUT_MS,
  LINGER_MAX_BYTES,
  LINGER_MS,
  REQUEST_TIMEOUT_MS,
  SHARED_CONNECTIONS_PER_ADDRESS,
} from "../../../src/http/connection-limits.js";
import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from "../../../src/http/paging.js";
import { MAX_QUOTA_ADDRESSES } from "../../../src/http/quotas.js";
import { TEST_EVENTS_PER_MINUTE } from "../../../src/sandbox/webhooks/test-quota.js";
import { MAX_SCENARIO_MERCHANTS, MAX_SCENARIO_OBJECTS } from "../../../src/scenarios/schema.js";
import { DEFAULT_MAX_CONCURRENT, EXCERPT_CHARS, MAX_BODY_BYTES } from "../../../src/webhooks/transport.js";
import type { Node } from "../json-schema.js";
import { answer, spokenSeconds, table, thousands, type ReferencePage } from "../markdown.js";
import { stopDeadlineSeconds } from "./cli.js";
import { scenarioJsonSchema } from "./scenario-format.js";

type BoundName = keyof typeof BOUNDS;

/** One row: the bound, its value, what happens past it, and the bounds.ts constants it shows. */
interface BoundRow {
  bound: string;
  limit: string;
  past: string;
  covers?: readonly BoundName[];
}

/** bounds.ts constants no row shows, and why. */
export const UNSHOWN_BOUNDS: Partial<Record<BoundName, string>> = {
  MAX_AMOUNT_MINOR: "MAX_AMOUNT in minor units",
  MAX_TIME: "the latest time a timer may be due: the clock's end plus the longest delay, internal",
};

const days = (seconds: number) => `${thousands(seconds / 86_400)} days`;
const kib = (bytes: number) => `${thousands(bytes / 1024)} KiB`;
const yearOf = (ms: number) => new Date(ms).getUTCFullYear();

/** A scenario request step's longest client time-out, read from the scenario schema. */
function stepTimeoutMax(): number {
  const steps = scenarioJsonSchema().properties.steps!.items!.anyOf!;
  return steps.find((s) => s.properties?.request)!.properties!.request!.properties!.timeout_seconds!.maximum!;
}

/** A credit report's id length, read from its schema. */
function creditIdLength(): { min: number; max: number } {
  const ids = (z.toJSONSchema(CreditReportInput) as Node).properties!.transaction_ids!.items!;
  return { min: ids.minLength!, max: ids.maxLength! };
}

export function boundRows(): BoundRow[] {
  const B = BOUNDS;
  const validation = answer("VALIDATION_ERROR");
  const quota = `${answer("QUOTA_EXCEEDED")}, with \`retry_after\` and \`Retry-After\``;
  const ids = creditIdLength();
  return [
    { bound: "Request body (`/api/v1`, `/sandbox/v1`)", limit: megabytes(BODY_LIMIT_BYTES), past: answer("PAYLOAD_TOO_LARGE") },
    { bound: "`PUT /sandbox/v1/snapshot` body", limit: `${megabytes(SNAPSHOT_LIMIT_BYTES)} (\`--snapshot-limit-mb\`)`, past: answer("PAYLOAD_TOO_LARGE") },
    {
      bound: "A request's headers",
      limit: `${spokenSeconds(HEADERS_TIMEOUT_MS / 1000)} from the connection (on a kept-alive connection, from the request's first byte)`,
      past: `${answer("REQUEST_TIMEOUT")} in the envelope, then the connection is closed`,
    },
    {
      bound: "A whole request, headers and body",
      limit: `${spokenSeconds(REQUEST_TIMEOUT_MS / 1000)} (a ${megabytes(SNAPSHOT_LIMIT_BYTES)} snapshot needs ${thousands(Math.ceil(SNAPSHOT_LIMIT_BYTES / 1024 / (REQUEST_TIMEOUT_MS / 1000)))} KiB/s)`,
      past: `${answer("REQUEST_TIMEOUT")}, then closed; nothing the request asked is done`,
    },
    { bound: "An idle keep-alive connection", limit: `${spokenSeconds(KEEP_ALIVE_TIMEOUT_MS / 1000)} (\`Keep-Alive: timeout=${KEEP_ALIVE_TIMEOUT_MS / 1000}\`; Node closes it a second later)`, past: "closed" },
    {
      bound: "Open connections per client IP (the socket's address)",
      limit: `${thousands(CONNECTIONS_PER_ADDRESS)}; ${thousands(SHARED_CONNECTIONS_PER_ADDRESS)} with \`--shared\`; no cap with \`--trust-proxy\` (\`--connections-per-ip\`, \`0\` = no cap)`,
      past: "a new connection is closed at once, unanswered; the connections already open are still served",
    },
    {
      bound: "A connection the sandbox closes after answering (`Connection: close`, e.g. a 413 to a chunked body still arriving)",
      limit: `lingers at most ${spokenSeconds(LINGER_MS / 1000)} and ${megabytes(LINGER_MAX_BYTES)}, reading and dropping what the client still sends`,
      past: "then closed, so the answer is never lost to a reset",
    },
    { bound: "JSON nesting of a body or a scenario", limit: `${B.MAX_JSON_DEPTH} levels`, past: `${validation} (\`errors.body\`)`, covers: ["MAX_JSON_DEPTH"] },
    { bound: "A narration (a transfer's `reference`)", limit: `${thousands(B.MAX_NARRATION)} characters, kept verbatim`, past: validation, covers: ["MAX_NARRATION"] },
    { bound: "An amount of money (Naira or USD)", limit: `two decimals, at most ${thousands(B.MAX_AMOUNT)}`, past: validation, covers: ["MAX_AMOUNT"] },
    {
      bound: "A wallet or card balance",
      limit: `at most ${thousands(B.MAX_BALANCE_MINOR / 100)} (kobo and cents then stay exact integers)`,
      past: `${answer("BALANCE_LIMIT_EXCEEDED")}; nothing is credited`,
      covers: ["MAX_BALANCE_MINOR"],
    },
    {
      bound: "The clock",
      limit: `from ${yearOf(B.MIN_TIME)} to \`${CLOCK_END}\`; at most ${MAX_ADVANCE_YEARS} years per advance`,
      past: `${validation} on \`to\`, \`by\` or \`seconds\``,
      covers: ["MIN_TIME", "MAX_CLOCK"],
    },
    { bound: "Delays (lifecycles, outcome rules, webhook `delay`) and rule windows (`window_seconds`)", limit: `at most ${days(B.MAX_DELAY_SECONDS)}`, past: validation, covers: ["MAX_DELAY_SECONDS"] },
    {
      bound: "A reply held back on purpose (`delay_seconds` of a `response` or `verify_account` rule)",
      limit: `${spokenSeconds(SLOW_RESPONSE_SECONDS)} by default for \`slow_response\`, else 0; at most ${spokenSeconds(B.MAX_RESPONSE_DELAY_SECONDS)} of wall-clock time`,
      past: validation,
      covers: ["MAX_RESPONSE_DELAY_SECONDS"],
    },
    { bound: "Status reads before an object settles (`queries`)", limit: `at most ${thousands(B.MAX_STATUS_QUERIES)}`, past: validation, covers: ["MAX_STATUS_QUERIES"] },
    { bound: "Outcome rules held by a merchant", limit: `${B.MAX_OUTCOME_RULES}, each matching on at most ${MAX_MATCH_FIELDS} fields`, past: `${validation}: delete some first`, covers: ["MAX_OUTCOME_RULES"] },
    {
      bound: "Webhook settings",
      limit:
        `timeout at most ${spokenSeconds(B.MAX_WEBHOOK_TIMEOUT_SECONDS)}; at most ${B.MAX_RETRIES} retries, each at most ${days(B.MAX_RETRY_WAIT_SECONDS)} apart; ` +
        `URLs \`http\`/\`https\` only, at most ${thousands(B.MAX_URL_LENGTH)} characters`,
      past: validation,
      covers: ["MAX_WEBHOOK_TIMEOUT_SECONDS", "MAX_RETRIES", "MAX_RETRY_WAIT_SECONDS", "MAX_URL_LENGTH"],
    },
    { bound: "USD/NGN rate", limit: `at most ${thousands(B.MAX_USD_NGN_RATE)}, with at most ${B.RATE_DECIMALS} decimals`, past: validation, covers: ["MAX_USD_NGN_RATE", "RATE_DECIMALS"] },
    { bound: "IP allowlist entries", limit: `${B.MAX_ALLOWLIST} (entries are normalised: \`::ffff:127.0.0.1\` is \`127.0.0.1\`)`, past: validation, covers: ["MAX_ALLOWLIST"] },
    { bound: "A page of a list (`per_page`)", limit: `${DEFAULT_PER_PAGE} by default, at most ${MAX_PER_PAGE}`, past: validation },
    {
      bound: "A scenario",
      limit:
        `${MAX_SCENARIO_MERCHANTS} merchants; ${thousands(MAX_SCENARIO_OBJECTS)} objects of each kind, timeline entries and steps; ${B.MAX_OUTCOME_RULES} outcome rules; ` +
        `a request step's \`timeout_seconds\` at most ${stepTimeoutMax()}`,
      past: `${validation} naming the path; nothing is created`,
    },
    {
      bound: "A credit report (`PUT /sandbox/v1/checks/credits`)",
      limit: `${thousands(MAX_REPORTED_CREDITS)} transaction ids, each ${ids.min} to ${ids.max} characters`,
      past: `${validation}; the last report stays`,
    },
    { bound: "Sign-ups, per client IP per rolling minute", limit: `${thousands(B.SIGNUPS_PER_MINUTE.default)}; ${B.SIGNUPS_PER_MINUTE.shared} with \`--shared\` (\`--signups-per-minute\`)`, past: quota, covers: ["SIGNUPS_PER_MINUTE"] },
    {
      bound: "Scenario loads, per client IP per rolling minute",
      limit: `${B.SCENARIO_LOADS_PER_MINUTE.default}; ${B.SCENARIO_LOADS_PER_MINUTE.shared} with \`--shared\` (\`--scenario-loads-per-minute\`)`,
      past: quota,
      covers: ["SCENARIO_LOADS_PER_MINUTE"],
    },
    {
      bound: "Merchants in the sandbox",
      limit: `${thousands(B.DEFAULT_MAX_MERCHANTS)} (\`--max-merchants\`); \`DELETE /sandbox/v1/merchant\` frees a place`,
      past: answer("MERCHANT_LIMIT_REACHED"),
      covers: ["DEFAULT_MAX_MERCHANTS"],
    },
    {
      bound: "A merchant's request log",
      limit:
        `${DEFAULT_REQUEST_LOG_SIZE} requests (\`--request-log\`, up to ${thousands(MAX_REQUEST_LOG_SIZE)}) and ${megabytes(REQUEST_LOG_BYTES)}, estimated ` +
        `(bodies, headers and ${ENTRY_OVERHEAD_BYTES} bytes a request); each body kept up to ${kib(LOGGED_BODY_BYTES)}`,
      past: "The oldest requests are dropped; a longer body is cut (`request_body_truncated`)",
    },
    { bound: "Webhook delivery log", limit: `the newest ${thousands(B.MAX_DELIVERIES)} per merchant are kept`, past: "oldest dropped", covers: ["MAX_DELIVERIES"] },
    {
      bound: "Request logs and webhook delivery logs of all merchants together",
      limit:
        `${DEFAULT_LOG_BUDGET_MB} MB, estimated (\`--log-budget-mb\`, at most ${thousands(MAX_LOG_BUDGET_MB)}): the most they hold whatever the number of merchants ` +
        `(each merchant's own bounds alone allow ${thousands(B.DEFAULT_MAX_MERCHANTS)} × ${megabytes(REQUEST_LOG_BYTES)} = ${thousands((B.DEFAULT_MAX_MERCHANTS * REQUEST_LOG_BYTES) / MB)} MB ` +
        `of requests, plus ${thousands(B.MAX_DELIVERIES)} deliveries each). A request counts its bodies, headers, path and query, plus ${ENTRY_OVERHEAD_BYTES} bytes; ` +
        `a delivery its body, headers, URL, error and answer, plus ${ENTRY_OVERHEAD_BYTES}`,
      past:
        `The largest logs lose their oldest entries first, down to one level, until the total is ${thousands(DEFAULT_LOG_BUDGET_MB * CUT_TO)} MB ` +
        `(${thousands(CUT_TO * 100)}% of the budget); a log below that level is untouched. Deliveries cut this way are saved with \`--data\` like any change`,
    },
    {
      bound: "Client addresses counted per merchant for the per-IP payout cap (`X-Forwarded-For` with `--trust-proxy`)",
      limit: thousands(B.MAX_PAYOUT_ADDRESSES),
      past: `Addresses idle for ${spokenSeconds(HOUR / 1000)} are forgotten first, then the least recently admitted`,
      covers: ["MAX_PAYOUT_ADDRESSES"],
    },
    { bound: "Client addresses counted for the sign-up and scenario-load quotas", limit: thousands(MAX_QUOTA_ADDRESSES), past: "Addresses idle for the quota's minute are forgotten first, then the least recently admitted" },
    { bound: "Incidents", limit: `the newest ${B.MAX_INCIDENTS} per merchant are kept`, past: "oldest dropped", covers: ["MAX_INCIDENTS"] },
    {
      bound: "Test events (`POST /sandbox/v1/webhooks/test`)",
      limit: `${TEST_EVENTS_PER_MINUTE} per merchant per rolling minute of wall-clock time; one attempt each, waiting at most \`webhook.timeout_seconds\``,
      past: `${answer("INVALID_STATE")} (no URL); ${answer("QUOTA_EXCEEDED")} with \`retry_after\``,
    },
    {
      bound: "Webhook doctor runs (`POST /sandbox/v1/webhooks/doctor`)",
      limit: `one at a time per merchant, ${DOCTOR_RUNS_PER_MINUTE} per rolling minute of wall-clock time; each delivery waits at most \`webhook.timeout_seconds\``,
      past: `${answer("INVALID_STATE")}; ${answer("QUOTA_EXCEEDED")} with \`retry_after\``,
    },
    { bound: "A records view's answer (webhook doctor)", limit: `${megabytes(MAX_RECORDS_BYTES)} read`, past: `the run fails, and says to filter by \`${RECORDS_QUERY}\`` },
    {
      bound: "Webhook requests in flight",
      limit: `${DEFAULT_MAX_CONCURRENT} across the sandbox; ${PARALLEL_ATTEMPTS} at a time for one merchant's instant during an advance`,
      past: "queued",
    },
    { bound: "A receiver's answer", limit: `${EXCERPT_CHARS} characters kept; at most ${kib(MAX_BODY_BYTES)} read`, past: "the rest is not read" },
    {
      bound: "Stopping (SIGTERM, SIGINT)",
      limit: `within ${spokenSeconds(stopDeadlineSeconds())}: webhook requests in flight are cut, pending writes flushed`,
      past: `exit 1 after ${spokenSeconds(stopDeadlineSeconds())}`,
    },
  ];
}

/** Which clock each cap counts on, and what its `retry_after` means. */
function rateLimitRows(): string[][] {
  return [
    [
      `\`limits.requests_per_minute\` (\`/api/v1\`, ${answer("RATE_LIMITED")})`,
      "The wall clock, whatever the merchant's clock, so a test suite on a manual clock is never stopped by it for good",
      "Real seconds; the header says the same",
    ],
    [
      `Payout attempts per account and per IP (${answer("RATE_LIMITED")}, \`IP_RATE_LIMITED\`) on a \`realtime\` clock`,
      "The merchant's clock",
      "Real seconds: the sim wait divided by the clock's `speed`, rounded up; the header says the same",
    ],
    [
      "The same payout caps on a `manual` clock",
      "The merchant's clock, so a test can advance past them",
      "Sim seconds, and no header (waiting never frees the cap). The message says to advance the clock that far with `POST /sandbox/v1/clock/advance`.",
    ],
    [`Sign-ups and scenario loads (${answer("QUOTA_EXCEEDED")})`, "The wall clock, per client IP", "Real seconds; the header says the same"],
  ];
}

export function boundsPage(): ReferencePage {
  return {
    name: "bounds.md",
    sources: ["src/domain/bounds.ts", "src/config.ts", "src/http/", "src/engine/", "src/webhooks/transport.ts", "src/main.ts"],
    body: `
# Bounds

Every way state comes in (the API, the control API, sign-up and \`PATCH\`, snapshots, scenario files and
\`POST /sandbox/v1/scenarios\`, the \`--data\` loader) passes the same schemas with the same bounds, so whatever
the sandbox holds it can save, and whatever it saves it can load. No request, and no background work, can
stop it or corrupt another merchant.

${table(
  ["Bound", "Default", "Past it"],
  boundRows().map((r) => [r.bound, r.limit, r.past]),
)}

## Rate limits

Each cap counts on one clock, and its \`retry_after\` is true for that clock: a client that waits (or advances)
exactly \`retry_after\` seconds is admitted.

${table(["Cap", "Counts on", "`retry_after` and `Retry-After`"], rateLimitRows())}

A bank outage (${answer("BANK_UNAVAILABLE")}, an outcome rule \`bank\` \`down\` with \`window_seconds\`) runs on the
merchant's clock too, and its \`retry_after\` is told the same way as the payout caps'.
`,
  };
}
