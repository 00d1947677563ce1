/**
 * What the OpenAPI document says about sign-up and the caller's own configuration: descriptions and
 * examples (real bodies; see control-docs.ts for the contract they keep).
 */
import { errorExample, type Examples } from "../http/openapi.js";
import { AT, DEMO } from "../http/demo-examples.js";
import { validationError } from "./errors.js";

const RETRIES = [60, 300, 1800, 7200, 21600, 86400];
const DEFAULT_LIMITS = {
  payout_min: 100,
  payout_max: 5000000,
  payout_hourly_amount: 20000000,
  payout_daily_amount: 100000000,
  payout_attempts_per_hour: 100,
  payout_attempts_per_ip_per_hour: 20,
  payout_review_threshold: 1000000,
  requests_per_minute: 1000,
};
const DEFAULT_DELAYS = { payout_settlement_seconds: 30, vtu_settlement_seconds: 60, kyc_approval_seconds: 120 };
const DEFAULT_WEBHOOK = { signature_algorithm: "sha256", signature_encoding: "hex", timeout_seconds: 10, retry_schedule_seconds: RETRIES };
const ALL_CAPABILITIES = { payouts: true, vtu: true, virtual_cards: true, checkout: true };

/** The demo merchant as GET /sandbox/v1/merchant shows it after its sample activity. */
export const DEMO_MERCHANT = {
  merchant_id: DEMO.merchantId,
  business_name: "Mama Put Foods Ltd",
  api_key: "pk_test_demo_4b1f0c9e7a2d46d1",
  api_secret: "sk_test_demo_9f3e2a7c5b8d4e61a0c2",
  webhook_secret: "whsec_demo_2c7e9a1f4b6d8e03",
  capabilities: ALL_CAPABILITIES,
  kyc: { bvn: "22212345678", nin: null },
  ip_allowlist: [],
  webhook_url: null,
  webhook_capture: { fail_first: 0 },
  limits: DEFAULT_LIMITS,
  card_funding_fee_usd: 1,
  usd_ngn_rate: 1600,
  delays: DEFAULT_DELAYS,
  webhook: DEFAULT_WEBHOOK,
  created_at: AT,
  wallet_balance: 836850,
  clock: { mode: "realtime", speed: 1, now: AT },
};

/** A merchant made by sign-up (fresh keys, manual clock at the current time). */
const newMerchant = (overrides: Record<string, unknown>) => ({
  merchant_id: "mch_LotIdAKqsOdusz",
  business_name: "Sandbox Merchant",
  api_key: "pk_test_zIwPV3oyozL690vZb3FrKExJ",
  api_secret: "sk_test_LJ9aGO9THcFQdgDZMCUCa1QlOQBLzQC8",
  webhook_secret: "whsec_jXXhWDZqhSo4kmpmAAykJpKSCfWDmV1T",
  capabilities: ALL_CAPABILITIES,
  kyc: { bvn: null, nin: null },
  ip_allowlist: [],
  webhook_url: null,
  webhook_capture: null,
  limits: DEFAULT_LIMITS,
  card_funding_fee_usd: 1,
  usd_ngn_rate: 1600,
  delays: DEFAULT_DELAYS,
  webhook: DEFAULT_WEBHOOK,
  created_at: AT,
  wallet_balance: 1000000,
  clock: { mode: "manual", speed: 1, now: AT },
  ...overrides,
});

const SETTINGS = `
The settings (every one optional; amounts in Naira with at most two decimals, unless named \`_usd\`):

| Setting | Default | What it does |
|---|---|---|
| \`business_name\` | \`Sandbox Merchant\` | Used in virtual account and payment-link account names |
| \`capabilities.payouts\` / \`.vtu\` / \`.virtual_cards\` / \`.checkout\` | all \`true\` | A capability turned off makes its /api/v1 routes answer 403 (\`PAYOUT_DISABLED\` or \`SERVICE_NOT_ENABLED\`) |
| \`kyc.bvn\`, \`kyc.nin\` | \`null\` | The merchant's own KYC (11 digits): the identity an individual virtual account without \`bvn\`/\`nin\` falls back to (else 422 \`KYC_REQUIRED\`) |
| \`ip_allowlist\` | \`[]\` (off) | At most 100 IPv4/IPv6 addresses allowed to call /api/v1 (else 403 \`IP_NOT_WHITELISTED\`) |
| \`webhook_url\` | \`null\` | An http(s) URL the events are POSTed to |
| \`webhook_capture\` | \`null\` | \`{ fail_first }\`: while \`webhook_url\` is null, the sandbox's built-in receiver answers each delivery (500 for the first \`fail_first\`, then 200), so retries show in GET /sandbox/v1/webhook-deliveries |
| \`limits.payout_min\`, \`.payout_max\` | 100, 5,000,000 | Smallest and largest single payout (422 \`AMOUNT_BELOW_MINIMUM\` / \`AMOUNT_ABOVE_MAXIMUM\`) |
| \`limits.payout_hourly_amount\`, \`.payout_daily_amount\` | 20,000,000, 100,000,000 | Naira paid out per rolling hour / 24 hours (422 \`HOURLY_LIMIT_EXCEEDED\` / \`DAILY_LIMIT_EXCEEDED\`) |
| \`limits.payout_attempts_per_hour\` | 100 | Payout attempts per rolling hour (on the merchant's clock) for the account; 0 = no cap (429 \`RATE_LIMITED\`) |
| \`limits.payout_attempts_per_ip_per_hour\` | 20 | Payout attempts per rolling hour (on the merchant's clock) per client IP; 0 = no cap (429 \`IP_RATE_LIMITED\`) |
| \`limits.payout_review_threshold\` | 1,000,000 | Payouts at or above it are held as \`pending_approval\` |
| \`limits.requests_per_minute\` | 1,000 | Requests to /api/v1 per rolling minute of wall-clock time, whatever the merchant's clock; 0 = off (429 \`RATE_LIMITED\`) |
| \`card_funding_fee_usd\` | 1 | USD fee added to every card funding |
| \`usd_ngn_rate\` | 1600 | Naira per USD for card funding and unloads |
| \`delays.payout_settlement_seconds\` | 30 | Sim seconds from \`processing\` to \`completed\`/\`failed\` |
| \`delays.vtu_settlement_seconds\` | 60 | Sim seconds before a processing VTU purchase settles |
| \`delays.kyc_approval_seconds\` | 120 | Sim seconds before a new cardholder is \`APPROVED\` |
| \`webhook.signature_algorithm\`, \`.signature_encoding\` | \`sha256\`, \`hex\` | HMAC of \`X-Webhook-Signature\` (\`sha512\`; \`base64\`) |
| \`webhook.timeout_seconds\` | 10 | Wall-clock seconds to wait for the receiver (at most 60) |
| \`webhook.retry_schedule_seconds\` | \`[60, 300, 1800, 7200, 21600, 86400]\` | Sim seconds before each retry; \`[]\` = no retries (at most 20, each at most 7 days) |
| \`clock.mode\`, \`.speed\`, \`.now\` | \`manual\`, 1, the current time | \`manual\`: time moves only with POST /sandbox/v1/clock/advance. \`realtime\`: it follows the wall clock times \`speed\`. \`now\`: the sim time to start from |

Unknown fields are refused (422 \`VALIDATION_ERROR\` naming each one), so a misspelt setting never passes silently.
The delays and the review threshold are read when an object is created: objects already waiting keep theirs.`.trim();

// ---- POST /sandbox/v1/merchants ------------------------------------------------------------------

export const CREATE_DESCRIPTION = `
Signs up a new merchant and returns its keys: \`api_key\` and \`api_secret\` (send them as \`X-Api-Key\` and
\`X-Api-Secret\`) and the \`webhook_secret\` that signs its webhooks. **No authentication: send no keys.**
Each merchant is isolated (its own wallet, objects, outcome rules, event log and clock), so a test that makes
its own merchant never shares state with another. Answers 201.

An empty body \`{}\` gives the defaults. \`wallet_balance\` (Naira, default 1,000,000) is the opening balance,
credited by one \`wallet_funding\` ledger entry. **The clock is manual by default**: time stands still until
POST /sandbox/v1/clock/advance moves it, so payouts, VTU purchases and KYC settle exactly when the test says.

${SETTINGS}

Limits of the sandbox: sign-ups per client IP per rolling minute (1,000; 20 with \`--shared\`), over which
429 \`QUOTA_EXCEEDED\` with \`retry_after\`; and at most \`--max-merchants\` merchants (20,000 by default), over
which 429 \`MERCHANT_LIMIT_REACHED\`: delete finished merchants with DELETE /sandbox/v1/merchant. With
\`--shared\`, a \`webhook_url\` naming a loopback or private address, or \`localhost\`, is refused (422 on
\`webhook_url\`).`.trim();

export const CREATE_BODY_EXAMPLES: Examples = {
  testMerchant: {
    summary: "A merchant for one test: NGN 50,000, faster payouts, a built-in receiver that fails once",
    value: { business_name: "Ada's Kitchen", wallet_balance: 50000, webhook_capture: { fail_first: 1 }, delays: { payout_settlement_seconds: 10 } },
  },
  defaults: {
    summary: "Every setting at its default (NGN 1,000,000, manual clock)",
    value: {},
  },
  tooManyDecimals: {
    summary: "An opening balance with three decimals",
    value: { wallet_balance: 1000.005 },
  },
};

export const CREATE_RESPONSE_EXAMPLES: Examples = {
  testMerchant: {
    summary: "The new merchant with its keys",
    value: {
      success: true,
      data: newMerchant({
        business_name: "Ada's Kitchen",
        webhook_capture: { fail_first: 1 },
        delays: { ...DEFAULT_DELAYS, payout_settlement_seconds: 10 },
        wallet_balance: 50000,
      }),
    },
  },
  defaults: {
    summary: "A merchant with the default settings",
    value: {
      success: true,
      data: newMerchant({
        merchant_id: "mch_DOS5IQAgph5mJL",
        api_key: "pk_test_VhSEYEFs0sDt8a567LXmYwJr",
        api_secret: "sk_test_qojII2BqkzGJaZJEdhkCrTEgui787wkp",
        webhook_secret: "whsec_lrp5YdrT9YVUGLh6AOIugAHhgF9VxdqP",
      }),
    },
  },
};

export const CREATE_ERRORS = {
  422: {
    tooManyDecimals: validationError("Amounts have at most two decimals", "wallet_balance", "Must have at most two decimal places."),
    unknownSetting: validationError("A setting that does not exist (here a misspelt one)", "webhook_urls", "Unknown field."),
  },
};

// ---- GET /sandbox/v1/merchant --------------------------------------------------------------------

export const READ_DESCRIPTION = `
The calling merchant's configuration: \`merchant_id\`, its keys and \`webhook_secret\`, every setting with the
defaults filled in (amounts in Naira; \`card_funding_fee_usd\` in USD), \`wallet_balance\` (Naira) and \`clock\`
(\`mode\`, \`speed\`, and \`now\`, the merchant's own sim time, which every timestamp it writes uses).`.trim();

export const READ_RESPONSE_EXAMPLES: Examples = {
  demoMerchant: { summary: "The demo merchant, Mama Put Foods Ltd", value: { success: true, data: DEMO_MERCHANT } },
};

// ---- PATCH /sandbox/v1/merchant ------------------------------------------------------------------

export const UPDATE_DESCRIPTION = `
Changes the calling merchant's settings and returns the merchant. Only the fields sent change, and nested
objects are merged field by field: \`{ "limits": { "payout_min": 500 } }\` keeps the other limits. The keys
cannot be changed, and \`wallet_balance\` is not a setting (credit the wallet with POST /sandbox/v1/wallet/fund,
or start over with POST /sandbox/v1/reset).

${SETTINGS}

- \`webhook_url: null\` removes the URL: events are then stored with status \`no_url\` (or answered by the
  built-in receiver when \`webhook_capture\` is set).
- \`clock.mode\` and \`clock.speed\` apply from the current instant. \`clock.now\` moves the clock to that time
  without firing the timers due on the way (they fire at the next advance, or the next request of a realtime
  clock); to fire them in order, use POST /sandbox/v1/clock/advance. A \`clock.now\` before the merchant's
  current time gets 422 on \`clock.now\`: the clock never goes back.
- \`ip_allowlist\` and \`limits.requests_per_minute\` guard /api/v1 only. The control API checks the keys and
  nothing else, so a merchant can never lock itself out of the settings that change them.`.trim();

export const UPDATE_BODY_EXAMPLES: Examples = {
  limitsAndDelays: {
    summary: "Hold payouts from NGN 2,000,000 for review, settle payouts in 10 s",
    value: { limits: { payout_review_threshold: 2000000 }, delays: { payout_settlement_seconds: 10 } },
  },
  webhookRetries: {
    summary: "Use the built-in receiver, which fails the first two deliveries (to watch the retries)",
    value: { webhook_url: null, webhook_capture: { fail_first: 2 } },
  },
  clockBackwards: {
    summary: "A clock.now before the merchant's current time",
    value: { clock: { now: "2026-01-01T00:00:00Z" } },
  },
};

export const UPDATE_RESPONSE_EXAMPLES: Examples = {
  limitsAndDelays: {
    summary: "The merchant with the new threshold and delay",
    value: {
      success: true,
      data: {
        ...DEMO_MERCHANT,
        limits: { ...DEFAULT_LIMITS, payout_review_threshold: 2000000 },
        delays: { ...DEFAULT_DELAYS, payout_settlement_seconds: 10 },
      },
    },
  },
  webhookRetries: {
    summary: "The merchant with the built-in receiver failing twice",
    value: { success: true, data: { ...DEMO_MERCHANT, webhook_capture: { fail_first: 2 } } },
  },
};

export const UPDATE_ERRORS = {
  422: {
    clockBackwards: validationError(
      "The clock never goes back",
      "clock.now",
      "The clock never goes backwards: give a time at or after the current sim time.",
    ),
    unknownSetting: validationError("The keys (and any unknown field) cannot be set", "api_key", "Unknown field."),
    webhookUrl: validationError("A webhook URL that is not http(s)", "webhook_url", "Must be an http(s) URL."),
  },
};

// ---- DELETE /sandbox/v1/merchant -----------------------------------------------------------------

export const DELETE_DESCRIPTION = `
Deletes the calling merchant, for test teardown on a long-running sandbox. At once and for good: its keys stop
working (any later call with them gets 401 \`INVALID_CREDENTIALS\`), its wallet, objects, events, outcome rules
and pending timers are gone (with \`--data\`, its file too), its account numbers and payment-link references are
released, and its place no longer counts against \`--max-merchants\`. Its pending webhook retries are dropped.

**The demo merchant is not protected.** Called with the demo keys (\`mch_demo\`, as /docs "try it" does), this
deletes the demo merchant like any other: its keys answer 401 (API, control API and dashboard alike) until the
sandbox restarts. At the next start the demo merchant is created again, fresh, with its sample activity (with
\`--data\` too, since its file was deleted). To empty a merchant but keep it, use POST /sandbox/v1/reset.`.trim();

export const DELETE_RESPONSE_EXAMPLES: Examples = {
  deleted: { summary: "The merchant is gone", value: { success: true, message: `Merchant ${DEMO.merchantId} deleted` } },
};

export const DELETE_ERRORS = {
  401: {
    alreadyDeleted: errorExample(
      "Keys of a merchant already deleted (or never created)",
      "INVALID_CREDENTIALS",
      "The API key and secret do not match an active account.",
    ),
    missingCredentials: errorExample("No X-Api-Key or X-Api-Secret header", "MISSING_CREDENTIALS", "Send both X-Api-Key and X-Api-Secret headers."),
  },
};
