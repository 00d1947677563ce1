/**
 * The scenario file format (`scenarios/*.yaml`): merchants, initial objects, outcome rules, a
 * timeline of simulated events on each merchant's clock, and optional steps with expectations.
 * One zod schema validates a file and is the reference for its fields. Its fields use the domain's
 * own rules and bounds (amounts with two decimals and a ceiling, http(s) URLs...), and a scenario is
 * bounded as a whole, since anyone may post one to a running sandbox.
 */
import { MAX_CLOCK, MAX_DELAY_SECONDS, MAX_NARRATION, MAX_OUTCOME_RULES, MAX_STATUS_QUERIES } from "../domain/bounds.js";
import { CARD_AMOUNT_USD, CARD_LABEL_MAX } from "../domain/cards.js";
import { amount, email } from "../domain/fields.js";
import { CHECKOUT_DESCRIPTION_MAX, CHECKOUT_MIN_AMOUNT } from "../domain/limits.js";
import { NewMerchantSchema } from "../domain/merchant-settings.js";
import { OUTCOME_TARGETS, ruleMatch, secret } from "../domain/records.js";
import { TransferArrivalFields, refineArrival } from "../domain/va-payments.js";
import { z } from "../domain/zod.js";

/** A scenario declares at most this many merchants, and this many objects of each kind. */
export const MAX_SCENARIO_MERCHANTS = 20;
export const MAX_SCENARIO_OBJECTS = 1_000;
/** When a scenario gives no `start`, every merchant's clock starts at this time. */
export const SCENARIO_START = "2026-01-05T09:00:00.000Z";

/** The longest a request step waits for its answer, in wall-clock seconds (`timeout_seconds`). */
const MAX_CLIENT_TIMEOUT_SECONDS = 300;

/** What a step does: each step has exactly one of these keys (and optionally a name). */
export const STEP_KINDS = ["request", "advance", "expect_webhook", "expect_balance"] as const;

/**
 * Built on first use (a scenario loaded, the docs): a few hundred zod schemas that a start without
 * --scenario never needs, and would otherwise build at every start (bench/FAST-PATH.md).
 */
function buildScenarioSchema() {
  const alias = z.string().max(64).regex(/^[A-Za-z_][\w-]*$/, { message: "Use letters, digits, _ and -, starting with a letter or _." });
  /** Which merchant a line belongs to; may be left out when the scenario has one merchant. */
  const merchantRef = alias.optional();
  const money = amount({ min: 0.01, max: 10_000_000_000 });
  const list = <T extends z.ZodType>(item: T, max = MAX_SCENARIO_OBJECTS) => z.array(item).max(max, { message: `At most ${max} entries.` }).default([]);
  /** "+5m", "+90s", "+2h", "+1d" after the scenario start, or an ISO time. */
  const offset = z
    .string()
    .max(40)
    .regex(/^(\+\d{1,12}(\.\d{1,6})?(s|m|h|d)|\d{4}-\d{2}-\d{2}T.+)$/, { message: 'Use "+30s", "+5m", "+2h", "+1d" or an ISO time.' });

  const Merchant = NewMerchantSchema.extend({
    api_key: secret.optional(),
    api_secret: secret.optional(),
    webhook_secret: secret.optional(),
    /**
     * A receiver that answers 500 to the first `fail_first` deliveries, then 200: with `run`, a real local
     * receiver whose deliveries `expect_webhook` checks; elsewhere, the sandbox's built-in capture.
     */
    webhook_capture: z.object({ fail_first: z.number().int().min(0).max(100).default(0) }).strict().optional(),
  }).strict();

  const VirtualAccount = z
    .object({
      merchant: merchantRef,
      as: alias,
      customer_type: z.enum(["individual", "business"]).default("individual"),
      email,
      reference: z.string().min(1).max(100),
      first_name: z.string().min(1).max(100).optional(),
      last_name: z.string().min(1).max(100).optional(),
      bvn: z.string().regex(/^\d{11}$/).optional(),
      nin: z.string().regex(/^\d{11}$/).optional(),
      business_name: z.string().min(1).max(200).optional(),
      cac_number: z.string().regex(/^(RC|BN)\d+$/i).optional(),
    })
    .strict();

  const Cardholder = z
    .object({
      merchant: merchantRef,
      as: alias,
      first_name: z.string().min(1).max(100),
      last_name: z.string().min(1).max(100),
      email,
      phone: z.string().max(20).optional(),
      /** Approve KYC at load (default false: it follows the KYC delay like any cardholder). */
      approved: z.boolean().default(false),
    })
    .strict();

  const Card = z
    .object({
      merchant: merchantRef,
      as: alias,
      cardholder: alias,
      brand: z.enum(["VISA", "MASTERCARD"]).default("VISA"),
      label: z.string().max(CARD_LABEL_MAX).optional(),
      /** USD to fund the card with at load (charged to the wallet as usual). */
      fund: amount({ ...CARD_AMOUNT_USD, currency: "USD" }).optional(),
    })
    .strict();

  const PaymentLink = z
    .object({ merchant: merchantRef, as: alias, amount: amount({ min: CHECKOUT_MIN_AMOUNT }), description: z.string().max(CHECKOUT_DESCRIPTION_MAX).optional() })
    .strict();

  const Outcome = z
    .object({
      merchant: merchantRef,
      target: z.enum(OUTCOME_TARGETS),
      match: ruleMatch.optional(),
      outcome: z.string().max(40),
      delay_seconds: z.number().int().min(0).max(MAX_DELAY_SECONDS).optional(),
      times: z.number().int().min(1).max(1_000_000).optional(),
      window_seconds: z.number().int().min(1).max(MAX_DELAY_SECONDS).optional(),
      queries: z.number().int().min(1).max(MAX_STATUS_QUERIES).optional(),
    })
    .strict();

  const TimelineEntry = z
    .object({
      at: offset,
      merchant: merchantRef,
      transfer: z
        .object({
          to: z.string().min(1).describe("a virtual account alias or account number"),
          amount: money,
          /** Verbatim, empty and spaces included. */
          narration: z.string().max(MAX_NARRATION).optional(),
          payer_name: z.string().max(200).optional(),
          payer_bank: z.string().max(200).optional(),
          /** `pending` or `processing` to arrive uncredited, then end as `outcome` after `settle_after_seconds`. */
          ...TransferArrivalFields,
        })
        .strict()
        .superRefine(refineArrival)
        .optional(),
      pay_link: z.object({ link: z.string().min(1), amount: money.optional() }).strict().optional(),
    })
    .strict()
    .refine((e) => (e.transfer ? 1 : 0) + (e.pay_link ? 1 : 0) === 1, { message: "Each timeline entry has exactly one of transfer or pay_link." });

  const Json: z.ZodType<unknown> = z.lazy(() => z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(Json), z.record(z.string(), Json)]));

  const Step = z.union([
    z
      .object({
        name: z.string().optional(),
        request: z
          .object({
            merchant: merchantRef,
            method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"]),
            path: z.string().startsWith("/"),
            body: Json.optional(),
            /** The client's time-out in wall-clock seconds: no answer by then is a time-out (`expect: { connection: timeout }`). */
            timeout_seconds: z.number().positive().max(MAX_CLIENT_TIMEOUT_SECONDS).optional(),
          })
          .strict(),
        expect: z
          .object({
            status: z.number().int().optional(),
            body: Json.optional(),
            /** No answer arrives: the connection is `reset`, or the client gives up after `timeout_seconds` (`timeout`). */
            connection: z.enum(["reset", "timeout"]).optional(),
          })
          .strict()
          .refine((e) => !(e.connection && (e.status !== undefined || e.body !== undefined)), {
            message: "With connection: reset or timeout no answer arrives: expect no status or body beside it.",
            path: ["connection"],
          })
          .optional(),
        /** Saves values of the reply for later steps: `{ ref: "data.reference" }` makes `$ref`. */
        capture: z.record(alias, z.string()).optional(),
      })
      .strict()
      .refine((s) => s.expect?.connection !== "timeout" || s.request.timeout_seconds !== undefined, {
        message: "expect connection: timeout needs request.timeout_seconds, the client's time-out.",
        path: ["request", "timeout_seconds"],
      }),
    z
      .object({
        name: z.string().optional(),
        advance: z
          .object({ merchant: merchantRef, seconds: z.number().min(0).optional(), by: z.string().optional(), to: z.string().optional() })
          .strict(),
      })
      .strict(),
    z
      .object({
        name: z.string().optional(),
        expect_webhook: z
          .object({
            merchant: merchantRef,
            event: z.string(),
            data: Json.optional(),
            /** How many deliveries of matching events the receiver must have got (webhook_capture only). */
            deliveries: z.number().int().min(1).optional(),
          })
          .strict(),
      })
      .strict(),
    z
      .object({ name: z.string().optional(), expect_balance: z.object({ merchant: merchantRef, balance: z.number() }).strict() })
      .strict(),
  ]);

  return z
    .object({
      name: z.string().min(1),
      description: z.string().optional(),
      /** Makes identifiers, account numbers, PANs and nonces deterministic. */
      seed: z.string().min(1).optional(),
      /** Sim time at which every merchant's clock starts. */
      start: z.iso
        .datetime({ offset: true })
        .refine((t) => Date.parse(t) >= 0 && Date.parse(t) <= MAX_CLOCK, { message: "Must be between 1970 and the end of 9998." })
        .default(SCENARIO_START),
      merchants: z
        .record(alias, Merchant)
        .refine((m) => Object.keys(m).length > 0, { message: "Declare at least one merchant." })
        .refine((m) => Object.keys(m).length <= MAX_SCENARIO_MERCHANTS, { message: `At most ${MAX_SCENARIO_MERCHANTS} merchants.` }),
      virtual_accounts: list(VirtualAccount),
      cardholders: list(Cardholder),
      cards: list(Card),
      payment_links: list(PaymentLink),
      outcomes: list(Outcome, MAX_OUTCOME_RULES),
      timeline: list(TimelineEntry),
      steps: list(Step),
    })
    .strict();
}

let built: ReturnType<typeof buildScenarioSchema> | undefined;
/** The scenario file's schema. */
export const scenarioSchema = () => (built ??= buildScenarioSchema());

export type Scenario = z.infer<ReturnType<typeof scenarioSchema>>;
export type ScenarioStep = Scenario["steps"][number];
