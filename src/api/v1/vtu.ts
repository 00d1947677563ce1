import { createRoute, z } from "@hono/zod-openapi";
import { NETWORKS } from "../../domain/catalog.js";
import { toMinor } from "../../domain/money.js";
import {
  findVtu,
  priceAirtime,
  priceCable,
  priceData,
  priceElectricity,
  priceExam,
  purchase,
  purchaseResultView,
  vtuRecordView,
  type PricedPurchase,
} from "../../domain/vtu.js";
import { requireCapability } from "../../http/capability.js";
import type { AppEnv } from "../../http/env.js";
import { body, errors, json, security, withDefault } from "../../http/openapi.js";
import { amount, isoTime, phone, text } from "../../domain/fields.js";
import { AIRTIME_AMOUNT, ELECTRICITY_AMOUNT, EXAM_QUANTITY } from "../../domain/limits.js";
import { router } from "../../http/validation.js";
import { contextOf, type Tenant } from "../../engine/tenant.js";
import type { Context } from "hono";

const vtu = requireCapability("vtu");
const id = (what: string) => z.number({ message: `Must be an integer ${what} id.` }).int({ message: `Must be an integer ${what} id.` }).positive();
const network = z.enum(NETWORKS as unknown as ["mtn", "glo", "airtel", "9mobile"], { message: "Must be one of mtn, glo, airtel, 9mobile." });

const Airtime = z
  .object({
    network,
    phone,
    amount: amount(AIRTIME_AMOUNT),
    airtime_type: withDefault(z.enum(["VTU", "Sharesell"], { message: "Must be VTU or Sharesell." }), "VTU"),
  })
  .openapi("AirtimePurchase");
const Data = z.object({ phone, data_plan_id: id("data plan") }).openapi("DataPurchase");
const Cable = z
  .object({
    cable_plan_id: id("cable plan"),
    smart_card_number: z.string().trim().regex(/^\d{10,12}$/, { message: "Must be the 10-12 digit smart card or IUC number." }),
    phone: phone.optional(),
  })
  .openapi("CablePurchase");
const Electricity = z
  .object({
    disco_id: id("disco"),
    meter_number: z.string().trim().regex(/^\d{11,13}$/, { message: "Must be the 11-13 digit meter number." }),
    meter_type: z.enum(["Prepaid", "Postpaid"], { message: "Must be Prepaid or Postpaid." }),
    amount: amount(ELECTRICITY_AMOUNT),
    customer_name: text(100).optional(),
    customer_address: text(300).optional(),
    customer_phone: phone.optional(),
  })
  .openapi("ElectricityPurchase");
const Exam = z
  .object({
    exam_type_id: id("exam type"),
    quantity: z
      .number({ message: `Must be a whole number from ${EXAM_QUANTITY.min} to ${EXAM_QUANTITY.max}.` })
      .int({ message: `Must be a whole number from ${EXAM_QUANTITY.min} to ${EXAM_QUANTITY.max}.` })
      .min(EXAM_QUANTITY.min, { message: `Must be at least ${EXAM_QUANTITY.min}.` })
      .max(EXAM_QUANTITY.max, { message: `Must be at most ${EXAM_QUANTITY.max}.` }),
  })
  .openapi("ExamPurchase");

const PurchaseResult = z
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

const VtuRecord = z
  .object({
    success: z.literal(true),
    reference: z.string(),
    type: z.literal("debit"),
    service: z.enum(["airtime", "data", "cable", "electricity", "exam"]),
    status: z.enum(["Success", "Processing", "Failed"]),
    amount: z.number(),
    description: z.string(),
    date: isoTime,
    token: z.string().nullable(),
    pins: z.array(z.object({ pin: z.string(), serial: z.string() })).optional(),
    transaction_id: z.string(),
  })
  .openapi("VtuTransaction");

const listOf = <T extends z.ZodType>(item: T, description: string) =>
  json(z.object({ success: z.literal(true), data: z.array(item) }), description);

const DataPlan = z.object({ id: z.number(), network: z.string(), name: z.string(), plan_type: z.string(), size: z.string(), validity: z.string(), price: z.number() }).openapi("DataPlan");
const CablePlan = z.object({ id: z.number(), provider_name: z.string(), name: z.string(), validity: z.string(), price: z.number() }).openapi("CablePlan");
const Disco = z.object({ id: z.number(), code: z.string(), name: z.string(), region: z.string() }).openapi("Disco");
const ExamType = z.object({ id: z.number(), code: z.string(), name: z.string(), selling_price: z.number() }).openapi("ExamType");

const purchaseRoute = <T extends z.ZodType>(path: string, summary: string, schema: T) =>
  createRoute({
    method: "post",
    path,
    tags: ["VTU"],
    summary,
    security,
    middleware: [vtu] as const,
    request: body(schema),
    responses: { 200: json(PurchaseResult, "The purchase result (top level); a failed purchase is status fail, already refunded"), ...errors(400, 415, 422) },
  });

const listRoute = <R extends { path: string; summary: string; request?: { query: z.ZodObject } }>(r: R, response: ReturnType<typeof listOf>) =>
  createRoute({ method: "get", tags: ["VTU"], security, middleware: [vtu] as const, ...r, responses: { 200: response, ...errors(422) } });

const providerName = z
  .string()
  .trim()
  .toUpperCase()
  .pipe(z.enum(["DSTV", "GOTV", "STARTIMES"], { message: "Must be DSTV, GOTV or Startimes." }));
const dataPlans = listRoute(
  { path: "/data-plans", summary: "Data plans", request: { query: z.object({ network: network.optional() }) } },
  listOf(DataPlan, "Data plans"),
);
const cablePlans = listRoute(
  { path: "/cable-plans", summary: "Cable TV bouquets", request: { query: z.object({ provider_name: providerName.optional() }) } },
  listOf(CablePlan, "Cable plans"),
);
const discos = listRoute({ path: "/discos", summary: "Electricity distribution companies" }, listOf(Disco, "Discos"));
const examTypes = listRoute({ path: "/exam-types", summary: "Exam PIN types" }, listOf(ExamType, "Exam types"));

const status = createRoute({
  method: "get",
  path: "/transaction/status",
  tags: ["VTU"],
  summary: "Status of a VTU purchase",
  security,
  middleware: [vtu] as const,
  request: { query: z.object({ reference: z.string().min(1).max(100) }) },
  responses: { 200: json(VtuRecord, "The VTU transaction record (top level)"), ...errors(404, 422) },
});

/** Prices the product, debits, applies the planned outcome, and answers with the purchase result. */
function buy(c: Context<AppEnv>, price: (tenant: Tenant) => PricedPurchase) {
  const tenant = c.var.tenant;
  const priced = price(tenant);
  const record = purchase(contextOf(tenant), tenant.state, priced);
  return c.json(purchaseResultView(record), 200);
}

export function vtuRoutes() {
  return router()
    .openapi(purchaseRoute("/airtime", "Buy airtime", Airtime), (c) => {
      const input = c.req.valid("json");
      return buy(c, () => priceAirtime({ ...input, amount: toMinor(input.amount) }));
    })
    .openapi(purchaseRoute("/data", "Buy a data plan", Data), (c) => {
      const input = c.req.valid("json");
      return buy(c, (t) => priceData(contextOf(t), input));
    })
    .openapi(purchaseRoute("/cable", "Pay a cable TV subscription", Cable), (c) => {
      const input = c.req.valid("json");
      return buy(c, (t) => priceCable(contextOf(t), input));
    })
    .openapi(purchaseRoute("/electricity", "Buy electricity", Electricity), (c) => {
      const input = c.req.valid("json");
      return buy(c, (t) => priceElectricity(contextOf(t), { ...input, amount: toMinor(input.amount) }));
    })
    .openapi(purchaseRoute("/exam", "Buy exam PINs", Exam), (c) => {
      const input = c.req.valid("json");
      return buy(c, (t) => priceExam(contextOf(t), input));
    })
    .openapi(dataPlans, (c) => {
      const { network: wanted } = c.req.valid("query");
      const plans = c.var.tenant.catalog.dataPlans.filter((p) => !wanted || p.network === wanted);
      return c.json({ success: true as const, data: plans }, 200);
    })
    .openapi(cablePlans, (c) => {
      const { provider_name: wanted } = c.req.valid("query");
      const plans = c.var.tenant.catalog.cablePlans.filter((p) => !wanted || p.provider_name === wanted);
      return c.json({ success: true as const, data: plans }, 200);
    })
    .openapi(discos, (c) => c.json({ success: true as const, data: c.var.tenant.catalog.discos }, 200))
    .openapi(examTypes, (c) => c.json({ success: true as const, data: c.var.tenant.catalog.examTypes }, 200))
    .openapi(status, (c) => c.json(vtuRecordView(findVtu(c.var.tenant.state, c.req.valid("query").reference)), 200));
}
