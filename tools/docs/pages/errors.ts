/**
 * docs/reference/errors.md: every error code with the status the server answers it with
 * (src/http/errors.ts STATUS_OF), and when it comes. MEANING is typed by the codes, so a code added
 * to the server does not compile here until the page says when it comes.
 */
import { DEFAULT_LIMITS } from "../../../src/domain/limits.js";
import { PAYOUT_MAGIC, type PayoutMagic } from "../../../src/domain/outcomes.js";
import { BODY_LIMIT_BYTES, megabytes, SNAPSHOT_LIMIT_BYTES } from "../../../src/http/body-limit.js";
import { HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from "../../../src/http/connection-limits.js";
import { STATUS_OF, type ErrorCode } from "../../../src/http/errors.js";
import { code, spokenList, spokenSeconds, table, thousands, type ReferencePage } from "../markdown.js";

/** The test accounts' endings that behave so, as the docs name them: `0008`. */
export const endingsWhere = (keep: (magic: PayoutMagic) => boolean) =>
  spokenList(Object.entries(PAYOUT_MAGIC).filter(([, m]) => keep(m)).map(([ending]) => code(ending)), " or ");

const AFTER_COMMIT =
  "it may have been processed, and the message says how to find out for that operation (a payout's status by its reference; for a VTU purchase, " +
  "which carries no reference of the merchant's, the wallet balance; for card funding or unload, the card's transactions)";

const MEANING: Record<ErrorCode, string> = {
  MISSING_CREDENTIALS: "`X-Api-Key` or `X-Api-Secret` not sent",
  INVALID_CREDENTIALS: "Key and secret do not match an account (compared in constant time)",
  IP_NOT_WHITELISTED: "The merchant's IP allowlist is on and the client IP is not on it",
  SERVICE_NOT_ENABLED: "VTU, virtual cards or checkout is off for the merchant (`capabilities`)",
  PAYOUT_DISABLED: "Payouts are off for the merchant (the spec's code and status)",
  RATE_LIMITED:
    `The merchant's payout attempts per rolling hour (\`limits.payout_attempts_per_hour\`, ${thousands(DEFAULT_LIMITS.payout_attempts_per_hour)} by default) or requests per ` +
    `minute (\`limits.requests_per_minute\`, ${thousands(DEFAULT_LIMITS.requests_per_minute)} by default). Has \`retry_after\`, true for the clock the cap counts on ` +
    "(see [Bounds](bounds.md#rate-limits)).",
  IP_RATE_LIMITED: `Payout attempts per rolling hour from one IP (\`limits.payout_attempts_per_ip_per_hour\`, ${DEFAULT_LIMITS.payout_attempts_per_ip_per_hour} by default, the spec's value). Has \`retry_after\`, as \`RATE_LIMITED\`.`,
  VALIDATION_ERROR: "A field broke a rule. `errors` names each bad field by its dotted path, with every message.",
  INVALID_JSON: "The body is not valid JSON",
  INVALID_YAML: "A YAML body (a scenario sent as `application/yaml` or `text/yaml`) is not valid YAML",
  UNSUPPORTED_MEDIA_TYPE: "The body's `Content-Type` is not one the route takes: `application/json`, unless the route's reference names others",
  PAYLOAD_TOO_LARGE: `The body is over ${megabytes(BODY_LIMIT_BYTES)} (a snapshot: over \`--snapshot-limit-mb\`, ${megabytes(SNAPSHOT_LIMIT_BYTES)} by default)`,
  REQUEST_TIMEOUT:
    `The request's headers took more than ${spokenSeconds(HEADERS_TIMEOUT_MS / 1000)} to arrive, or the whole request more than ${spokenSeconds(REQUEST_TIMEOUT_MS / 1000)}. ` +
    "Written by the server itself (no `X-Request-Id`), then the connection is closed; nothing the request asked was done.",
  NOT_FOUND: "Unknown route, or an unknown id or reference within the merchant",
  DUPLICATE_REFERENCE:
    "A payout reference already used by this merchant (`data` is that payout, as `GET /api/v1/payout/status` shows it), or a virtual account reference reused for another customer",
  INSUFFICIENT_BALANCE: "The wallet cannot cover the debit. Nothing is debited.",
  INSUFFICIENT_CARD_BALANCE: "An unload is more than the card holds",
  AMOUNT_BELOW_MINIMUM: "A payout under the merchant's `limits.payout_min`",
  AMOUNT_ABOVE_MAXIMUM: "A payout over the merchant's `limits.payout_max`",
  HOURLY_LIMIT_EXCEEDED: "The payout would take the Naira paid out in the rolling hour past `limits.payout_hourly_amount`",
  DAILY_LIMIT_EXCEEDED: "The payout would take the Naira paid out in the rolling 24 hours past `limits.payout_daily_amount`",
  KYC_REQUIRED: "An individual virtual account with no `bvn` or `nin`, and the merchant has no KYC of its own to fall back on",
  KYC_NOT_APPROVED: "A card issued for a cardholder whose KYC is not `APPROVED`",
  INVALID_ACCOUNT:
    `The account number fails the bank's NUBAN check digit (at verify-account and transfer alike), or name enquiry does not find it (an account ending ` +
    `${endingsWhere((m) => m.enquiry === "not_found")}, or an outcome rule \`verify_account\` \`not_found\`)`,
  ACCOUNT_NAME_MISMATCH: "A transfer's `account_name` is not the holder's name that name enquiry returns for that bank and account. The message gives that name. Nothing is debited.",
  BANK_NAME_MISMATCH: "A transfer's `bank_name` is not the bank list's name for its `bank_code`. The message gives that name. Nothing is debited.",
  INVALID_STATE: "The object's state forbids the action (a terminated card, a settled payout). The message names the current state.",
  AMOUNT_MISMATCH: "A payment link paid with an amount other than its exact amount. Nothing is credited.",
  CARD_FUNDING_FAILED: "The card issuer declined a funding (an outcome rule or a [magic amount](magic-values.md)). Nothing is charged.",
  BALANCE_LIMIT_EXCEEDED: "A credit would take a wallet or a card past the sandbox's ceiling ([Bounds](bounds.md)). Nothing is credited.",
  QUOTA_EXCEEDED: "Too many sign-ups or scenario loads from one client IP in a minute, or test events or webhook doctor runs by one merchant. Has `retry_after`.",
  MERCHANT_LIMIT_REACHED: "The sandbox holds its most merchants (`--max-merchants`); `DELETE /sandbox/v1/merchant` frees a place",
  STORE_UNAVAILABLE:
    "With `--data`, the change could not be kept, so it was not applied: the folder's disk refused it, or PostgreSQL was out of reach, or the change lost a race with another node's. Retry once the store works, with the same reference: on PostgreSQL, a connection lost while the change committed may have applied it, and the same reference then answers as a duplicate.",
  BANK_UNAVAILABLE:
    "The beneficiary bank is down (an outcome rule `bank` `down`), as NIBSS answers \"91\": name enquiry and transfers to it are refused. Nothing is debited and " +
    "the reference stays unused. When the outage has a window, `retry_after` is the rest of it, told for the merchant's clock as for `RATE_LIMITED`; " +
    "without one it lasts until the rule is deleted.",
  GATEWAY_TIMEOUT:
    `A name enquiry timed out (an account ending ${endingsWhere((m) => m.enquiry === "timeout")}, or an outcome rule \`verify_account\` \`timeout\`): no name, retry the enquiry. ` +
    `Or a money-moving request was made and then answered 504 (an account ending ${endingsWhere((m) => m.response === "gateway_timeout")}, or an outcome rule ` +
    `\`response\` \`gateway_timeout\`): ${AFTER_COMMIT}. Has \`request_id\`.`,
  INTERNAL_ERROR:
    `A bug in the sandbox, or an outcome rule \`response\` \`server_error\` (an account ending ${endingsWhere((m) => m.response === "server_error")}) after the ` +
    "request was made: then it may have been processed, as for `GATEWAY_TIMEOUT`. Has `request_id`, never a stack trace.",
};

function meaningOf(errorCode: ErrorCode): string {
  const meaning = MEANING[errorCode];
  if (meaning === undefined) throw new Error(`${errorCode} has no meaning in tools/docs/pages/errors.ts: say when it comes`);
  return meaning;
}

export function errorsPage(): ReferencePage {
  const codes = Object.keys(STATUS_OF) as ErrorCode[];
  return {
    name: "errors.md",
    sources: ["src/http/errors.ts", "src/domain/errors.ts", "src/domain/outcomes.ts"],
    body: `
# Errors

Every failure, of the API and of the control API, has one shape:

\`\`\`
{ "success": false, "message": "...", "error_code": "...", "errors"?: { "field": ["..."] }, "retry_after"?: seconds, "data"?: {...}, "request_id"?: "..." }
\`\`\`

\`message\` says what to fix. \`errors\` comes with \`VALIDATION_ERROR\`; \`retry_after\` with the answers that ask to wait
(with a \`Retry-After\` header when it is real time); \`data\` only with a payout's \`DUPLICATE_REFERENCE\`; \`request_id\`
with every 5xx. Each operation's own errors, with examples, are in the API reference a running sandbox serves at \`/docs\`.

${table(
  ["`error_code`", "HTTP", "When"],
  codes.map((c) => [code(c), String(STATUS_OF[c]), meaningOf(c)]),
)}
`,
  };
}
