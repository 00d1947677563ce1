/**
 * The payouts' contract: each operation whole, as the OpenAPI document publishes it. Limits, fees and
 * the test accounts are read from the domain (limits.ts, merchant.ts, outcomes.ts PAYOUT_MAGIC); each
 * named request example, sent to a fresh demo merchant with its sample activity, gets the response of
 * the same name. The bodies are real ones.
 */
import { code, inWords, spokenList } from "../../../domain/prose.js";
import { z } from "@hono/zod-openapi";
import { admitPayoutAttempt } from "../../../domain/attempt-caps.js";
import { amount, digits, text } from "../../../domain/fields.js";
import { DEFAULT_LIMITS as L, IDENTIFIER_DIGITS, PAYOUT_FEE_CAP, PAYOUT_FEE_PERCENT } from "../../../domain/limits.js";
import { DEFAULTS } from "../../../domain/merchant.js";
import { thousands as naira, toMajor } from "../../../domain/money.js";
import { accountHolderName } from "../../../domain/names.js";
import { PAYOUT_MAGIC, type PayoutMagic, type ResponseFaultOutcome } from "../../../domain/outcomes.js";
import { PayoutSchema, PayoutStatusSchema } from "../../../domain/payouts.js";
import { maxDelaySeconds } from "../../../domain/records.js";
import { requireCapability } from "../../../http/capability.js";
import { AT, DEMO_BALANCE, DEMO_HELD_PAYOUT, DEMO_PROCESSING_PAYOUT, demoNextId } from "../../../http/demo-examples.js";
import { AFTER_COMMIT, body, errorExample, errors, examples, invalidExample, json } from "../../../http/openapi.js";
import { tenantOf, routes, Success } from "../../../http/route.js";
import { checking } from "../../../http/validation.js";

const payouts = requireCapability("payouts");

/** Counts the attempt before validation: the spec's caps count attempts, accepted or refused. */
const payoutAttempts = checking("payoutAttempts", (c) => {
  const { tenant, ctx, state } = tenantOf(c);
  admitPayoutAttempt(ctx, state, c.get("clientIp"), tenant.clock.settings());
});

const route = routes({ tags: ["Payouts"], middleware: [payouts] });

/** What a transfer answers, by the state it is created in. */
export const MESSAGES = { processing: "Transfer is processing", held: "Transfer is awaiting approval" } as const;

// ---- Schemas -------------------------------------------------------------------------------------

const REFERENCE_MAX = 100;
const NARRATION_MAX = 200;

const bankCode = z.string().trim().regex(/^\d{3,6}$/, { message: "Must be a bank code from GET /api/v1/payout/banks." });

const VerifyAccount = z.object({ bank_code: bankCode, account_number: digits(IDENTIFIER_DIGITS.account_number) }).openapi("VerifyAccount");

const Transfer = z
  .object({
    amount: amount({ min: 0.01 }),
    bank_code: bankCode,
    account_number: digits(IDENTIFIER_DIGITS.account_number),
    account_name: text(200),
    bank_name: text(200),
    reference: z
      .string()
      .trim()
      .min(1)
      .max(REFERENCE_MAX)
      .regex(/^[\w.\-:/]+$/, { message: "Use letters, digits and - _ . : / only." })
      .optional(),
    narration: z.string().trim().max(NARRATION_MAX).optional(),
  })
  .openapi("PayoutTransfer");

// ---- The test accounts, as the descriptions and examples state them ------------------------------


const MAGIC = Object.entries(PAYOUT_MAGIC);
const magicWhere = (keep: (magic: PayoutMagic) => unknown) => MAGIC.filter(([, magic]) => keep(magic));
const endingsWhere = (keep: (magic: PayoutMagic) => unknown) => magicWhere(keep).map(([ending]) => ending);
const ENDINGS = MAGIC.map(([ending]) => ending).sort();
const SETTLING = magicWhere((m) => m.outcome);
const ANSWERING = magicWhere((m) => m.response);
const NEVER_RESOLVE = endingsWhere((m) => m.enquiry === "not_found");
const TIME_OUT = magicWhere((m) => m.enquiry === "timeout");
const ON_READ = magicWhere((m) => m.queries);

/** The ending the examples use for one behaviour of the table. */
const ending = (keep: (magic: PayoutMagic) => boolean) => endingsWhere(keep)[0]!;
const NOT_FOUND_ENDING = ending((m) => m.enquiry === "not_found");
const TIMEOUT_ENDING = ending((m) => m.enquiry === "timeout");

/** A Guaranty Trust Bank test account with a magic ending, and the name its enquiry resolves to. */
const magicAccount = (end: string) => {
  const account_number = `012345${end}`;
  return { bank_code: "058", account_number, account_name: accountHolderName("058", account_number), bank_name: "Guaranty Trust Bank" };
};

// ---- Pieces several operations share --------------------------------------------------------------

/** A valid Guaranty Trust Bank NUBAN (check digit 5) and the name its enquiry resolves to. */
const GTB = { bank_code: "058", account_number: "0123456785", account_name: "EZE SEGUN FOLAKE", bank_name: "Guaranty Trust Bank" };

const FORBIDDEN = {
  ipNotWhitelisted: errorExample("The merchant has an IP allowlist without this address", "IP_NOT_WHITELISTED", "Requests from 203.0.113.7 are not allowed for this account."),
  payoutDisabled: errorExample("Payouts are not enabled on the account", "PAYOUT_DISABLED", "The payouts service is not enabled on this account."),
};

const INVALID_ACCOUNT = errorExample(
  "The account number fails the bank's NUBAN check digit",
  "INVALID_ACCOUNT",
  "Account 0123456789 could not be resolved at bank 058.",
);

const BANK_UNAVAILABLE = errorExample(
  "The bank is down (in the sandbox: an outcome rule bank down with a window)",
  "BANK_UNAVAILABLE",
  "Guaranty Trust Bank (058) is not available: it is not answering name enquiries or transfers. Retry after 540 s (at 2026-03-02T09:10:00.000Z on the merchant's clock).",
  { retry_after: 540 },
);

/** The full record GET /payout/status answers with: by default the demo payout that stays processing. */
const statusRecord = (over: Record<string, unknown>) => ({
  ...DEMO_PROCESSING_PAYOUT,
  processed_at: null,
  source: "api",
  error: null,
  ...over,
});

/** The demo's payout held for review, as GET /payout/status shows it. */
const HELD_STATUS = statusRecord(DEMO_HELD_PAYOUT);

// ---- GET /payout/banks ---------------------------------------------------------------------------

export const banks = route({
  method: "get",
  path: "/banks",
  operationId: "listBanks",
  summary: "Banks payouts can be sent to",
  description: `
The banks a payout can be sent to, each with the \`bank_code\` that \`POST /api/v1/payout/verify-account\` and
\`POST /api/v1/payout/transfer\` take (a code not in this list is a 422 \`VALIDATION_ERROR\` on \`bank_code\`).

Codes are CBN bank codes: 3 digits for deposit money banks (e.g. \`058\` Guaranty Trust Bank), longer for
microfinance banks, fintechs and payment service banks (e.g. \`50515\` Moniepoint). The list is the same for every
merchant.

A merchant without payouts enabled gets 403 \`PAYOUT_DISABLED\` on every payout endpoint.
`.trim(),
  responses: {
    200: json(Success({ data: z.array(z.object({ bank_code: z.string(), bank_name: z.string() })) }), "The bank list", {
      banks: {
        summary: "The bank list (abridged: the sandbox lists 49 banks, by name)",
        value: {
          success: true,
          data: [
            { bank_code: "120001", bank_name: "9 Payment Service Bank" },
            { bank_code: "044", bank_name: "Access Bank" },
            { bank_code: "011", bank_name: "First Bank of Nigeria" },
            { bank_code: "058", bank_name: "Guaranty Trust Bank" },
            { bank_code: "50211", bank_name: "Kuda Microfinance Bank" },
            { bank_code: "50515", bank_name: "Moniepoint Microfinance Bank" },
            { bank_code: "999992", bank_name: "OPay (Paycom)" },
            { bank_code: "033", bank_name: "United Bank for Africa" },
            { bank_code: "057", bank_name: "Zenith Bank" },
          ],
        },
      },
    }),
    ...errors({ 403: FORBIDDEN }),
  },
});

// ---- POST /payout/verify-account -----------------------------------------------------------------

export const verify = route({
  method: "post",
  path: "/verify-account",
  operationId: "verifyAccount",
  summary: "Resolve an account name (name enquiry)",
  description: `
Name enquiry: resolves the name of the holder of \`account_number\` at the bank \`bank_code\`. Verifying the
account before a transfer is required practice; send the \`account_name\` it returns with the transfer, which checks
it (422 \`ACCOUNT_NAME_MISMATCH\` otherwise).

- \`bank_code\`: from \`GET /api/v1/payout/banks\`; any other code is a 422 \`VALIDATION_ERROR\` on \`bank_code\`.
- \`account_number\`: a 10-digit NUBAN. For a 3-digit bank code its last digit is the CBN check digit over the
  bank code and the first 9 digits; a wrong check digit is refused with 422 \`INVALID_ACCOUNT\`, the same code a
  transfer to that account gets. Longer bank codes (microfinance banks, fintechs, payment service banks) often use
  phone-number accounts with no check digit, so only the 10-digit format is checked for them.
- An account that does not resolve at the bank is also 422 \`INVALID_ACCOUNT\`.
- The bank can be unavailable: 503 \`BANK_UNAVAILABLE\`, with \`retry_after\` (seconds) and a \`Retry-After\` header
  when the outage has a known end. Transfers to that bank are refused the same way. Retry after that time.
- The enquiry can time out at the bank: 504 \`GATEWAY_TIMEOUT\`, and no name is returned. Retry the enquiry; do not
  send the transfer until an enquiry has resolved the name.

Name enquiries are not payout attempts: they do not count against the payout attempt caps.

In the sandbox, resolved names are deterministic (the same bank and account number always give the same
name), and account numbers ending in ${code(ENDINGS[0]!)} to ${code(ENDINGS.at(-1)!)} are test accounts that skip the check-digit
test at any bank (see the transfer's description for what they do). An account number ending in ${spokenList(NEVER_RESOLVE.map(code), " or ")} never resolves (422 \`INVALID_ACCOUNT\`), and one ending in
${TIME_OUT.map(([end, m]) => `${code(end)} ${m.description}`).join(", and one ending in ")}. Outcome rules (\`POST /sandbox/v1/outcomes\`) with target
\`verify_account\` make the matching enquiries fail the same way (\`not_found\`, or \`timeout\` after \`delay_seconds\` of
wall-clock time, at most ${maxDelaySeconds("verify_account")}), and a rule with target \`bank\` and outcome \`down\` makes a bank unavailable, for
\`window_seconds\` of the merchant's clock when given.
`.trim(),
  request: body(VerifyAccount, {
    verified: {
      summary: "A valid Guaranty Trust Bank NUBAN",
      value: { bank_code: GTB.bank_code, account_number: GTB.account_number },
    },
    invalidAccount: {
      summary: "A wrong check digit (0123456785 is the valid number)",
      value: { bank_code: "058", account_number: "0123456789" },
    },
    accountNotFound: {
      summary: `An account the bank does not know (in the sandbox: one ending ${NOT_FOUND_ENDING})`,
      value: { bank_code: "058", account_number: magicAccount(NOT_FOUND_ENDING).account_number },
    },
    unknownBankCode: {
      summary: "A bank code that is not in the bank list",
      value: { bank_code: "777", account_number: "0123456785" },
    },
    nameEnquiryTimeout: {
      summary: `In the sandbox: an enquiry that times out (an account ending ${TIMEOUT_ENDING})`,
      value: { bank_code: "058", account_number: magicAccount(TIMEOUT_ENDING).account_number },
    },
  }),
  responses: {
    200: json(Success({ data: z.object({ account_number: z.string(), account_name: z.string(), bank_code: z.string() }) }), "The verified account", {
      verified: {
        summary: "The account holder's name, as the bank holds it",
        value: { success: true, data: { account_number: GTB.account_number, account_name: GTB.account_name, bank_code: GTB.bank_code } },
      },
    }),
    ...errors({
      403: FORBIDDEN,
      422: {
        invalidAccount: INVALID_ACCOUNT,
        accountNotFound: errorExample(
          "The account does not resolve at the bank",
          "INVALID_ACCOUNT",
          `Account ${magicAccount(NOT_FOUND_ENDING).account_number} could not be resolved at bank 058.`,
        ),
        unknownBankCode: invalidExample("A bank code not in the bank list", { bank_code: ["Unknown bank_code: use a code from GET /api/v1/payout/banks."] }),
        badFormat: invalidExample("A malformed bank code and account number", {
          bank_code: ["Must be a bank code from GET /api/v1/payout/banks."],
          account_number: ["Must be exactly 10 digits."],
        }),
      },
      503: { bankUnavailable: BANK_UNAVAILABLE },
      504: {
        nameEnquiryTimeout: errorExample(
          "The bank did not answer the enquiry: no name (retry the enquiry before any transfer)",
          "GATEWAY_TIMEOUT",
          `Name enquiry for account ${magicAccount(TIMEOUT_ENDING).account_number} at bank 058 timed out: the bank did not answer. No name was returned; retry the enquiry, and do not transfer until it resolves.`,
          { request_id: "3f9d2c1e-8a4b-4c6d-9e0f-1a2b3c4d5e6f" },
        ),
      },
    }),
  },
});

// ---- POST /payout/transfer -----------------------------------------------------------------------

/** A transfer's answer: the payout as created (by default NGN 25,000 to the GTB account, processing, with the demo merchant's next ids). */
const payout = (over: Record<string, unknown>) => ({
  reference: demoNextId("PAYOUT"),
  amount: 25000,
  fee: 250,
  total_deducted: 25250,
  net_amount: 25000,
  order_no: demoNextId("PO", 1),
  transaction_id: demoNextId("PO", 1),
  status: "processing",
  account: "****6785",
  account_name: GTB.account_name,
  bank_name: GTB.bank_name,
  narration: "Invoice INV-2207",
  created_at: AT,
  ...over,
});

/** A transfer example: NGN 25,000 to the GTB account for invoice INV-2207, unless `over` says otherwise. */
const toGtb = (summary: string, { narration = "Invoice INV-2207", ...over }: Record<string, unknown> = {}) => ({
  summary,
  value: { amount: 25000, ...GTB, ...over, narration },
});

/** In the sandbox: a transfer to the test account whose answer is spoilt as `response` once the payout is made. */
const answeredAfterCommit = (response: ResponseFaultOutcome, status: number, reference: string) => {
  const end = ending((m) => m.response === response);
  return toGtb(`In the sandbox: made, then answered ${status} (an account ending ${end}): query the status by reference`, { ...magicAccount(end), reference });
};

const retryAfter = (summary: string, error_code: string, message: string, seconds: number) => errorExample(summary, error_code, message, { retry_after: seconds });

/** The test accounts by what they do to a transfer: how it settles, then what happens to its answer. */
const SETTLES = spokenList(
  SETTLING.map(([end, m]) => `${code(end)} ${m.description}${m.error ? ` ("${m.error}")` : ""}`),
  ", and ",
);
const ANSWERS = spokenList(
  ANSWERING.map(([end, m]) => `${code(end)} ${m.description}`),
  " and ",
);

export const transfer = route({
  method: "post",
  path: "/transfer",
  operationId: "createPayout",
  summary: "Send money to a bank account",
  description: `
Sends money from the wallet to a Nigerian bank account. Answers **201** with the payout record. The wallet is
debited \`total_deducted\` (\`amount + fee\`) **at once**, before the transfer settles.

**Body**

- \`amount\`: Naira, at most two decimals, between the account's payout minimum and maximum (defaults
  ${naira(L.payout_min)} and ${naira(L.payout_max)}): outside them, 422 \`AMOUNT_BELOW_MINIMUM\` or \`AMOUNT_ABOVE_MAXIMUM\`.
- \`bank_code\`: from \`GET /api/v1/payout/banks\` (any other code: 422 \`VALIDATION_ERROR\` on \`bank_code\`).
- \`account_number\`: a 10-digit NUBAN; for a 3-digit bank code its check digit must be right, else 422
  \`INVALID_ACCOUNT\` (the same code as \`POST /api/v1/payout/verify-account\`). Verify the account first.
- \`account_name\`: the name account verification returned for this bank and account. It must name the same holder:
  case, accents, spacing, punctuation and word order do not matter, and a name may be left out (at least two of the
  holder's names, or all of a shorter name), but every word must be one of the holder's. Otherwise 422
  \`ACCOUNT_NAME_MISMATCH\`, whose message gives the name that name enquiry returns.
- \`bank_name\`: the bank's name as \`GET /api/v1/payout/banks\` lists it for \`bank_code\` (case, spacing and punctuation
  aside: \`GTBank\` is not \`Guaranty Trust Bank\`). Otherwise 422 \`BANK_NAME_MISMATCH\`, naming the listed name.
- \`reference\` (optional, at most ${REFERENCE_MAX} characters: letters, digits and \`- _ . : /\`): unique across all the merchant's
  payouts; one already used is refused with 409 \`DUPLICATE_REFERENCE\` and nothing is debited, so a retry with the same
  reference never pays twice. That refusal's \`data\` is the payout the reference made, as \`GET /api/v1/payout/status\`
  shows it: a client that retried after a lost answer reconciles from it. Generated by the service (\`PAYOUT_...\`) when
  left out, so send your own reference if you may retry.
- \`narration\` (optional, at most ${NARRATION_MAX} characters): the transfer's description.

**Fee:** ${PAYOUT_FEE_PERCENT}% of the amount, rounded half-up to the kobo, capped at ${naira(toMajor(PAYOUT_FEE_CAP))} Naira.
\`net_amount\` equals \`amount\`: the fee is charged on top.

**Checks, in this order** (the first that fails answers, and nothing is debited): the body's fields (422
\`VALIDATION_ERROR\`, every bad field reported), the destination (bank code, account number, then \`bank_name\` and
\`account_name\`: 422), reference (409), minimum and maximum amount (422), the rolling hourly and daily payout amount limits
(defaults ${naira(L.payout_hourly_amount)} and ${naira(L.payout_daily_amount)} Naira; failed payouts do not count: 422
\`HOURLY_LIMIT_EXCEEDED\` or \`DAILY_LIMIT_EXCEEDED\`), the destination bank (down: 503 \`BANK_UNAVAILABLE\`, with
\`retry_after\` when the outage has a known end), then the wallet balance (\`total_deducted\` more than the balance:
422 \`INSUFFICIENT_BALANCE\`).

**Attempt caps:** every call counts, accepted or refused (even one with an invalid body): at most
${L.payout_attempts_per_ip_per_hour} per rolling hour from one client IP, counted per merchant (429 \`IP_RATE_LIMITED\`), and the account's own hourly cap
(default ${L.payout_attempts_per_hour}; 429 \`RATE_LIMITED\`). Both count on the merchant's clock and carry \`retry_after\`: wait that many
seconds and the next attempt is admitted. On a realtime clock it is real seconds (the sim wait divided by the clock's speed, rounded up)
and a \`Retry-After\` header says the same. On a manual clock waiting never frees a cap, so \`retry_after\` is sim seconds, there is no
\`Retry-After\` header, and the message says so: advance the clock that far (\`POST /sandbox/v1/clock/advance\`). The general
per-minute request cap (${naira(L.requests_per_minute)} by default) counts wall-clock time whatever the merchant's clock.

**States**

| Created as | When | Then |
|---|---|---|
| \`processing\` (message "${MESSAGES.processing}") | \`amount\` below the account's review threshold (default ${naira(L.payout_review_threshold)} Naira) | \`completed\` when the bank confirms, or \`failed\` with \`total_deducted\` returned to the wallet |
| \`pending_approval\` (message "${MESSAGES.held}") | \`amount\` at or above the review threshold | debited (reserved) and held until an admin approves it (then \`processing\`); a rejection makes it \`failed\` and returns the funds |

The outcome is sent to the webhook (\`payout.completed\` or \`payout.failed\`) and shown by \`GET /api/v1/payout/status\`.
\`pending\` (created, not yet sent) is a state of the real service that the sandbox never returns.

**When the answer goes wrong.** A transfer can be made and still reach you as no answer (the connection is
reset, or your client times out) or as a 500 \`INTERNAL_ERROR\` or 504 \`GATEWAY_TIMEOUT\`: the payout may exist
and the wallet may be debited. Never send it again with a new reference. Send every transfer with your own
\`reference\`, and after an unclear answer query \`GET /api/v1/payout/status?reference=...\` with it: 404 means no
payout was made (send it again, with the same reference); otherwise the record (and the webhook) tells the outcome. A
retry with the same reference is refused with 409 \`DUPLICATE_REFERENCE\`, so it can never pay twice. The same holds
for a \`processing\` payout that fails hours later: its \`payout.failed\` webhook and the status record say so, and
\`total_deducted\` is back in the wallet.

A merchant without payouts enabled gets 403 \`PAYOUT_DISABLED\`.

**In the sandbox:** a \`processing\` payout completes after the merchant's \`payout_settlement_seconds\` (default ${DEFAULTS.delays.payout_settlement_seconds}).
Account numbers ending in ${SETTLES}.
The transfer to ${ANSWERS} (each of these ${inWords(ANSWERING.length)} completes as usual). These test accounts skip the check-digit test at any
bank. Name enquiry never resolves an account ending ${spokenList(NEVER_RESOLVE.map(code), " or ")}, so its transfer takes any \`account_name\` (the others
take the name name enquiry gives them). Every other transfer makes its own name enquiry before anything is debited:
one to an account ending ${spokenList(TIME_OUT.map(([end]) => code(end)), " or ")}, or matched by a \`verify_account\` outcome rule, is refused as that enquiry
fails (504 \`GATEWAY_TIMEOUT\`, or 422 \`INVALID_ACCOUNT\`): it was not sent, nothing was debited and its reference is still free. Outcome rules (\`POST /sandbox/v1/outcomes\`) take precedence: target \`payout\` for the outcome (\`queries\` to
settle on a status read), \`response\` for the answer (\`match: { operation: createPayout }\`), \`bank\` for an outage.
Move a payout by hand with \`POST /sandbox/v1/payouts/{reference}/approve\`, \`/reject\`, \`/complete\` or \`/fail\`, and
change the limits with \`PATCH /sandbox/v1/merchant\` (\`limits\`). The demo merchant's wallet holds less than the review
threshold after its sample activity: fund it (\`POST /sandbox/v1/wallet/fund\`) before sending a payout to be held.
`.trim(),
  middleware: [payouts, payoutAttempts] as const,
  request: body(Transfer, {
    processing: toGtb("NGN 25,000 to a verified account (a reference is generated)"),
    invalidAccount: toGtb("A wrong NUBAN check digit (0123456785 is the valid number)", { account_number: "0123456789" }),
    accountNameMismatch: toGtb("An account_name that is not the holder's (name enquiry returns EZE SEGUN FOLAKE)", { account_name: "JOHN DOE" }),
    bankNameMismatch: toGtb("A bank_name that is not the bank list's for bank_code 058", { bank_name: "Access Bank" }),
    duplicateReference: toGtb("A reference the merchant already used (the demo's held payout)", { reference: DEMO_HELD_PAYOUT.reference }),
    amountBelowMinimum: toGtb("Less than the account's payout minimum", { amount: 50, narration: "Test transfer" }),
    amountAboveMaximum: toGtb("More than the account's maximum per payout", { amount: 7500000, narration: "Property deposit" }),
    insufficientBalance: {
      ...toGtb("More than the wallet holds (amount + fee)", { amount: 1000000, narration: "Supplier settlement" }),
      description: `NGN ${naira(L.payout_review_threshold)} is at the review threshold, so it would be held as pending_approval if the wallet could cover it.`,
    },
    validationError: toGtb("An amount with three decimals", { amount: 2500.555 }),
    serverErrorAfterCommit: answeredAfterCommit("server_error", 500, "INV-2207-A"),
    gatewayTimeoutAfterCommit: answeredAfterCommit("gateway_timeout", 504, "INV-2207-B"),
    nameEnquiryTimeout: toGtb(`In the sandbox: the transfer's name enquiry times out (an account ending ${TIMEOUT_ENDING}): nothing is sent`, {
      ...magicAccount(TIMEOUT_ENDING),
      reference: "INV-2207-C",
    }),
  }),
  responses: {
    201: json(Success({ message: z.string(), data: PayoutSchema }), "The payout, debited at once", {
      processing: {
        summary: "Below the review threshold: sent at once",
        value: { success: true, message: MESSAGES.processing, data: payout({}) },
      },
      heldForReview: {
        summary: "At or above the review threshold: held as pending_approval",
        description:
          "The answer to NGN 1,500,000 to 0698765438 at Access Bank with reference INV-2026-0042, from a wallet that covers it " +
          `(the fresh demo merchant's does not: fund it first). The fee is capped at NGN ${naira(toMajor(PAYOUT_FEE_CAP))}.`,
        value: {
          success: true,
          message: MESSAGES.held,
          data: payout({
            reference: "INV-2026-0042",
            amount: 1500000,
            fee: 1000,
            total_deducted: 1501000,
            net_amount: 1500000,
            order_no: "PO_K19EW3WDCDSY7BIO",
            transaction_id: "PO_K19EW3WDCDSY7BIO",
            status: "pending_approval",
            account: "****5438",
            account_name: "UCHE YETUNDE ZAINAB",
            bank_name: "Access Bank",
            narration: "Equipment purchase",
          }),
        },
      },
    }),
    ...errors({
      403: FORBIDDEN,
      409: {
        duplicateReference: errorExample(
          "The reference is already used by another payout: data is that payout, to reconcile a retry from",
          "DUPLICATE_REFERENCE",
          `A payout with reference ${DEMO_HELD_PAYOUT.reference} already exists: data is that payout, as GET /api/v1/payout/status shows it.`,
          { data: HELD_STATUS },
        ),
      },
      422: {
        invalidAccount: INVALID_ACCOUNT,
        accountNameMismatch: errorExample(
          "The account_name does not name the account's holder",
          "ACCOUNT_NAME_MISMATCH",
          'account_name "JOHN DOE" does not match the holder of account 0123456785 at Guaranty Trust Bank: name enquiry (POST /api/v1/payout/verify-account) returns "EZE SEGUN FOLAKE".',
        ),
        bankNameMismatch: errorExample(
          "The bank_name is not the bank list's name for the bank_code",
          "BANK_NAME_MISMATCH",
          'bank_name "Access Bank" is not the name of bank 058: the bank list (GET /api/v1/payout/banks) names it "Guaranty Trust Bank".',
        ),
        amountBelowMinimum: errorExample("Below the account's payout minimum", "AMOUNT_BELOW_MINIMUM", `The minimum payout is NGN ${L.payout_min.toFixed(2)}.`),
        amountAboveMaximum: errorExample("Above the account's maximum per payout", "AMOUNT_ABOVE_MAXIMUM", `The maximum payout per transaction is NGN ${L.payout_max.toFixed(2)}.`),
        insufficientBalance: errorExample(
          "The wallet cannot cover amount + fee (nothing is debited)",
          "INSUFFICIENT_BALANCE",
          `Insufficient wallet balance: NGN 1001000.00 needed, NGN ${DEMO_BALANCE.toFixed(2)} available.`,
        ),
        hourlyLimitExceeded: errorExample(
          "The payout would take the rolling hour over the account's limit",
          "HOURLY_LIMIT_EXCEEDED",
          `This payout would exceed the hourly payout limit of NGN ${L.payout_hourly_amount.toFixed(2)} (NGN 17500000.00 used).`,
        ),
        dailyLimitExceeded: errorExample(
          "The payout would take the rolling 24 hours over the account's limit",
          "DAILY_LIMIT_EXCEEDED",
          `This payout would exceed the daily payout limit of NGN ${L.payout_daily_amount.toFixed(2)} (NGN 98000000.00 used).`,
        ),
        validationError: invalidExample("A field breaks its rule (every field is reported)", { amount: ["Must have at most two decimal places."] }),
        missingFields: invalidExample("A short account number and no account_name", {
          account_number: ["Must be exactly 10 digits."],
          account_name: ["The account_name field is required."],
        }),
      },
      500: { serverErrorAfterCommit: AFTER_COMMIT.serverError("The payout was made (debited), then the answer failed: query its status by reference") },
      503: { bankUnavailable: BANK_UNAVAILABLE },
      504: {
        gatewayTimeoutAfterCommit: AFTER_COMMIT.gatewayTimeout("The payout was made (debited), then the answer timed out: query its status by reference", "createPayout"),
        nameEnquiryTimeout: errorExample(
          "The bank did not answer the transfer's name enquiry: nothing was sent or debited",
          "GATEWAY_TIMEOUT",
          `Name enquiry for account ${magicAccount(TIMEOUT_ENDING).account_number} at bank 058 timed out: the bank did not answer. The transfer was not sent: no payout was made and nothing was debited. Retry the transfer with the same reference once an enquiry (POST /api/v1/payout/verify-account) resolves the name.`,
          { request_id: "3f9d2c1e-8a4b-4c6d-9e0f-1a2b3c4d5e6f" },
        ),
      },
      429: {
        ipRateLimited: retryAfter(
          `Over ${L.payout_attempts_per_ip_per_hour} payout attempts in an hour from one IP`,
          "IP_RATE_LIMITED",
          `Too many payout attempts from 203.0.113.7: at most ${L.payout_attempts_per_ip_per_hour} per hour. Retry in 1260 s.`,
          1260,
        ),
        payoutAttemptsExceeded: retryAfter(
          "Over the account's payout attempts per hour",
          "RATE_LIMITED",
          `Too many payout attempts: at most ${L.payout_attempts_per_hour} per hour for this account. Retry in 845 s.`,
          845,
        ),
        rateLimited: retryAfter(
          "Over the merchant's requests per minute",
          "RATE_LIMITED",
          `Too many requests: at most ${L.requests_per_minute} per minute for this account. Retry in 12 s.`,
          12,
        ),
      },
    }),
  },
});

// ---- GET /payout/status --------------------------------------------------------------------------

export const status = route({
  method: "get",
  path: "/status",
  operationId: "getPayoutStatus",
  summary: "Status of a payout",
  description: `
The full payout record, by the \`reference\` the transfer was sent with (or the one generated for it). A reference
the merchant never used: 404 \`NOT_FOUND\`.

\`order_no\` and \`transaction_id\` (the same value) identify the payout: its ledger entries and its webhooks carry it too.
Beyond the transfer's answer it carries \`processed_at\` (when the payout completed or failed; null before),
\`source\` (\`api\`) and \`error\` (why it failed; null otherwise). \`status\` is one of:

- \`pending_approval\`: at or above the review threshold, debited and waiting for an admin.
- \`processing\`: sent to the bank.
- \`completed\`: delivered.
- \`failed\`: refused by the bank or rejected by an admin; \`total_deducted\` is back in the wallet.

The outcome is also sent to the webhook (\`payout.completed\` or \`payout.failed\`), so polling is optional. After a
transfer whose answer was lost, late or a 5xx, this is how to learn whether it was made: query it with the reference
the transfer was sent with (404: it was not; send it again with the same reference).

**In the sandbox** a payout can stay \`processing\` until its status is read N times (account endings
${spokenList(ON_READ.map(([end]) => code(end)), " and ")}: ${spokenList([...new Set(ON_READ.map(([, m]) => String(m.queries)))], " or ")} reads; an outcome rule with \`queries\`): the Nth read settles it and answers with the settled record,
with the same ledger entries and webhook as a settlement by time.

A merchant without payouts enabled gets 403 \`PAYOUT_DISABLED\`.
`.trim(),
  request: {
    query: z.object({
      reference: examples(z.string().min(1).max(REFERENCE_MAX), {
        processing: { summary: "The demo payout that stays processing (account ending 0002)", value: DEMO_PROCESSING_PAYOUT.reference },
        heldForReview: { summary: "The demo payout held for review", value: DEMO_HELD_PAYOUT.reference },
        notFound: { summary: "A reference the merchant never used", value: "no-such-payout" },
      }),
    }),
  },
  responses: {
    200: json(Success({ data: PayoutStatusSchema }), "The full payout record", {
      processing: { summary: "Sent to the bank, not settled yet", value: { success: true, data: statusRecord({}) } },
      heldForReview: { summary: "Held for an admin's approval", value: { success: true, data: HELD_STATUS } },
      failed: {
        summary: "Failed at the bank: the funds are back in the wallet",
        value: { success: true, data: statusRecord({ status: "failed", processed_at: "2026-03-02T09:00:30.000Z", error: "Transfer failed at the beneficiary bank" }) },
      },
    }),
    ...errors({
      403: FORBIDDEN,
      404: { notFound: errorExample("No payout with this reference", "NOT_FOUND", "No payout with reference no-such-payout.") },
      422: { validationError: invalidExample("No reference sent", { reference: ["The reference field is required."] }) },
    }),
  },
});
