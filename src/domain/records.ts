/**
 * One schema per record a merchant holds, with the sandbox's bounds; every type is inferred from its
 * schema. Records are plain data (times in ms since 1970, money in integer minor units), so they can
 * be saved and restored: snapshots and `--data` files are composed from these schemas (store/), and
 * whatever the server holds passes them, so whatever it saves it can load.
 */
import {
  MAX_ALLOWLIST,
  MAX_AMOUNT_MINOR,
  MAX_BALANCE_MINOR,
  MAX_DELAY_SECONDS,
  MAX_NARRATION,
  MAX_RETRIES,
  MAX_RESPONSE_DELAY_SECONDS,
  MAX_RETRY_WAIT_SECONDS,
  MAX_STATUS_QUERIES,
  MAX_TIME,
  MAX_URL_LENGTH,
  MAX_USD_NGN_RATE,
  MAX_WEBHOOK_TIMEOUT_SECONDS,
  MIN_TIME,
  RATE_DECIMALS,
} from "./bounds.js";
import { httpUrl, ipAddress } from "./fields.js";
import { PAYOUT_FEE_CAP } from "./limits.js";
import { z } from "./zod.js";

// ---- Building blocks ---------------------------------------------------------------------------

export const timestamp = z.number().int().min(MIN_TIME).max(MAX_TIME);
const optionalTime = timestamp.nullable();
/** An amount of money in minor units (kobo or cents), never negative. */
const minor = z.number().int().min(0).max(MAX_AMOUNT_MINOR);
/** A balance in minor units. */
const balance = z.number().int().min(0).max(MAX_BALANCE_MINOR);
const count = z.number().int().min(0).max(1_000_000);
const seq = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
/** Identifiers the service generates or the merchant chooses. */
const id = z.string().min(1).max(100);
const name = z.string().max(200);
/** A name built from others: `{business_name}-{first last}` for a virtual account, up to 100 + 1 + 201. */
const composedName = z.string().max(400);
const label = z.string().max(500);
const url = z.string().max(MAX_URL_LENGTH);
const seconds = (max: number) => z.number().int().min(0).max(max);

// ---- Merchant ----------------------------------------------------------------------------------

export const CAPABILITIES = ["payouts", "vtu", "virtual_cards", "checkout"] as const;
export type Capability = (typeof CAPABILITIES)[number];

export const MerchantLimitsRecord = z.object({
  payout_min: minor,
  payout_max: minor,
  payout_hourly_amount: minor,
  payout_daily_amount: minor,
  /** 0 = no cap */
  payout_attempts_per_hour: count,
  /** The spec's 20 per hour per IP; counted per merchant and IP. 0 = no cap. */
  payout_attempts_per_ip_per_hour: count,
  payout_review_threshold: minor,
  /** General per-minute request cap across all endpoints; 0 = off. */
  requests_per_minute: count,
});
export type MerchantLimits = z.infer<typeof MerchantLimitsRecord>;

export const WebhookSettingsRecord = z.object({
  /** HMAC algorithm of X-Webhook-Signature. */
  signature_algorithm: z.enum(["sha256", "sha512"]),
  signature_encoding: z.enum(["hex", "base64"]),
  /** Wall-clock seconds to wait for the receiver's answer. */
  timeout_seconds: z.number().positive().max(MAX_WEBHOOK_TIMEOUT_SECONDS),
  /** Sim seconds after each failed attempt before the next; its length is the number of retries. */
  retry_schedule_seconds: z.array(seconds(MAX_RETRY_WAIT_SECONDS)).max(MAX_RETRIES),
});
export type WebhookSettings = z.infer<typeof WebhookSettingsRecord>;

export const DelaysRecord = z.object({
  payout_settlement_seconds: seconds(MAX_DELAY_SECONDS),
  vtu_settlement_seconds: seconds(MAX_DELAY_SECONDS),
  kyc_approval_seconds: seconds(MAX_DELAY_SECONDS),
});
export type MerchantDelays = z.infer<typeof DelaysRecord>;

/** Naira per US dollar, with at most RATE_DECIMALS decimals (card money is converted exactly from it). */
export const usdNgnRate = z
  .number()
  .positive()
  .max(MAX_USD_NGN_RATE)
  .refine((r) => Math.abs(r * 10 ** RATE_DECIMALS - Math.round(r * 10 ** RATE_DECIMALS)) < 1e-6, { message: `Must have at most ${RATE_DECIMALS} decimal places.` });

export const ClockSettingsRecord = z.object({ mode: z.enum(["manual", "realtime"]), speed: z.number().positive().max(100_000) });
export type ClockMode = z.infer<typeof ClockSettingsRecord>["mode"];
/** A clock's settings, with the sim time it shows (ms since 1970; defaults to the wall clock when absent). */
export interface ClockSettings {
  mode: ClockMode;
  speed: number;
  now?: number;
}

const ScenarioOriginRecord = z.object({
  /** The file's absolute path, and the merchant's alias in it. */
  file: z.string().max(4096),
  alias: z.string().max(100),
  /** SHA-256 of the file's text when the merchant was made: a restart compares it to tell of edits. */
  digest: z.string().regex(/^[0-9a-f]{64}$/),
});

/** API keys and secrets: they travel in HTTP headers. */
export const secret = z.string().min(16).max(100).regex(/^[\x21-\x7e]+$/, { message: "Must be printable ASCII without spaces." });

export const MerchantConfigRecord = z.object({
  merchant_id: z.string().min(1).max(64).regex(/^[\w-]+$/),
  business_name: z.string().min(1).max(100),
  api_key: secret,
  api_secret: secret,
  webhook_secret: secret,
  capabilities: z.object({ payouts: z.boolean(), vtu: z.boolean(), virtual_cards: z.boolean(), checkout: z.boolean() }),
  kyc: z.object({ bvn: z.string().regex(/^\d{11}$/).nullable(), nin: z.string().regex(/^\d{11}$/).nullable() }),
  ip_allowlist: z.array(ipAddress).max(MAX_ALLOWLIST),
  webhook_url: httpUrl.nullable(),
  /**
   * The sandbox's own receiver, used while no webhook_url is set: deliveries are signed and logged as
   * if sent, and answered 500 for the first `fail_first`, then 200 (a scenario's `webhook_capture`).
   */
  webhook_capture: z.object({ fail_first: z.number().int().min(0).max(100) }).nullable().default(null),
  limits: MerchantLimitsRecord,
  /** US cents charged per card funding, on top of the amount. */
  card_funding_fee: z.number().int().min(0).max(100_000),
  usd_ngn_rate: usdNgnRate,
  clock: ClockSettingsRecord,
  webhook: WebhookSettingsRecord,
  /** Default lifecycle delays, in sim seconds; an outcome rule's delay_seconds overrides them. */
  delays: DelaysRecord,
  created_at: timestamp,
  /** Set for merchants a `--scenario` file made at start, so a restart with `--data` can find them again. */
  scenario_origin: ScenarioOriginRecord.nullable().default(null),
});
export type MerchantConfig = z.infer<typeof MerchantConfigRecord>;

// ---- Money -------------------------------------------------------------------------------------

export const LEDGER_KINDS = [
  "wallet_funding",
  "va_payment",
  "checkout_payment",
  "payout",
  "payout_fee",
  "payout_reversal",
  "vtu_purchase",
  "vtu_refund",
  "card_funding",
  "card_funding_fee",
  "card_unload",
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

export const LedgerEntryRecord = z.object({
  entry_id: z.number().int().min(1),
  at: timestamp,
  kind: z.enum(LEDGER_KINDS),
  /** Signed: credits positive, debits negative. */
  amount: z.number().int().min(-MAX_BALANCE_MINOR).max(MAX_BALANCE_MINOR),
  balance_after: balance,
  transaction_id: id,
  /** Left out where the entry's record gives the text when read: a payout's, its fee's, an inbound transfer's (ledger.ts: `describer`). */
  description: label.optional().openapi({
    description:
      "Always written out in GET /sandbox/v1/snapshot. A document may leave it out of a `payout`'s and a `payout_fee`'s entry (the text is then made from the payout whose order_no is the transaction_id) and a `va_payment`'s (from the payment): the sandbox keeps those texts that way.",
  }),
});
export type LedgerEntry = z.infer<typeof LedgerEntryRecord>;

// ---- Virtual accounts and checkout ---------------------------------------------------------------

export const IdentityRecord = z.object({
  type: z.enum(["bvn", "nin", "cac"]),
  value: z.string().max(20),
  /** Whether the customer's own identifier was used or the merchant's KYC fallback. */
  source: z.enum(["customer", "merchant_kyc"]),
});
export type Identity = z.infer<typeof IdentityRecord>;

const nuban = z.string().regex(/^\d{10}$/);

export const VirtualAccountRecord = z.object({
  account_number: nuban,
  account_name: composedName,
  bank_name: name,
  customer_type: z.enum(["individual", "business"]),
  customer_name: composedName,
  customer_email: z.string().max(254),
  reference: id,
  status: z.literal("Enabled"),
  identity: IdentityRecord,
  created_at: timestamp,
});
export type VirtualAccount = z.infer<typeof VirtualAccountRecord>;

/** The spec's transaction statuses: a transfer arrives `success`, or `pending`/`processing` and then ends `success` or `failed`. */
export const VA_PAYMENT_STATUSES = ["pending", "processing", "success", "failed"] as const;

const VaPaymentPlanRecord = z.object({
  /** How a pending or processing transfer ends: cleared (credited) or failed (returned to the payer). */
  outcome: z.enum(["success", "failed"]),
  delay_ms: z.number().int().min(0).max(MAX_DELAY_SECONDS * 1000),
});

export const VaPaymentRecord = z.object({
  transaction_id: id,
  /** The payer's narration, verbatim: empty, spaces and all. */
  reference: z.string().max(MAX_NARRATION),
  amount: minor,
  currency: z.literal("NGN"),
  status: z.enum(VA_PAYMENT_STATUSES),
  payer_name: name,
  payer_bank: name,
  virtual_account: nuban,
  created_at: timestamp,
  /** For a transfer that arrived pending or processing: how it ends (files from before it was added: null, they were all `success`). */
  plan: VaPaymentPlanRecord.nullable().default(null),
});
export type VaPayment = z.infer<typeof VaPaymentRecord>;

export const CheckoutRecord = z.object({
  reference: id,
  transaction_id: id,
  amount: minor,
  description: z.string().max(200).nullable(),
  redirect_url: httpUrl.nullable(),
  customer_email: z.string().max(254).nullable(),
  customer_name: name.nullable(),
  account_number: nuban,
  account_name: name,
  bank_name: name,
  /** `expired` is derived from the clock when read; only `pending` and `paid` are stored. */
  status: z.enum(["pending", "paid"]),
  created_at: timestamp,
  expires_at: timestamp,
  paid_at: optionalTime,
});
export type Checkout = z.infer<typeof CheckoutRecord>;

// ---- Outcome plans and rules ---------------------------------------------------------------------

/**
 * Status reads (GET .../status) left before a processing object settles on a read instead of by its
 * timer (outcomes with `queries`); null: it settles by its timer. Older files have no such field.
 */
const queriesLeft = z.number().int().min(0).max(MAX_STATUS_QUERIES).nullable().default(null);

export const PayoutPlanRecord = z.object({
  /** `hold`: stays processing until a control call forces it. */
  outcome: z.enum(["completed", "failed", "hold"]),
  delay_ms: z.number().int().min(0).max(MAX_DELAY_SECONDS * 1000),
  error: z.string().max(200).nullable(),
  queries: queriesLeft,
});
export type PayoutPlan = z.infer<typeof PayoutPlanRecord>;

const VtuPlanRecord = z.object({
  /** For a processing purchase: how it settles (`hold` = until forced). */
  then: z.enum(["success", "fail", "hold"]),
  delay_ms: z.number().int().min(0).max(MAX_DELAY_SECONDS * 1000),
  queries: queriesLeft,
});

export const OUTCOMES = {
  payout: ["completed", "failed", "processing"],
  vtu: ["success", "fail", "processing_success", "processing_fail", "processing"],
  kyc: ["approved", "pending"],
  verify_account: ["not_found", "timeout"],
  bank: ["down"],
  response: ["connection_reset", "slow_response", "server_error", "gateway_timeout"],
  card_fund: ["failed"],
  webhook: ["duplicate", "delay", "out_of_order", "bad_signature", "drop"],
} as const;
export type OutcomeTarget = keyof typeof OUTCOMES;
export const OUTCOME_TARGETS = Object.keys(OUTCOMES) as [OutcomeTarget, ...OutcomeTarget[]];

/** The outcomes that can settle on the Nth status read (`queries`) instead of after a delay. */
export const QUERY_OUTCOMES: Partial<Record<OutcomeTarget, readonly string[]>> = {
  payout: ["completed", "failed"],
  vtu: ["processing_success", "processing_fail"],
};

/**
 * The operations a `response` rule can fault, by operationId: the /api/v1 POSTs that move money, where
 * a lost or late answer leaves the merchant unsure whether it was paid (and a blind retry pays twice).
 */
export const RESPONSE_OPERATIONS = ["createPayout", "buyAirtime", "buyData", "payCable", "buyElectricity", "buyExamPins", "fundVirtualCard", "unloadVirtualCard"] as const;

/** Targets whose `delay_seconds` is wall-clock time the reply is held back, so bounded tightly. */
const WALL_CLOCK_DELAY_TARGETS: readonly OutcomeTarget[] = ["response", "verify_account"];

/** The longest `delay_seconds` a rule of this target takes. */
export const maxDelaySeconds = (target: OutcomeTarget) => (WALL_CLOCK_DELAY_TARGETS.includes(target) ? MAX_RESPONSE_DELAY_SECONDS : MAX_DELAY_SECONDS);

/**
 * Per target, the outcomes a `delay_seconds` applies to and the request fields a `match` can name (as
 * the outcome rules' docs table gives them): what the dashboard's rule form offers.
 */
export const RULE_SHAPES: Record<OutcomeTarget, { delay: readonly string[]; match: readonly string[] }> = {
  payout: { delay: OUTCOMES.payout, match: ["reference", "amount", "bank_code", "account_number", "account_name", "bank_name", "narration"] },
  vtu: {
    delay: ["processing_success", "processing_fail"],
    match: ["service", "amount", "phone", "network", "airtime_type", "data_plan_id", "provider_name", "cable_plan_id", "smart_card_number", "disco_id", "meter_number", "meter_type", "exam_type_id", "quantity"],
  },
  kyc: { delay: ["approved"], match: ["email", "first_name", "last_name", "phone"] },
  verify_account: { delay: ["timeout"], match: ["bank_code", "account_number"] },
  bank: { delay: [], match: ["bank_code"] },
  response: { delay: OUTCOMES.response, match: ["operation", "account_number", "amount", "reference", "phone", "id"] },
  card_fund: { delay: [], match: ["card_id", "amount"] },
  webhook: { delay: ["delay"], match: ["event"] },
};

const matchValue = z.union([z.string().max(200), z.number(), z.boolean()]);
export type MatchValue = z.infer<typeof matchValue>;
/** How many fields a rule's `match` may name. */
export const MAX_MATCH_FIELDS = 20;

/** Field values a rule matches, compared as text. */
export const ruleMatch = z
  .record(z.string().min(1).max(64), matchValue)
  .refine((m) => Object.keys(m).length <= MAX_MATCH_FIELDS, { message: `At most ${MAX_MATCH_FIELDS} fields.` });

export const OutcomeRuleRecord = z
  .object({
    id: z.string().regex(/^rule_\d{1,15}$/),
    target: z.enum(OUTCOME_TARGETS),
    match: ruleMatch.nullable(),
    outcome: z.string().max(40),
    delay_seconds: seconds(MAX_DELAY_SECONDS).nullable(),
    /** Uses left; null = until deleted. */
    times: z.number().int().min(1).max(1_000_000).nullable(),
    /** Sim seconds from `created_at` during which the rule applies (on the merchant's clock); null = until deleted. */
    window_seconds: z.number().int().min(1).max(MAX_DELAY_SECONDS).nullable().default(null),
    /** Status reads before the object settles, instead of `delay_seconds` (QUERY_OUTCOMES only); null = by the delay. */
    queries: z.number().int().min(1).max(MAX_STATUS_QUERIES).nullable().default(null),
    created_at: timestamp,
  })
  .superRefine((r, ctx) => {
    for (const [field, message] of Object.entries(ruleProblems(r))) ctx.addIssue({ code: "custom", path: field.split("."), message });
  });
export type OutcomeRule = z.infer<typeof OutcomeRuleRecord>;

/**
 * What makes a rule inconsistent, by field (dotted path): the one check behind POST /sandbox/v1/outcomes,
 * scenario files and snapshots alike.
 */
export function ruleProblems(r: Pick<OutcomeRule, "target" | "outcome" | "match" | "delay_seconds" | "queries">): Record<string, string> {
  const allowed: readonly string[] = OUTCOMES[r.target];
  if (!allowed.includes(r.outcome)) return { outcome: `For target ${r.target} the outcome must be one of: ${allowed.join(", ")}.` };
  const problems: Record<string, string> = {};
  if (r.queries !== null) {
    if (!QUERY_OUTCOMES[r.target]?.includes(r.outcome)) {
      problems.queries = "Only payout outcomes completed and failed, and vtu outcomes processing_success and processing_fail, can settle on status reads.";
    } else if (r.delay_seconds !== null) {
      problems.queries = "Give queries or delay_seconds, not both: the object settles on its Nth status read, or after the delay.";
    }
  }
  if (r.delay_seconds !== null && r.delay_seconds > maxDelaySeconds(r.target)) {
    problems.delay_seconds = `For target ${r.target}, delay_seconds is wall-clock time the reply is held back: at most ${maxDelaySeconds(r.target)}.`;
  }
  const operation = r.match?.operation;
  if (r.target === "response" && operation !== undefined && !RESPONSE_OPERATIONS.some((o) => o.toLowerCase() === String(operation).toLowerCase())) {
    problems["match.operation"] = `Response faults apply to these operations only: ${RESPONSE_OPERATIONS.join(", ")}.`;
  }
  return problems;
}

// ---- Payouts, VTU, cards -------------------------------------------------------------------------

/** The spec also names `pending` ("just created and not yet sent"); the sandbox never holds a payout in it. */
export const PAYOUT_STATUSES = ["pending_approval", "processing", "completed", "failed"] as const;

export const PayoutRecord = z.object({
  reference: id,
  order_no: id,
  amount: minor,
  fee: minor,
  /** amount + fee: up to the largest amount plus the fee cap. */
  total_deducted: z.number().int().min(0).max(MAX_AMOUNT_MINOR + PAYOUT_FEE_CAP),
  status: z.enum(PAYOUT_STATUSES),
  bank_code: z.string().regex(/^\d{3,6}$/),
  bank_name: name,
  account_number: nuban,
  account_name: name,
  narration: z.string().max(MAX_NARRATION).nullable(),
  /** The spec's status endpoint shows where a payout came from: every sandbox payout comes through the API. */
  source: z.literal("api"),
  client_ip: z.string().max(64),
  created_at: timestamp,
  processed_at: optionalTime,
  error: z.string().max(200).nullable(),
  /** How it will settle, decided at creation (outcome rules, magic values, default). */
  plan: PayoutPlanRecord,
});
export type Payout = z.infer<typeof PayoutRecord>;

export const VTU_SERVICES = ["airtime", "data", "cable", "electricity", "exam"] as const;
export type VtuService = (typeof VTU_SERVICES)[number];

export const ExamPinRecord = z.object({ pin: z.string().max(40), serial: z.string().max(40) });
export type ExamPin = z.infer<typeof ExamPinRecord>;

export const VtuPurchaseRecord = z.object({
  reference: id,
  transaction_id: id,
  service: z.enum(VTU_SERVICES),
  amount: minor,
  status: z.enum(["success", "processing", "fail"]),
  message: label,
  description: label,
  token: z.string().max(40).nullable(),
  pins: z.array(ExamPinRecord).max(20).nullable(),
  /** The request's own fields (phone, network, plan id, meter...), kept for the record. */
  details: z
    .record(z.string().max(40), z.union([z.string().max(300), z.number(), z.null()]))
    .refine((d) => Object.keys(d).length <= 20, { message: "At most 20 fields." }),
  /** What a success delivers: a prepaid token, exam pins (`details.quantity` of them) or nothing. */
  issues: z.enum(["token", "pins"]).nullable(),
  /** For a processing purchase: how it settles. */
  plan: VtuPlanRecord.nullable(),
  created_at: timestamp,
  settled_at: optionalTime,
});
export type VtuPurchase = z.infer<typeof VtuPurchaseRecord>;

export const CardholderRecord = z.object({
  cardholder_id: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  first_name: name,
  last_name: name,
  full_name: z.string().max(401),
  email: z.string().max(254),
  phone: z.string().max(20).nullable(),
  kyc_status: z.enum(["PENDING", "APPROVED"]),
  created_at: timestamp,
});
export type Cardholder = z.infer<typeof CardholderRecord>;

export const CARD_BRANDS = ["VISA", "MASTERCARD"] as const;
export type CardBrand = (typeof CARD_BRANDS)[number];
export type CardStatus = "active" | "frozen" | "terminated";

export const CardRecord = z.object({
  card_id: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  cardholder_id: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  brand: z.enum(CARD_BRANDS),
  pan: z.string().regex(/^\d{16}$/),
  masked_pan: z.string().max(19),
  expiry_month: z.number().int().min(1).max(12),
  expiry_year: z.number().int().min(1970).max(10_002),
  currency: z.literal("USD"),
  /** US cents */
  balance,
  status: z.enum(["active", "frozen", "terminated"]),
  label: name.nullable(),
  created_at: timestamp,
});
export type Card = z.infer<typeof CardRecord>;

export const CardTransactionRecord = z.object({
  transaction_id: id,
  card_id: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  type: z.enum(["funding", "unload", "spend"]),
  status: z.enum(["success", "declined"]),
  /** US cents, always positive; `type` says the direction. */
  amount: minor,
  balance_after: balance,
  description: label,
  merchant_name: name.nullable(),
  decline_reason: name.nullable(),
  created_at: timestamp,
});
export type CardTransaction = z.infer<typeof CardTransactionRecord>;

// ---- Time: timers and a scenario's timeline --------------------------------------------------------

export const TIMER_KINDS = ["payout.settle", "vtu.settle", "kyc.approve", "timeline.run", "webhook.attempt", "va_payment.settle"] as const;
/** `webhook.attempt` timers are run by the webhook dispatcher (I/O); the others by the domain. */
export type TimerKind = (typeof TIMER_KINDS)[number];

export const TimerRecord = z.object({ at: timestamp, seq, kind: z.enum(TIMER_KINDS), merchantId: z.string().max(64), ref: z.string().max(200) });
export type Timer = z.infer<typeof TimerRecord>;

export const TimelineActionRecord = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("transfer"),
    account_number: nuban,
    amount: minor,
    narration: z.string().max(MAX_NARRATION).optional(),
    payer_name: name.optional(),
    payer_bank: name.optional(),
    status: z.enum(["success", "pending", "processing"]).optional(),
    outcome: z.enum(["success", "failed"]).optional(),
    settle_after_seconds: seconds(MAX_DELAY_SECONDS).optional(),
  }),
  z.object({ kind: z.literal("pay_link"), reference: id, amount: minor.optional() }),
]);
export type TimelineAction = z.infer<typeof TimelineActionRecord>;

export const TimelineEntryRecord = z.object({
  index: z.number().int().min(0),
  at: timestamp,
  action: TimelineActionRecord,
  /** null until it runs; then "ok" or the refusal's error code and message. */
  result: z.string().max(1000).nullable(),
});
export type TimelineEntry = z.infer<typeof TimelineEntryRecord>;

// ---- Webhooks ----------------------------------------------------------------------------------------

export const EVENT_STATUSES = ["pending", "delivered", "failed", "no_url", "held"] as const;

/** `test`: the one attempt of a `webhook.test` event, made when the merchant asks (never retried). */
export const DeliveryTriggers = ["initial", "retry", "redeliver", "duplicate", "released", "test"] as const;
/** delivered (2xx) | failed (anything else) | deferred (delay fault) | held (out_of_order fault) */
export const DeliveryOutcomes = ["delivered", "failed", "deferred", "held"] as const;
export type DeliveryTrigger = (typeof DeliveryTriggers)[number];

/** One attempt to deliver an event, with everything a developer needs to debug their receiver. */
export const WebhookDeliveryRecord = z.object({
  id,
  event_id: id,
  event_type: z.string().max(64),
  trigger: z.enum(DeliveryTriggers),
  url,
  sent_at: timestamp,
  nonce: z.string().max(64).nullable(),
  request_headers: z
    .record(z.string().max(100), z.string().max(1000))
    .refine((h) => Object.keys(h).length <= 20, { message: "At most 20 headers." }),
  request_body: z.string().max(65_536).nullable(),
  status_code: z.number().int().min(100).max(999).nullable(),
  error: z.string().max(1000).nullable(),
  latency_ms: z.number().min(0).max(86_400_000).nullable(),
  response_excerpt: z.string().max(500).nullable(),
  outcome: z.enum(DeliveryOutcomes),
  fault: z.string().max(40).nullable(),
  next_retry_at: optionalTime,
});
export type WebhookDelivery = z.infer<typeof WebhookDeliveryRecord>;

/** Something that went wrong in the background for this merchant (a timer or a delivery), kept so it can be seen. */
export const IncidentRecord = z.object({ at: timestamp, where: z.string().max(200), error: z.string().max(1000) });
export type Incident = z.infer<typeof IncidentRecord>;

// ---- Rate windows ------------------------------------------------------------------------------------

const VolumeEntryRecord = z.object({ at: timestamp, reference: id, amount: minor, counted: z.boolean() });

export const VolumeWindowRecord = z.object({
  entries: z.array(VolumeEntryRecord),
  /** Index of the first entry inside the day window, and of the first inside the hour window. */
  dayStart: z.number().int().min(0),
  hourStart: z.number().int().min(0),
  daySum: balance,
  hourSum: balance,
});
export type VolumeWindow = z.infer<typeof VolumeWindowRecord>;
