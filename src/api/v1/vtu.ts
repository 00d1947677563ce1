import { createRoute, z } from "@hono/zod-openapi";
import { NETWORKS } from "../../domain/catalog.js";
import { toMinor } from "../../domain/money.js";
import type { ResponseOperation } from "../../domain/outcomes.js";
import {
  priceAirtime,
  priceCable,
  priceData,
  priceElectricity,
  priceExam,
  purchase,
  purchaseResultView,
  readVtuStatus,
  vtuRecordView,
  type PricedPurchase,
  VtuTransactionSchema,
} from "../../domain/vtu.js";
import { requireCapability } from "../../http/capability.js";
import type { AppEnv } from "../../http/env.js";
import { afterCommitErrors, body, errors, examples, json, security, withDefault, type Examples } from "../../http/openapi.js";
import { amount, phone, text } from "../../domain/fields.js";
import { AIRTIME_AMOUNT, ELECTRICITY_AMOUNT, EXAM_QUANTITY } from "../../domain/limits.js";
import { router } from "../../http/validation.js";
import { contextOf, type Tenant } from "../../engine/tenant.js";
import type { Context } from "hono";
import { AIRTIME, CABLE, CABLE_PLANS, DATA, DATA_PLANS, DESCRIPTIONS, DISCOS, ELECTRICITY, EXAM, EXAM_TYPES, STATUS } from "./vtu-docs.js";

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


const listOf = <T extends z.ZodType>(item: T, description: string, named: Examples) =>
  json(z.object({ success: z.literal(true), data: z.array(item) }), description, named);

const DataPlan = z.object({ id: z.number(), network: z.string(), name: z.string(), plan_type: z.string(), size: z.string(), validity: z.string(), price: z.number() }).openapi("DataPlan");
const CablePlan = z.object({ id: z.number(), provider_name: z.string(), name: z.string(), validity: z.string(), price: z.number() }).openapi("CablePlan");
const Disco = z.object({ id: z.number(), code: z.string(), name: z.string(), region: z.string() }).openapi("Disco");
const ExamType = z.object({ id: z.number(), code: z.string(), name: z.string(), selling_price: z.number() }).openapi("ExamType");

/** A purchase's documentation: its request body examples, and its responses' examples by status. */
interface PurchaseDocs {
  body: Examples;
  200: Examples;
  403: Examples;
  422: Examples;
}

const purchaseRoute = <T extends z.ZodType>(path: string, operationId: ResponseOperation, summary: string, description: string, schema: T, docs: PurchaseDocs) =>
  createRoute({
    method: "post",
    path,
    operationId,
    tags: ["VTU"],
    summary,
    description,
    security,
    middleware: [vtu] as const,
    request: body(schema, docs.body),
    responses: {
      200: json(PurchaseResult, "The purchase result (top level); a failed purchase is status fail, already refunded", docs[200]),
      ...errors({ 403: docs[403], 422: docs[422], ...afterCommitErrors("purchase", operationId) }),
    },
  });

const listRoute = <R extends { path: string; operationId: string; summary: string; description: string; request?: { query: z.ZodObject } }>(
  r: R,
  response: ReturnType<typeof listOf>,
  own: Parameters<typeof errors>[0],
) => createRoute({ method: "get", tags: ["VTU"], security, middleware: [vtu] as const, ...r, responses: { 200: response, ...errors(own) } });

const providerName = z
  .string()
  .trim()
  .toUpperCase()
  .pipe(z.enum(["DSTV", "GOTV", "STARTIMES"], { message: "Must be DSTV, GOTV or Startimes." }));
const dataPlans = listRoute(
  {
    path: "/data-plans",
    operationId: "listDataPlans",
    summary: "Data plans",
    description: DESCRIPTIONS.dataPlans,
    request: { query: z.object({ network: examples(network.optional(), DATA_PLANS.network) }) },
  },
  listOf(DataPlan, "Data plans", DATA_PLANS[200]),
  { 403: DATA_PLANS[403], 422: DATA_PLANS[422] },
);
const cablePlans = listRoute(
  {
    path: "/cable-plans",
    operationId: "listCablePlans",
    summary: "Cable TV bouquets",
    description: DESCRIPTIONS.cablePlans,
    request: { query: z.object({ provider_name: examples(providerName.optional(), CABLE_PLANS.provider_name) }) },
  },
  listOf(CablePlan, "Cable plans", CABLE_PLANS[200]),
  { 403: CABLE_PLANS[403], 422: CABLE_PLANS[422] },
);
const discos = listRoute(
  { path: "/discos", operationId: "listDiscos", summary: "Electricity distribution companies", description: DESCRIPTIONS.discos },
  listOf(Disco, "Discos", DISCOS[200]),
  { 403: DISCOS[403] },
);
const examTypes = listRoute(
  { path: "/exam-types", operationId: "listExamTypes", summary: "Exam PIN types", description: DESCRIPTIONS.examTypes },
  listOf(ExamType, "Exam types", EXAM_TYPES[200]),
  { 403: EXAM_TYPES[403] },
);

const status = createRoute({
  method: "get",
  path: "/transaction/status",
  operationId: "getVtuTransactionStatus",
  tags: ["VTU"],
  summary: "Status of a VTU purchase",
  description: DESCRIPTIONS.status,
  security,
  middleware: [vtu] as const,
  request: { query: z.object({ reference: examples(z.string().min(1).max(100), STATUS.reference) }) },
  responses: {
    200: json(VtuTransactionSchema, "The VTU transaction record (top level)", STATUS[200]),
    ...errors({ 403: STATUS[403], 404: STATUS[404], 422: STATUS[422] }),
  },
});

/** Prices the product, debits, applies the planned outcome, and answers with the purchase result. */
function buy(c: Context<AppEnv>, price: (tenant: Tenant) => PricedPurchase) {
  const tenant = c.get("tenant");
  const priced = price(tenant);
  const record = purchase(contextOf(tenant), tenant.state, priced);
  return c.json(purchaseResultView(record), 200);
}

export function vtuRoutes() {
  return router()
    .openapi(purchaseRoute("/airtime", "buyAirtime", "Buy airtime", DESCRIPTIONS.airtime, Airtime, AIRTIME), (c) => {
      const input = c.req.valid("json");
      return buy(c, () => priceAirtime({ ...input, amount: toMinor(input.amount) }));
    })
    .openapi(purchaseRoute("/data", "buyData", "Buy a data plan", DESCRIPTIONS.data, Data, DATA), (c) => {
      const input = c.req.valid("json");
      return buy(c, (t) => priceData(contextOf(t), input));
    })
    .openapi(purchaseRoute("/cable", "payCable", "Pay a cable TV subscription", DESCRIPTIONS.cable, Cable, CABLE), (c) => {
      const input = c.req.valid("json");
      return buy(c, (t) => priceCable(contextOf(t), input));
    })
    .openapi(purchaseRoute("/electricity", "buyElectricity", "Buy electricity", DESCRIPTIONS.electricity, Electricity, ELECTRICITY), (c) => {
      const input = c.req.valid("json");
      return buy(c, (t) => priceElectricity(contextOf(t), { ...input, amount: toMinor(input.amount) }));
    })
    .openapi(purchaseRoute("/exam", "buyExamPins", "Buy exam PINs", DESCRIPTIONS.exam, Exam, EXAM), (c) => {
      const input = c.req.valid("json");
      return buy(c, (t) => priceExam(contextOf(t), input));
    })
    .openapi(dataPlans, (c) => {
      const { network: wanted } = c.req.valid("query");
      const plans = c.get("tenant").catalog.dataPlans.filter((p) => !wanted || p.network === wanted);
      return c.json({ success: true as const, data: plans }, 200);
    })
    .openapi(cablePlans, (c) => {
      const { provider_name: wanted } = c.req.valid("query");
      const plans = c.get("tenant").catalog.cablePlans.filter((p) => !wanted || p.provider_name === wanted);
      return c.json({ success: true as const, data: plans }, 200);
    })
    .openapi(discos, (c) => c.json({ success: true as const, data: c.get("tenant").catalog.discos }, 200))
    .openapi(examTypes, (c) => c.json({ success: true as const, data: c.get("tenant").catalog.examTypes }, 200))
    .openapi(status, (c) => {
      const { record, counted } = readVtuStatus(contextOf(c.get("tenant")), c.get("tenant").state, c.req.valid("query").reference);
      if (counted) c.set("stateChanged", true);
      return c.json(vtuRecordView(record), 200);
    });
}
