/**
 * The scenario file format (`scenarios/*.yaml`): merchants, initial objects, outcome rules, a
 * timeline of simulated events on each merchant's clock, and optional steps with expectations.
 * One zod schema validates a file and is the reference for its fields.
 */
import { z } from "zod";
import { OUTCOMES } from "../domain/outcomes.js";
import { NewMerchantSchema } from "../domain/merchant-settings.js";

const alias = z.string().regex(/^[A-Za-z_][\w-]*$/, { message: "Use letters, digits, _ and -, starting with a letter or _." });
/** Which merchant a line belongs to; may be left out when the scenario has one merchant. */
const merchantRef = alias.optional();
const money = z.number().positive();
/** "+5m", "+90s", "+2h", "+1d" after the scenario start, or an ISO time. */
export const offset = z.string().regex(/^(\+\d+(\.\d+)?(s|m|h|d)|\d{4}-\d{2}-\d{2}T.+)$/, { message: 'Use "+30s", "+5m", "+2h", "+1d" or an ISO time.' });

const Merchant = NewMerchantSchema.extend({
  api_key: z.string().min(16).max(100).optional(),
  api_secret: z.string().min(16).max(100).optional(),
  webhook_secret: z.string().min(16).max(100).optional(),
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
    email: z.email(),
    reference: z.string().min(1),
    first_name: z.string().min(1).optional(),
    last_name: z.string().min(1).optional(),
    bvn: z.string().regex(/^\d{11}$/).optional(),
    nin: z.string().regex(/^\d{11}$/).optional(),
    business_name: z.string().min(1).optional(),
    cac_number: z.string().regex(/^(RC|BN)\d+$/i).optional(),
  })
  .strict();

const Cardholder = z
  .object({
    merchant: merchantRef,
    as: alias,
    first_name: z.string().min(1),
    last_name: z.string().min(1),
    email: z.email(),
    phone: z.string().optional(),
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
    label: z.string().optional(),
    /** USD to fund the card with at load (charged to the wallet as usual). */
    fund: money.optional(),
  })
  .strict();

const PaymentLink = z
  .object({ merchant: merchantRef, as: alias, amount: z.number().min(100), description: z.string().max(200).optional() })
  .strict();

const Outcome = z
  .object({
    merchant: merchantRef,
    target: z.enum(Object.keys(OUTCOMES) as [keyof typeof OUTCOMES]),
    match: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
    outcome: z.string(),
    delay_seconds: z.number().int().min(0).optional(),
    times: z.number().int().min(1).optional(),
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
        narration: z.string().optional(),
        payer_name: z.string().optional(),
        payer_bank: z.string().optional(),
      })
      .strict()
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
        })
        .strict(),
      expect: z.object({ status: z.number().int().optional(), body: Json.optional() }).strict().optional(),
      /** Saves values of the reply for later steps: `{ ref: "data.reference" }` makes `$ref`. */
      capture: z.record(alias, z.string()).optional(),
    })
    .strict(),
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

export const ScenarioSchema = z
  .object({
    name: z.string().min(1),
    description: z.string().optional(),
    /** Makes identifiers, account numbers, PANs and nonces deterministic. */
    seed: z.string().min(1).optional(),
    /** Sim time at which every merchant's clock starts (default 2026-01-05T09:00:00Z). */
    start: z.iso.datetime({ offset: true }).default("2026-01-05T09:00:00.000Z"),
    merchants: z.record(alias, Merchant).refine((m) => Object.keys(m).length > 0, { message: "Declare at least one merchant." }),
    virtual_accounts: z.array(VirtualAccount).default([]),
    cardholders: z.array(Cardholder).default([]),
    cards: z.array(Card).default([]),
    payment_links: z.array(PaymentLink).default([]),
    outcomes: z.array(Outcome).default([]),
    timeline: z.array(TimelineEntry).default([]),
    steps: z.array(Step).default([]),
  })
  .strict();

export type Scenario = z.infer<typeof ScenarioSchema>;
export type ScenarioStep = Scenario["steps"][number];
export type ScenarioMerchant = z.infer<typeof Merchant>;
