/**
 * The merchant settings a person gives (major units: Naira, US dollars), accepted by
 * `POST /sandbox/v1/merchants`, `PATCH /sandbox/v1/merchant`, scenario files and the demo merchant
 * fixture: one schema validates all of them, with the bounds of the MerchantConfig record they
 * become (records.ts), so a setting accepted here is always a config that saves and loads.
 */
import { MAX_ALLOWLIST, MAX_AMOUNT, MAX_CLOCK, MAX_DELAY_SECONDS, MAX_RETRIES, MAX_RETRY_WAIT_SECONDS, MAX_WEBHOOK_TIMEOUT_SECONDS } from "./bounds.js";
import { amount, digits, httpUrl, ipAddress } from "./fields.js";
import { DEFAULTS } from "./merchant.js";
import { IDENTIFIER_DIGITS } from "./limits.js";
import { usdNgnRate } from "./records.js";
import { z } from "./zod.js";

const limit = (description: string) => amount({ min: 0, max: MAX_AMOUNT }).optional().describe(description);
const count = (description: string) => z.number().int().min(0).max(1_000_000).optional().describe(description);

const LimitsSchema = z
  .object({
    payout_min: limit(`Smallest payout in Naira (default ${DEFAULTS.limits.payout_min}).`),
    payout_max: limit(`Largest single payout in Naira (default ${DEFAULTS.limits.payout_max}).`),
    payout_hourly_amount: limit(`Naira paid out per rolling hour (default ${DEFAULTS.limits.payout_hourly_amount}).`),
    payout_daily_amount: limit(`Naira paid out per rolling 24 hours (default ${DEFAULTS.limits.payout_daily_amount}).`),
    payout_attempts_per_hour: count(`Payout attempts per rolling hour of the merchant's clock for the merchant; 0 = no cap (default ${DEFAULTS.limits.payout_attempts_per_hour}).`),
    payout_attempts_per_ip_per_hour: count(`Payout attempts per rolling hour of the merchant's clock per client IP; 0 = no cap (default ${DEFAULTS.limits.payout_attempts_per_ip_per_hour}, the spec's value).`),
    payout_review_threshold: limit(`Payouts at or above this Naira amount are held as pending_approval (default ${DEFAULTS.limits.payout_review_threshold}).`),
    requests_per_minute: count(`General requests per rolling minute of wall-clock time, whatever the merchant's clock; 0 = off (default ${DEFAULTS.limits.requests_per_minute}).`),
  })
  .strict();

const CapabilitiesSchema = z
  .object({
    payouts: z.boolean().optional(),
    vtu: z.boolean().optional(),
    virtual_cards: z.boolean().optional(),
    checkout: z.boolean().optional(),
  })
  .strict();

const ClockSchema = z
  .object({
    mode: z.enum(["manual", "realtime"]).optional(),
    speed: z.number().positive().max(100_000).optional(),
    now: z.iso
      .datetime({ offset: true })
      .refine((t) => Date.parse(t) >= 0 && Date.parse(t) <= MAX_CLOCK, { message: "Must be between 1970 and the end of 9998." })
      .optional()
      .describe("Sim time to start from (ISO 8601)."),
  })
  .strict();

const seconds = (description: string) => z.number().int().min(0).max(MAX_DELAY_SECONDS).optional().describe(description);
const DelaysSchema = z
  .object({
    payout_settlement_seconds: seconds(`processing -> completed/failed (default ${DEFAULTS.delays.payout_settlement_seconds}).`),
    vtu_settlement_seconds: seconds(`VTU processing -> settled (default ${DEFAULTS.delays.vtu_settlement_seconds}).`),
    kyc_approval_seconds: seconds(`Cardholder PENDING -> APPROVED (default ${DEFAULTS.delays.kyc_approval_seconds}).`),
  })
  .strict();

const WebhookSchema = z
  .object({
    signature_algorithm: z.enum(["sha256", "sha512"]).optional().describe(`HMAC algorithm (default ${DEFAULTS.webhook.signature_algorithm}).`),
    signature_encoding: z.enum(["hex", "base64"]).optional().describe(`Signature encoding (default ${DEFAULTS.webhook.signature_encoding}, lowercase).`),
    timeout_seconds: z.number().positive().max(MAX_WEBHOOK_TIMEOUT_SECONDS).optional().describe(`Wall seconds to wait for the receiver (default ${DEFAULTS.webhook.timeout_seconds}).`),
    retry_schedule_seconds: z
      .array(z.number().int().min(0).max(MAX_RETRY_WAIT_SECONDS))
      .max(MAX_RETRIES)
      .optional()
      .describe(`Sim seconds before each retry (default ${DEFAULTS.webhook.retry_schedule_seconds.join(", ")}); [] = no retries.`),
  })
  .strict();

/** The settings' fields, shared by the two schemas below (one object each: `.extend` of a strict,
 * named schema would document `allOf` of two closed objects, which no body can satisfy). */
const settingsShape = {
  business_name: z.string().trim().min(1).max(100).optional(),
  capabilities: CapabilitiesSchema.optional(),
  kyc: z
    .object({ bvn: digits(IDENTIFIER_DIGITS.bvn).nullable().optional(), nin: digits(IDENTIFIER_DIGITS.nin).nullable().optional() })
    .strict()
    .optional()
    .describe("The merchant's own KYC identifiers, used for individual virtual accounts without bvn or nin."),
  ip_allowlist: z.array(ipAddress).max(MAX_ALLOWLIST).optional().describe("Empty = allowlisting off."),
  webhook_url: httpUrl.nullable().optional(),
  webhook_capture: z
    .object({ fail_first: z.number().int().min(0).max(100).default(0) })
    .strict()
    .nullable()
    .optional()
    .describe(
      "The sandbox's own webhook receiver, used while webhook_url is null: deliveries are signed and logged as if sent, " +
        "answered 500 for the first fail_first and 200 after. null = off.",
    ),
  limits: LimitsSchema.optional(),
  card_funding_fee_usd: amount({ min: 0, max: 1000, currency: "USD" }).optional(),
  usd_ngn_rate: usdNgnRate.optional(),
  delays: DelaysSchema.optional(),
  webhook: WebhookSchema.optional(),
  clock: ClockSchema.optional(),
};

export const MerchantSettingsSchema = z.object(settingsShape).strict();

export const NewMerchantSchema = z
  .object({
    ...settingsShape,
    wallet_balance: amount({ min: 0 }).optional().describe(`Opening balance in Naira (default ${DEFAULTS.wallet_balance}).`),
  })
  .strict();

export type NewMerchantInput = z.infer<typeof NewMerchantSchema>;
