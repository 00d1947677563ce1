/**
 * The merchant's contract in the control API: open sign-up, the caller's own configuration, delete and
 * reset. Defaults, bounds and example merchants are read from the rules that make merchants.
 */
import { z } from "@hono/zod-openapi";
import { DEFAULT_MAX_MERCHANTS, MAX_ALLOWLIST, MAX_RETRIES, MAX_RETRY_WAIT_SECONDS, MAX_WEBHOOK_TIMEOUT_SECONDS, SIGNUPS_PER_MINUTE } from "../../domain/bounds.js";
import { amount, isoTime } from "../../domain/fields.js";
import { IDENTIFIER_DIGITS } from "../../domain/limits.js";
import { applySettings, DEFAULTS, merchantView, newMerchantConfig, type Credentials, type MerchantSettings } from "../../domain/merchant.js";
import { MerchantSettingsSchema, NewMerchantSchema } from "../../domain/merchant-settings.js";
import { thousands } from "../../domain/money.js";
import type { ClockMode, MerchantConfig } from "../../domain/records.js";
import { AT, DEMO, DEMO_BALANCE, DEMO_CONFIG } from "../../http/demo-examples.js";
import { INVALID_CREDENTIALS } from "../../http/errors.js";
import { body, errorExample, json } from "../../http/openapi.js";
import { routes, Success } from "../../http/route.js";
import { controlErrors, openErrors, validationError } from "../errors.js";

const route = routes({ tags: ["Sandbox"] });

const Merchant = z
  .object({
    merchant_id: z.string(),
    business_name: z.string(),
    api_key: z.string(),
    api_secret: z.string(),
    webhook_secret: z.string(),
    capabilities: z.object({ payouts: z.boolean(), vtu: z.boolean(), virtual_cards: z.boolean(), checkout: z.boolean() }),
    kyc: z.object({ bvn: z.string().nullable(), nin: z.string().nullable() }),
    ip_allowlist: z.array(z.string()),
    webhook_url: z.string().nullable(),
    webhook_capture: z.object({ fail_first: z.number().int() }).nullable(),
    limits: z.record(z.string(), z.number()),
    card_funding_fee_usd: z.number(),
    usd_ngn_rate: z.number(),
    delays: z.object({ payout_settlement_seconds: z.number(), vtu_settlement_seconds: z.number(), kyc_approval_seconds: z.number() }),
    webhook: z.object({
      signature_algorithm: z.enum(["sha256", "sha512"]),
      signature_encoding: z.enum(["hex", "base64"]),
      timeout_seconds: z.number(),
      retry_schedule_seconds: z.array(z.number()),
    }),
    created_at: isoTime,
    wallet_balance: z.number(),
    clock: z.object({ mode: z.enum(["manual", "realtime"]), speed: z.number(), now: isoTime }),
  })
  .openapi("Merchant");

const MerchantResponse = Success({ data: Merchant });

/** Sign-up's clock: time stands still until the test moves it. */
export const SIGN_UP_CLOCK: ClockMode = "manual";

// ---- Example merchants: made by the rules that make real ones, shown as the control API shows them ----

/** A merchant as GET /sandbox/v1/merchant shows it, at the examples' time. */
const shown = (config: MerchantConfig, wallet_balance: number) => ({ ...merchantView(config), wallet_balance, clock: { ...config.clock, now: AT } });

/** A merchant made by sign-up with these settings (the defaults fill the rest). */
function signedUp(credentials: Credentials, { wallet_balance = DEFAULTS.wallet_balance, ...settings }: MerchantSettings & { wallet_balance?: number }) {
  return shown(newMerchantConfig(credentials, settings, SIGN_UP_CLOCK, Date.parse(AT)), wallet_balance);
}

/** The demo merchant after its sample activity. */
const DEMO_MERCHANT = shown(DEMO_CONFIG, DEMO_BALANCE);

const { limits, delays, webhook } = DEFAULTS;
export const SETTINGS = `
The settings (every one optional; amounts in Naira with at most two decimals, unless named \`_usd\`):

| Setting | Default | What it does |
|---|---|---|
| \`business_name\` | \`${DEFAULTS.business_name}\` | Used in virtual account and payment-link account names |
| \`capabilities.payouts\` / \`.vtu\` / \`.virtual_cards\` / \`.checkout\` | all \`true\` | A capability turned off makes its /api/v1 routes answer 403 (\`PAYOUT_DISABLED\` or \`SERVICE_NOT_ENABLED\`) |
| \`kyc.bvn\`, \`kyc.nin\` | \`null\` | The merchant's own KYC (${IDENTIFIER_DIGITS.bvn} digits): the identity an individual virtual account without \`bvn\`/\`nin\` falls back to (else 422 \`KYC_REQUIRED\`) |
| \`ip_allowlist\` | \`[]\` (off) | At most ${MAX_ALLOWLIST} IPv4/IPv6 addresses allowed to call /api/v1 (else 403 \`IP_NOT_WHITELISTED\`) |
| \`webhook_url\` | \`null\` | An http(s) URL the events are POSTed to |
| \`webhook_capture\` | \`null\` | \`{ fail_first }\`: while \`webhook_url\` is null, the sandbox's built-in receiver answers each delivery (500 for the first \`fail_first\`, then 200), so retries show in GET /sandbox/v1/webhook-deliveries |
| \`limits.payout_min\`, \`.payout_max\` | ${thousands(limits.payout_min)}, ${thousands(limits.payout_max)} | Smallest and largest single payout (422 \`AMOUNT_BELOW_MINIMUM\` / \`AMOUNT_ABOVE_MAXIMUM\`) |
| \`limits.payout_hourly_amount\`, \`.payout_daily_amount\` | ${thousands(limits.payout_hourly_amount)}, ${thousands(limits.payout_daily_amount)} | Naira paid out per rolling hour / 24 hours (422 \`HOURLY_LIMIT_EXCEEDED\` / \`DAILY_LIMIT_EXCEEDED\`) |
| \`limits.payout_attempts_per_hour\` | ${thousands(limits.payout_attempts_per_hour)} | Payout attempts per rolling hour (on the merchant's clock) for the account; 0 = no cap (429 \`RATE_LIMITED\`) |
| \`limits.payout_attempts_per_ip_per_hour\` | ${thousands(limits.payout_attempts_per_ip_per_hour)} | Payout attempts per rolling hour (on the merchant's clock) per client IP; 0 = no cap (429 \`IP_RATE_LIMITED\`) |
| \`limits.payout_review_threshold\` | ${thousands(limits.payout_review_threshold)} | Payouts at or above it are held as \`pending_approval\` |
| \`limits.requests_per_minute\` | ${thousands(limits.requests_per_minute)} | Requests to /api/v1 per rolling minute of wall-clock time, whatever the merchant's clock; 0 = off (429 \`RATE_LIMITED\`) |
| \`card_funding_fee_usd\` | ${DEFAULTS.card_funding_fee_usd} | USD fee added to every card funding |
| \`usd_ngn_rate\` | ${DEFAULTS.usd_ngn_rate} | Naira per USD for card funding and unloads |
| \`delays.payout_settlement_seconds\` | ${delays.payout_settlement_seconds} | Sim seconds from \`processing\` to \`completed\`/\`failed\` |
| \`delays.vtu_settlement_seconds\` | ${delays.vtu_settlement_seconds} | Sim seconds before a processing VTU purchase settles |
| \`delays.kyc_approval_seconds\` | ${delays.kyc_approval_seconds} | Sim seconds before a new cardholder is \`APPROVED\` |
| \`webhook.signature_algorithm\`, \`.signature_encoding\` | \`${webhook.signature_algorithm}\`, \`${webhook.signature_encoding}\` | HMAC of \`X-Webhook-Signature\` (\`sha512\`; \`base64\`) |
| \`webhook.timeout_seconds\` | ${webhook.timeout_seconds} | Wall-clock seconds to wait for the receiver (at most ${MAX_WEBHOOK_TIMEOUT_SECONDS}) |
| \`webhook.retry_schedule_seconds\` | \`[${webhook.retry_schedule_seconds.join(", ")}]\` | Sim seconds before each retry; \`[]\` = no retries (at most ${MAX_RETRIES}, each at most ${MAX_RETRY_WAIT_SECONDS / 86_400} days) |
| \`clock.mode\`, \`.speed\`, \`.now\` | \`${SIGN_UP_CLOCK}\`, ${DEFAULTS.clock_speed}, the current time | \`manual\`: time moves only with POST /sandbox/v1/clock/advance. \`realtime\`: it follows the wall clock times \`speed\`. \`now\`: the sim time to start from |

Unknown fields are refused (422 \`VALIDATION_ERROR\` naming each one), so a misspelt setting never passes silently.
The delays and the review threshold are read when an object is created: objects already waiting keep theirs.`.trim();

const TOO_MANY_DECIMALS = validationError("Amounts have at most two decimals", "wallet_balance", "Must have at most two decimal places.");

const ADAS_KITCHEN = { business_name: "Ada's Kitchen", wallet_balance: 50000, webhook_capture: { fail_first: 1 }, delays: { payout_settlement_seconds: 10 } };

export const create = route({
  method: "post",
  path: "/merchants",
  operationId: "createMerchant",
  summary: "Create an isolated merchant with fresh keys (no authentication)",
  description: `
Signs up a new merchant and returns its keys: \`api_key\` and \`api_secret\` (send them as \`X-Api-Key\` and
\`X-Api-Secret\`) and the \`webhook_secret\` that signs its webhooks. **No authentication: send no keys.**
Each merchant is isolated (its own wallet, objects, outcome rules, event log and clock), so a test that makes
its own merchant never shares state with another. Answers 201.

An empty body \`{}\` gives the defaults. \`wallet_balance\` (Naira, default ${thousands(DEFAULTS.wallet_balance)}) is the opening balance,
credited by one \`wallet_funding\` ledger entry. **The clock is manual by default**: time stands still until
POST /sandbox/v1/clock/advance moves it, so payouts, VTU purchases and KYC settle exactly when the test says.

${SETTINGS}

Limits of the sandbox: sign-ups per client IP per rolling minute (${thousands(SIGNUPS_PER_MINUTE.default)}; ${thousands(SIGNUPS_PER_MINUTE.shared)} with \`--shared\`), over which
429 \`QUOTA_EXCEEDED\` with \`retry_after\`; and at most \`--max-merchants\` merchants (${thousands(DEFAULT_MAX_MERCHANTS)} by default), over
which 429 \`MERCHANT_LIMIT_REACHED\`: delete finished merchants with DELETE /sandbox/v1/merchant. With
\`--shared\`, a \`webhook_url\` naming a loopback or private address, or \`localhost\`, is refused (422 on
\`webhook_url\`).`.trim(),
  security: [],
  request: body(NewMerchantSchema.openapi("NewMerchant"), {
    testMerchant: { summary: "A merchant for one test: NGN 50,000, faster payouts, a built-in receiver that fails once", value: ADAS_KITCHEN },
    defaults: { summary: `Every setting at its default (NGN ${thousands(DEFAULTS.wallet_balance)}, ${SIGN_UP_CLOCK} clock)`, value: {} },
    tooManyDecimals: { summary: "An opening balance with three decimals", value: { wallet_balance: 1000.005 } },
  }),
  responses: {
    201: json(MerchantResponse, "The merchant and its keys", {
      testMerchant: {
        summary: "The new merchant with its keys",
        value: {
          success: true,
          data: signedUp(
            {
              merchant_id: "mch_LotIdAKqsOdusz",
              api_key: "pk_test_zIwPV3oyozL690vZb3FrKExJ",
              api_secret: "sk_test_LJ9aGO9THcFQdgDZMCUCa1QlOQBLzQC8",
              webhook_secret: "whsec_jXXhWDZqhSo4kmpmAAykJpKSCfWDmV1T",
            },
            ADAS_KITCHEN,
          ),
        },
      },
      defaults: {
        summary: "A merchant with the default settings",
        value: {
          success: true,
          data: signedUp(
            {
              merchant_id: "mch_DOS5IQAgph5mJL",
              api_key: "pk_test_VhSEYEFs0sDt8a567LXmYwJr",
              api_secret: "sk_test_qojII2BqkzGJaZJEdhkCrTEgui787wkp",
              webhook_secret: "whsec_lrp5YdrT9YVUGLh6AOIugAHhgF9VxdqP",
            },
            {},
          ),
        },
      },
    }),
    ...openErrors("sign-ups", {
      422: {
        tooManyDecimals: TOO_MANY_DECIMALS,
        unknownSetting: validationError("A setting that does not exist (here a misspelt one)", "webhook_urls", "Unknown field."),
      },
    }),
  },
});

export const read = route({
  method: "get",
  path: "/merchant",
  operationId: "getMerchant",
  summary: "The calling merchant's configuration",
  description: `
The calling merchant's configuration: \`merchant_id\`, its keys and \`webhook_secret\`, every setting with the
defaults filled in (amounts in Naira; \`card_funding_fee_usd\` in USD), \`wallet_balance\` (Naira) and \`clock\`
(\`mode\`, \`speed\`, and \`now\`, the merchant's own sim time, which every timestamp it writes uses).`.trim(),
  responses: {
    200: json(MerchantResponse, "The merchant", { demoMerchant: { summary: "The demo merchant, Mama Put Foods Ltd", value: { success: true, data: DEMO_MERCHANT } } }),
    ...controlErrors(),
  },
});

const LIMITS_AND_DELAYS = { limits: { payout_review_threshold: 2000000 }, delays: { payout_settlement_seconds: 10 } };
const WEBHOOK_RETRIES = { webhook_url: null, webhook_capture: { fail_first: 2 } };

export const update = route({
  method: "patch",
  path: "/merchant",
  operationId: "updateMerchant",
  summary: "Change the calling merchant's settings (fields not sent are kept)",
  description: `
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
  nothing else, so a merchant can never lock itself out of the settings that change them.`.trim(),
  request: body(MerchantSettingsSchema.openapi("MerchantSettings"), {
    limitsAndDelays: { summary: "Hold payouts from NGN 2,000,000 for review, settle payouts in 10 s", value: LIMITS_AND_DELAYS },
    webhookRetries: { summary: "Use the built-in receiver, which fails the first two deliveries (to watch the retries)", value: WEBHOOK_RETRIES },
    clockBackwards: { summary: "A clock.now before the merchant's current time", value: { clock: { now: "2026-01-01T00:00:00Z" } } },
  }),
  responses: {
    200: json(MerchantResponse, "The updated merchant", {
      limitsAndDelays: {
        summary: "The merchant with the new threshold and delay",
        value: { success: true, data: shown(applySettings(DEMO_CONFIG, LIMITS_AND_DELAYS), DEMO_BALANCE) },
      },
      webhookRetries: {
        summary: "The merchant with the built-in receiver failing twice",
        value: { success: true, data: shown(applySettings(DEMO_CONFIG, WEBHOOK_RETRIES), DEMO_BALANCE) },
      },
    }),
    ...controlErrors({
      422: {
        clockBackwards: validationError("The clock never goes back", "clock.now", "The clock never goes backwards: give a time at or after the current sim time."),
        unknownSetting: validationError("The keys (and any unknown field) cannot be set", "api_key", "Unknown field."),
        webhookUrl: validationError("A webhook URL that is not http(s)", "webhook_url", "Must be an http(s) URL."),
      },
    }),
  },
});

export const remove = route({
  method: "delete",
  path: "/merchant",
  operationId: "deleteMerchant",
  summary: "Delete the calling merchant: its keys stop working and its state is gone (the demo merchant too)",
  description: `
Deletes the calling merchant, for test teardown on a long-running sandbox. At once and for good: its keys stop
working (any later call with them gets 401 \`INVALID_CREDENTIALS\`), its wallet, objects, events, outcome rules
and pending timers are gone (with \`--data\`, its file too), its account numbers and payment-link references are
released, and its place no longer counts against \`--max-merchants\`. Its pending webhook retries are dropped.

**The demo merchant is not protected.** Called with the demo keys (\`mch_demo\`, as /docs "try it" does), this
deletes the demo merchant like any other: its keys answer 401 (API, control API and dashboard alike) until the
sandbox restarts. At the next start the demo merchant is created again, fresh, with its sample activity (with
\`--data\` too, since its file was deleted). To empty a merchant but keep it, use POST /sandbox/v1/reset.`.trim(),
  responses: {
    200: json(Success({ message: z.string() }), "Deleted", {
      deleted: { summary: "The merchant is gone", value: { success: true, message: `Merchant ${DEMO.merchantId} deleted` } },
    }),
    ...controlErrors({
      401: {
        alreadyDeleted: errorExample("Keys of a merchant already deleted (or never created)", "INVALID_CREDENTIALS", INVALID_CREDENTIALS),
        missingCredentials: errorExample("No X-Api-Key or X-Api-Secret header", "MISSING_CREDENTIALS", "Send both X-Api-Key and X-Api-Secret headers."),
      },
    }),
  },
});

export const reset = route({
  method: "post",
  path: "/reset",
  operationId: "resetMerchant",
  summary: "Empty the merchant's state (keeps keys, settings and clock); optionally fund the new wallet",
  description: `
Empties the calling merchant and starts it over: a clean slate between tests without new keys. Gone: the ledger,
every object (virtual accounts and their payments, payment links, payouts, VTU purchases, cardholders, cards and
their transactions), the events and webhook deliveries, the outcome rules, the pending timers, the rate-limit windows
and the incidents; the account numbers and link references it held are released, and cardholder and card ids
start from 1 again. Kept: the keys, every setting and the clock (which does not go back). No webhook is sent.

The body is optional. \`wallet_balance\` (Naira, at least 0, at most two decimals) funds the new wallet with one
\`wallet_funding\` ledger entry; without it the wallet starts at 0. Answers with the merchant, as GET
/sandbox/v1/merchant shows it.

**On the demo merchant** (as /docs "try it" calls it) this removes the sample activity: the demo's virtual
account, payment link, payouts, VTU purchase, cardholders, cards and outcome rule no longer exist. They come back
only when the demo merchant is created again: at the next start without \`--data\`; with \`--data\` the demo is
restored from its file as it now is, unless the merchant was deleted (DELETE /sandbox/v1/merchant).`.trim(),
  request: {
    body: {
      // Optional: without a body, validation hands over {}.
      required: false,
      content: {
        "application/json": {
          schema: z.object({ wallet_balance: amount({ min: 0 }).optional() }).openapi("Reset"),
          examples: {
            resetFunded: { summary: "Start over with NGN 100,000", value: { wallet_balance: 100000 } },
            resetEmpty: { summary: "Start over with an empty wallet", value: {} },
            tooManyDecimals: { summary: "An opening balance with three decimals", value: { wallet_balance: 100.555 } },
          },
        },
      },
    },
  },
  responses: {
    200: json(MerchantResponse, "The merchant after reset", {
      resetFunded: { summary: "The merchant, its wallet at NGN 100,000", value: { success: true, data: shown(DEMO_CONFIG, 100000) } },
      resetEmpty: { summary: "The merchant, its wallet empty", value: { success: true, data: shown(DEMO_CONFIG, 0) } },
    }),
    ...controlErrors({ 422: { tooManyDecimals: TOO_MANY_DECIMALS } }),
  },
});
