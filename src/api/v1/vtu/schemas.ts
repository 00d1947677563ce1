/**
 * The VTU requests and answers as zod schemas. The field bounds are written once here, for the
 * schemas, their messages and the descriptions in routes.ts; the amounts come from domain/limits.ts.
 */
import { z } from "@hono/zod-openapi";
import { NETWORKS } from "../../../domain/catalog.js";
import { amount, phone, text } from "../../../domain/fields.js";
import { AIRTIME_AMOUNT, ELECTRICITY_AMOUNT, EXAM_QUANTITY } from "../../../domain/limits.js";
import { withDefault } from "../../../http/openapi.js";

/** Smart card (IUC) and meter number lengths, and the optional customer fields' lengths. */
export const SMART_CARD_DIGITS = { min: 10, max: 12 } as const;
export const METER_DIGITS = { min: 11, max: 13 } as const;
export const CUSTOMER_NAME_MAX = 100;
export const CUSTOMER_ADDRESS_MAX = 300;

/** What a refused field is told (the schemas' messages, which the examples show). */
export const FIELD_MESSAGES = {
  network: `Must be one of ${NETWORKS.join(", ")}.`,
  smartCard: `Must be the ${SMART_CARD_DIGITS.min}-${SMART_CARD_DIGITS.max} digit smart card or IUC number.`,
  meter: `Must be the ${METER_DIGITS.min}-${METER_DIGITS.max} digit meter number.`,
  meterType: "Must be Prepaid or Postpaid.",
  provider: "Must be DSTV, GOTV or Startimes.",
};

const id = (what: string) => z.number({ message: `Must be an integer ${what} id.` }).int({ message: `Must be an integer ${what} id.` }).positive();
export const network = z.enum(NETWORKS as unknown as ["mtn", "glo", "airtel", "9mobile"], { message: FIELD_MESSAGES.network });
const digitsBetween = (range: { min: number; max: number }, message: string) =>
  z.string().trim().regex(new RegExp(`^\\d{${range.min},${range.max}}$`), { message });

export const Airtime = z
  .object({
    network,
    phone,
    amount: amount(AIRTIME_AMOUNT),
    airtime_type: withDefault(z.enum(["VTU", "Sharesell"], { message: "Must be VTU or Sharesell." }), "VTU"),
  })
  .openapi("AirtimePurchase");
export const Data = z.object({ phone, data_plan_id: id("data plan") }).openapi("DataPurchase");
export const Cable = z
  .object({ cable_plan_id: id("cable plan"), smart_card_number: digitsBetween(SMART_CARD_DIGITS, FIELD_MESSAGES.smartCard), phone: phone.optional() })
  .openapi("CablePurchase");
export const Electricity = z
  .object({
    disco_id: id("disco"),
    meter_number: digitsBetween(METER_DIGITS, FIELD_MESSAGES.meter),
    meter_type: z.enum(["Prepaid", "Postpaid"], { message: FIELD_MESSAGES.meterType }),
    amount: amount(ELECTRICITY_AMOUNT),
    customer_name: text(CUSTOMER_NAME_MAX).optional(),
    customer_address: text(CUSTOMER_ADDRESS_MAX).optional(),
    customer_phone: phone.optional(),
  })
  .openapi("ElectricityPurchase");
export const Exam = z
  .object({
    exam_type_id: id("exam type"),
    quantity: z
      .number({ message: `Must be a whole number from ${EXAM_QUANTITY.min} to ${EXAM_QUANTITY.max}.` })
      .int({ message: `Must be a whole number from ${EXAM_QUANTITY.min} to ${EXAM_QUANTITY.max}.` })
      .min(EXAM_QUANTITY.min, { message: `Must be at least ${EXAM_QUANTITY.min}.` })
      .max(EXAM_QUANTITY.max, { message: `Must be at most ${EXAM_QUANTITY.max}.` }),
  })
  .openapi("ExamPurchase");

export const PurchaseResult = z
  .object({
    success: z.boolean(),
    status: z.enum(["success", "processing", "fail"]),
    message: z.string(),
    reference: z.string(),
    token: z.string().nullable(),
    pins: z.array(z.object({ pin: z.string(), serial: z.string() })).optional(),
    amount: z.number(),
    transaction_id: z.string(),
  })
  .openapi("VtuPurchaseResult");

export const DataPlan = z.object({ id: z.number(), network: z.string(), name: z.string(), plan_type: z.string(), size: z.string(), validity: z.string(), price: z.number() }).openapi("DataPlan");
export const CablePlan = z.object({ id: z.number(), provider_name: z.string(), name: z.string(), validity: z.string(), price: z.number() }).openapi("CablePlan");
export const Disco = z.object({ id: z.number(), code: z.string(), name: z.string(), region: z.string() }).openapi("Disco");
export const ExamType = z.object({ id: z.number(), code: z.string(), name: z.string(), selling_price: z.number() }).openapi("ExamType");

export const providerName = z
  .string()
  .trim()
  .toUpperCase()
  .pipe(z.enum(["DSTV", "GOTV", "STARTIMES"], { message: FIELD_MESSAGES.provider }));
