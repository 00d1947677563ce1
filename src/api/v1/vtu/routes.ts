/**
 * The VTU contract: each operation whole, as the OpenAPI document publishes it. Bounds, the settlement
 * delay and the magic values are read from the domain (limits.ts, merchant.ts, outcomes.ts); each named
 * request example, sent to a fresh demo merchant, gets the response of the same name.
 */
import { code, spokenList } from "../../../domain/prose.js";
import { z } from "@hono/zod-openapi";
import { NETWORKS } from "../../../domain/catalog.js";
import { AIRTIME_AMOUNT, ELECTRICITY_AMOUNT, EXAM_QUANTITY } from "../../../domain/limits.js";
import { DEFAULTS } from "../../../domain/merchant.js";
import { thousands as naira } from "../../../domain/money.js";
import { magicPhone, VTU_MAGIC_DIGIT, type ResponseOperation } from "../../../domain/outcomes.js";
import { VtuTransactionSchema } from "../../../domain/vtu.js";
import { requireCapability } from "../../../http/capability.js";
import { AT, DEMO, demoNextId } from "../../../http/demo-examples.js";
import { afterCommitErrors, body, errorExample, errors, examples, invalidExample, json, type Examples } from "../../../http/openapi.js";
import { routes, Success } from "../../../http/route.js";
import {
  Airtime,
  Cable,
  CablePlan,
  CUSTOMER_ADDRESS_MAX,
  CUSTOMER_NAME_MAX,
  Data,
  DataPlan,
  Disco,
  Electricity,
  Exam,
  ExamType,
  FIELD_MESSAGES,
  METER_DIGITS,
  network,
  providerName,
  PurchaseResult,
  SMART_CARD_DIGITS,
} from "./schemas.js";

const route = routes({ tags: ["VTU"], middleware: [requireCapability("vtu")] });

const oneOf = (items: readonly string[]) => spokenList(items, " or ");

// ---- What every purchase shares ------------------------------------------------------------------

/** Debit first, three outcomes, no duplicate detection. */
const PURCHASE_RULES = `
**How a purchase goes.** The wallet is debited the price first (no fee is added). The answer is then
always HTTP 200 with the VTU purchase result at the top level (no \`data\` wrapper) and one of three \`status\` values:

- \`success\`: delivered.
- \`processing\`: the provider confirms later. Poll \`GET /api/v1/vtu/transaction/status?reference=...\` with the
  returned \`reference\`. In the sandbox it settles after the merchant's VTU delay (\`delays.vtu_settlement_seconds\`, ${DEFAULTS.delays.vtu_settlement_seconds} s by default).
- \`fail\`: \`success\` is \`false\` and the wallet is **already refunded** (a \`vtu_refund\` entry with the same
  \`transaction_id\`). A failed purchase is not an error response.

A wallet that cannot cover the price gets 422 \`INSUFFICIENT_BALANCE\`, and nothing is debited. Every
purchase gets a new \`reference\` and \`transaction_id\`: there is no client reference and no duplicate
detection, so sending the same request again buys again.

**When the answer goes wrong.** A purchase can be made (and debited) and still reach you as no answer (a reset
connection, a client time-out) or as a 500 or 504, so you have no \`reference\` to poll. Never buy again
automatically: check the wallet (\`GET /api/v1/wallet/balance\`) for the debit, and treat the purchase as made until
you have reconciled it. In the sandbox, an outcome rule with target \`response\` (\`match: { operation: ... }\`, this
operation's id) produces these answers.`;

/** The magic digits, from the domain's table: all of them for meters and smart cards, those with an outcome for phones. */
const MAGIC = Object.entries(VTU_MAGIC_DIGIT);
const PHONE_MAGIC = MAGIC.filter(([, magic]) => magic.plan !== null);
const PHONE_DIGITS = PHONE_MAGIC.map(([digit]) => digit);
/** "`08011111111`…`08077777777`": the magic phones' range. */
const phoneRange = (between: string) => `${code(magicPhone(PHONE_DIGITS[0]!))}${between}${code(magicPhone(PHONE_DIGITS.at(-1)!))}`;

const MAGIC_PHONES = `
**In the sandbox**, the phone number forces the outcome (in any of the \`0…\`, \`234…\` or \`+234…\` forms):
${PHONE_MAGIC.map(([digit, magic]) => `${code(magicPhone(digit))} ${magic.description}`).join("; ")}. Any other number succeeds at once. An outcome rule
(\`POST /sandbox/v1/outcomes\`, target \`vtu\`) takes precedence over the magic values.`;

const magicNumbers = (field: string) => `
**In the sandbox**, a \`${field}\` made of one repeated digit (e.g. ${code(PHONE_DIGITS[0]!.repeat(METER_DIGITS.min))}) forces the outcome of its digit:
${MAGIC.map(([digit, magic]) => `${code(digit)} ${magic.description}`).join("; ")}. The digits ${code(PHONE_DIGITS[0]!)} to ${code(PHONE_DIGITS.at(-1)!)}
force the same outcomes as the magic phones ${phoneRange(" to ")}. An outcome rule (\`POST /sandbox/v1/outcomes\`, target \`vtu\`) takes precedence.`;

/** The magic phones that settle on their Nth status read: "`08066666666` and `08077777777`: 3 reads". */
const SETTLE_ON_READ = MAGIC.filter(([, magic]) => magic.queries);
const SETTLE_ON_READ_PHONES = `${spokenList(SETTLE_ON_READ.map(([digit]) => code(magicPhone(digit))))}: ${oneOf([...new Set(SETTLE_ON_READ.map(([, magic]) => String(magic.queries)))])} reads`;

const PHONE_RULE = "a Nigerian mobile number: `0XXXXXXXXXX`, `234XXXXXXXXXX` or `+234XXXXXXXXXX`, with a 07, 08 or 09 prefix (e.g. `08031234567`)";

/** The reference and transaction id a fresh demo merchant gives its next purchase. */
const NEXT_PURCHASE = demoNextId("VTU");
const NEXT_TRANSACTION = demoNextId("TXN", 1);
/** The prepaid token of the electricity example's purchase. */
const PREPAID_TOKEN = "5134-1548-6589-6596-4398";

/** A purchase result as the sandbox answers it (the demo merchant's next reference and transaction id). */
const result = (status: "success" | "processing" | "fail", amount: number, extra: object = {}) => ({
  success: status !== "fail",
  status,
  message: {
    success: "Transaction successful",
    processing: "Transaction is processing; poll the status endpoint for the final outcome.",
    fail: "Transaction failed. Your wallet has been refunded.",
  }[status],
  reference: NEXT_PURCHASE,
  token: null,
  ...extra,
  amount,
  transaction_id: NEXT_TRANSACTION,
});

const FAILED = "Failed: success is false and the wallet is already refunded (still HTTP 200)";
const INVALID = "A field breaks its rule (every field is reported)";

const insufficientBalance = (needed: string) =>
  errorExample("The wallet cannot cover the price: nothing is debited", "INSUFFICIENT_BALANCE", `Insufficient wallet balance: NGN ${needed} needed, NGN 120.50 available.`);

const SERVICE_NOT_ENABLED: Examples = {
  serviceNotEnabled: errorExample("VTU is not enabled on the merchant's account", "SERVICE_NOT_ENABLED", "The VTU service is not enabled on this account."),
  ipNotWhitelisted: errorExample("The merchant has an IP allowlist without this address", "IP_NOT_WHITELISTED", "Requests from 203.0.113.7 are not allowed for this account."),
};

/** A purchase's answers: the result by example name, its own 422 examples, and the after-commit 500 and 504. */
const purchaseResponses = (operationId: ResponseOperation, delivered: Examples, refused: Examples) => ({
  200: json(PurchaseResult, "The purchase result (top level); a failed purchase is status fail, already refunded", delivered),
  ...errors({ 403: SERVICE_NOT_ENABLED, 422: refused, ...afterCommitErrors("purchase", operationId) }),
});

const listOf = <T extends z.ZodType>(item: T, description: string, named: Examples) => json(Success({ data: z.array(item) }), description, named);

// ---- Purchases -----------------------------------------------------------------------------------

export const airtime = route({
  method: "post",
  path: "/airtime",
  operationId: "buyAirtime",
  summary: "Buy airtime",
  description: `Buys airtime for a Nigerian phone number, paid from the wallet.

- \`network\`: ${oneOf(NETWORKS.map(code))}. The sandbox does not check that the number belongs to the network.
- \`phone\`: ${PHONE_RULE}.
- \`amount\`: in Naira, ${naira(AIRTIME_AMOUNT.min)} to ${naira(AIRTIME_AMOUNT.max)}, at most two decimals. The wallet is debited exactly this amount.
- \`airtime_type\`: \`VTU\` (default) or \`Sharesell\`.
${PURCHASE_RULES}
${MAGIC_PHONES}`,
  request: body(Airtime, {
    success: { summary: "MTN airtime of NGN 500", value: { network: "mtn", phone: "08031234567", amount: 500 } },
    processing: {
      summary: "In the sandbox: processing, then success after the VTU delay (magic phone 08022222222)",
      value: { network: "glo", phone: "08022222222", amount: 1000, airtime_type: "VTU" },
    },
    failed: { summary: "In the sandbox: fails at once, refunded (magic phone 08044444444)", value: { network: "airtel", phone: "08044444444", amount: 200 } },
  }),
  responses: purchaseResponses(
    "buyAirtime",
    {
      success: { summary: "Delivered", value: result("success", 500) },
      processing: { summary: "Processing: poll the status endpoint", value: result("processing", 1000) },
      failed: { summary: FAILED, value: result("fail", 200) },
    },
    {
      validationError: invalidExample(INVALID, { amount: [`Must be at least ${naira(AIRTIME_AMOUNT.min)} Naira.`], phone: ["The phone field is required."] }),
      insufficientBalance: insufficientBalance("500.00"),
    },
  ),
});

export const data = route({
  method: "post",
  path: "/data",
  operationId: "buyData",
  summary: "Buy a data plan",
  description: `Buys a data plan for a Nigerian phone number, paid from the wallet.

- \`data_plan_id\`: the \`id\` of a plan from \`GET /api/v1/vtu/data-plans\`. The wallet is debited the plan's \`price\`.
  An unknown id gets 422 \`VALIDATION_ERROR\` on \`data_plan_id\`, and nothing is debited.
- \`phone\`: ${PHONE_RULE}.
${PURCHASE_RULES}
${MAGIC_PHONES}`,
  request: body(Data, {
    success: { summary: "MTN SME 1GB (plan 102) to 08031234567", value: { phone: "08031234567", data_plan_id: 102 } },
    unknownPlan: { summary: "A data_plan_id that is not in GET /api/v1/vtu/data-plans", value: { phone: "08031234567", data_plan_id: 999 } },
  }),
  responses: purchaseResponses(
    "buyData",
    { success: { summary: "Delivered", value: result("success", 225) } },
    {
      unknownPlan: invalidExample("Unknown data plan: nothing is debited", { data_plan_id: ["Unknown data plan: use an id from GET /api/v1/vtu/data-plans."] }),
      validationError: invalidExample(INVALID, { phone: ["Must be a Nigerian phone number such as 08031234567."] }),
      insufficientBalance: insufficientBalance("225.00"),
    },
  ),
});

export const cable = route({
  method: "post",
  path: "/cable",
  operationId: "payCable",
  summary: "Pay a cable TV subscription",
  description: `Pays a cable TV subscription (DStv, GOtv, Startimes), paid from the wallet.

- \`cable_plan_id\`: the \`id\` of a bouquet from \`GET /api/v1/vtu/cable-plans\`. The wallet is debited the plan's \`price\`.
  An unknown id gets 422 \`VALIDATION_ERROR\` on \`cable_plan_id\`, and nothing is debited.
- \`smart_card_number\`: the smart card or IUC number, ${SMART_CARD_DIGITS.min} to ${SMART_CARD_DIGITS.max} digits.
- \`phone\` (optional): ${PHONE_RULE}.
${PURCHASE_RULES}
${magicNumbers("smart_card_number")} A magic \`phone\` (${phoneRange("…")}), when sent, decides before the smart card.`,
  request: body(Cable, {
    success: { summary: "DStv Padi (plan 201) for smart card 7023456789", value: { cable_plan_id: 201, smart_card_number: "7023456789", phone: "08031234567" } },
    failed: { summary: "In the sandbox: fails at once, refunded (smart card 4444444444)", value: { cable_plan_id: 201, smart_card_number: "4444444444" } },
    unknownSmartCard: { summary: "In the sandbox: a smart card of all zeros is not found", value: { cable_plan_id: 201, smart_card_number: "0000000000" } },
    unknownPlan: { summary: "A cable_plan_id that is not in GET /api/v1/vtu/cable-plans", value: { cable_plan_id: 999, smart_card_number: "7023456789" } },
  }),
  responses: purchaseResponses(
    "payCable",
    {
      success: { summary: "Delivered", value: result("success", 4400) },
      failed: { summary: FAILED, value: result("fail", 4400) },
    },
    {
      unknownSmartCard: invalidExample("The provider cannot find the smart card: nothing is debited", { smart_card_number: ["DSTV could not find smart card 0000000000."] }),
      unknownPlan: invalidExample("Unknown cable plan: nothing is debited", { cable_plan_id: ["Unknown cable plan: use an id from GET /api/v1/vtu/cable-plans."] }),
      validationError: invalidExample(INVALID, { smart_card_number: [FIELD_MESSAGES.smartCard] }),
      insufficientBalance: insufficientBalance("4400.00"),
    },
  ),
});

export const electricity = route({
  method: "post",
  path: "/electricity",
  operationId: "buyElectricity",
  summary: "Buy electricity",
  description: `Buys electricity for a meter, paid from the wallet.

- \`disco_id\`: the \`id\` of a distribution company from \`GET /api/v1/vtu/discos\`. An unknown id gets 422
  \`VALIDATION_ERROR\` on \`disco_id\`, and nothing is debited.
- \`meter_number\`: ${METER_DIGITS.min} to ${METER_DIGITS.max} digits.
- \`meter_type\`: \`Prepaid\` or \`Postpaid\` (exactly so capitalised).
- \`amount\`: in Naira, ${naira(ELECTRICITY_AMOUNT.min)} to ${naira(ELECTRICITY_AMOUNT.max)}, at most two decimals. The wallet is debited exactly this amount.
- \`customer_name\` (at most ${CUSTOMER_NAME_MAX} characters), \`customer_address\` (at most ${CUSTOMER_ADDRESS_MAX}), \`customer_phone\` (a Nigerian mobile number): optional.

A successful **Prepaid** purchase returns the meter \`token\`: 20 digits in groups of four joined by \`-\`. A purchase that
is \`processing\` gets its token when it succeeds (read it from the status endpoint). Postpaid purchases, and failed ones,
have \`token: null\`.
${PURCHASE_RULES}
${magicNumbers("meter_number")}`,
  request: body(Electricity, {
    prepaid: {
      summary: "NGN 5,000 of prepaid electricity from Ikeja Electric (disco 1)",
      value: { disco_id: 1, meter_number: "45012345678", meter_type: "Prepaid", amount: 5000, customer_name: "Chidi Okeke", customer_phone: "08031234567" },
    },
    postpaid: { summary: "A postpaid bill: no token", value: { disco_id: 2, meter_number: "62012345678", meter_type: "Postpaid", amount: 15000 } },
    processing: {
      summary: "In the sandbox: processing, then success after the VTU delay (meter 22222222222)",
      value: { disco_id: 1, meter_number: "22222222222", meter_type: "Prepaid", amount: 5000 },
    },
    unknownMeter: { summary: "In the sandbox: a meter of all zeros is not found", value: { disco_id: 1, meter_number: "00000000000", meter_type: "Prepaid", amount: 5000 } },
  }),
  responses: purchaseResponses(
    "buyElectricity",
    {
      prepaid: { summary: "Delivered, with the prepaid token", value: result("success", 5000, { token: PREPAID_TOKEN }) },
      postpaid: { summary: "Delivered; postpaid has no token", value: result("success", 15000) },
      processing: { summary: "Processing: the token comes with success, on the status endpoint", value: result("processing", 5000) },
    },
    {
      unknownMeter: invalidExample("The disco cannot find the meter: nothing is debited", { meter_number: ["IKEDC could not find meter 00000000000."] }),
      validationError: invalidExample(INVALID, {
        meter_number: [FIELD_MESSAGES.meter],
        meter_type: [FIELD_MESSAGES.meterType],
        amount: [`Must be at least ${naira(ELECTRICITY_AMOUNT.min)} Naira.`],
      }),
      insufficientBalance: insufficientBalance("5000.00"),
    },
  ),
});

export const exam = route({
  method: "post",
  path: "/exam",
  operationId: "buyExamPins",
  summary: "Buy exam PINs",
  description: `Buys exam result-checker or registration PINs (WAEC, NECO, NABTEB, JAMB), paid from the wallet.

- \`exam_type_id\`: the \`id\` of an exam type from \`GET /api/v1/vtu/exam-types\`. An unknown id gets 422
  \`VALIDATION_ERROR\` on \`exam_type_id\`, and nothing is debited.
- \`quantity\`: a whole number from ${EXAM_QUANTITY.min} to ${EXAM_QUANTITY.max}. The wallet is debited \`quantity\` × the exam type's \`selling_price\`.

A successful purchase returns \`pins\`: one \`{ pin, serial }\` per unit. A purchase that is \`processing\` gets its pins
when it succeeds (read them from the status endpoint).
${PURCHASE_RULES}

**In the sandbox**, exam purchases succeed at once; only an outcome rule (\`POST /sandbox/v1/outcomes\`, target \`vtu\`) forces another outcome.`,
  request: body(Exam, {
    success: { summary: "Two WAEC result checker PINs (exam type 301)", value: { exam_type_id: 301, quantity: 2 } },
    unknownExamType: { summary: "An exam_type_id that is not in GET /api/v1/vtu/exam-types", value: { exam_type_id: 999, quantity: 1 } },
  }),
  responses: purchaseResponses(
    "buyExamPins",
    {
      success: {
        summary: "Delivered, with one PIN per unit",
        value: result("success", 7800, {
          pins: [
            { pin: "596439837055", serial: "SN8985513415" },
            { pin: "582523874479", serial: "SN6854479589" },
          ],
        }),
      },
    },
    {
      unknownExamType: invalidExample("Unknown exam type: nothing is debited", { exam_type_id: ["Unknown exam type: use an id from GET /api/v1/vtu/exam-types."] }),
      validationError: invalidExample(INVALID, { quantity: [`Must be at most ${EXAM_QUANTITY.max}.`] }),
      insufficientBalance: insufficientBalance("7800.00"),
    },
  ),
});

// ---- The catalogue -------------------------------------------------------------------------------

export const dataPlans = route({
  method: "get",
  path: "/data-plans",
  operationId: "listDataPlans",
  summary: "Data plans",
  description: `The data plans \`POST /api/v1/vtu/data\` accepts: use an entry's \`id\` as \`data_plan_id\`; \`price\` (Naira) is what the wallet is debited.

Query \`network\` (optional) filters by network: ${oneOf(NETWORKS.map(code))}; any other value gets 422 \`VALIDATION_ERROR\`.
The catalogue is the same for every merchant.`,
  request: { query: z.object({ network: examples(network.optional(), { mtn: { summary: "MTN plans", value: "mtn" } }) }) },
  responses: {
    200: listOf(DataPlan, "Data plans", {
      mtn: {
        summary: "MTN plans (first three shown)",
        value: {
          success: true,
          data: [
            { id: 101, network: "mtn", name: "MTN SME 500MB - 30 Days", plan_type: "SME", size: "500MB", validity: "30 days", price: 130 },
            { id: 102, network: "mtn", name: "MTN SME 1GB - 30 Days", plan_type: "SME", size: "1GB", validity: "30 days", price: 225 },
            { id: 106, network: "mtn", name: "MTN Gifting 1GB - 1 Day", plan_type: "Gifting", size: "1GB", validity: "1 day", price: 500 },
          ],
        },
      },
    }),
    ...errors({ 403: SERVICE_NOT_ENABLED, 422: { validationError: invalidExample("An unknown network", { network: [FIELD_MESSAGES.network] }) } }),
  },
});

export const cablePlans = route({
  method: "get",
  path: "/cable-plans",
  operationId: "listCablePlans",
  summary: "Cable TV bouquets",
  description: `The cable TV bouquets \`POST /api/v1/vtu/cable\` accepts: use an entry's \`id\` as \`cable_plan_id\`; \`price\` (Naira) is what the wallet is debited.

Query \`provider_name\` (optional) filters by provider: \`DSTV\`, \`GOTV\` or \`Startimes\`, in any letter case; any other value gets 422 \`VALIDATION_ERROR\`.
The catalogue is the same for every merchant.`,
  request: { query: z.object({ provider_name: examples(providerName.optional(), { dstv: { summary: "DStv bouquets", value: "DSTV" } }) }) },
  responses: {
    200: listOf(CablePlan, "Cable plans", {
      dstv: {
        summary: "DStv bouquets (first three shown)",
        value: {
          success: true,
          data: [
            { id: 201, provider_name: "DSTV", name: "DStv Padi", validity: "1 month", price: 4400 },
            { id: 202, provider_name: "DSTV", name: "DStv Yanga", validity: "1 month", price: 6000 },
            { id: 203, provider_name: "DSTV", name: "DStv Confam", validity: "1 month", price: 11000 },
          ],
        },
      },
    }),
    ...errors({ 403: SERVICE_NOT_ENABLED, 422: { validationError: invalidExample("An unknown provider", { provider_name: [FIELD_MESSAGES.provider] }) } }),
  },
});

export const discos = route({
  method: "get",
  path: "/discos",
  operationId: "listDiscos",
  summary: "Electricity distribution companies",
  description: "The electricity distribution companies `POST /api/v1/vtu/electricity` accepts: use an entry's `id` as `disco_id`. The list is the same for every merchant.",
  responses: {
    200: listOf(Disco, "Discos", {
      discos: {
        summary: "The distribution companies (first three shown)",
        value: {
          success: true,
          data: [
            { id: 1, code: "IKEDC", name: "Ikeja Electric", region: "Lagos (Ikeja)" },
            { id: 2, code: "EKEDC", name: "Eko Electricity Distribution Company", region: "Lagos (Eko)" },
            { id: 3, code: "AEDC", name: "Abuja Electricity Distribution Company", region: "FCT, Niger, Kogi, Nasarawa" },
          ],
        },
      },
    }),
    ...errors({ 403: SERVICE_NOT_ENABLED }),
  },
});

export const examTypes = route({
  method: "get",
  path: "/exam-types",
  operationId: "listExamTypes",
  summary: "Exam PIN types",
  description:
    "The exam PIN types `POST /api/v1/vtu/exam` accepts: use an entry's `id` as `exam_type_id`. A purchase costs `quantity` × `selling_price` (Naira). The list is the same for every merchant.",
  responses: {
    200: listOf(ExamType, "Exam types", {
      examTypes: {
        summary: "The exam types (first three shown)",
        value: {
          success: true,
          data: [
            { id: 301, code: "WAEC", name: "WAEC Result Checker PIN", selling_price: 3900 },
            { id: 302, code: "NECO", name: "NECO Result Checker Token", selling_price: 1300 },
            { id: 304, code: "JAMB_UTME", name: "JAMB UTME PIN (without Mock)", selling_price: 7200 },
          ],
        },
      },
    }),
    ...errors({ 403: SERVICE_NOT_ENABLED }),
  },
});

// ---- Status --------------------------------------------------------------------------------------

export const status = route({
  method: "get",
  path: "/transaction/status",
  operationId: "getVtuTransactionStatus",
  summary: "Status of a VTU purchase",
  description: `The VTU transaction record of one purchase, by the \`reference\` its purchase response returned (references are per merchant).
Poll it while a purchase is \`processing\`.

- \`status\` is capitalised here: \`Success\`, \`Processing\` or \`Failed\` (a failed purchase has already been refunded).
- \`type\` is always \`debit\`; \`amount\` is what the purchase cost in Naira; \`date\` is when it was bought.
- \`token\` (electricity, Prepaid) and \`pins\` (exam) appear once the purchase has succeeded.

An unknown reference gets 404 \`NOT_FOUND\`.

**In the sandbox** a purchase can stay processing until its status is read N times (magic phones ${SETTLE_ON_READ_PHONES}; an outcome rule with \`queries\`): the Nth read settles it (a refund for a failure) and answers
with the settled record.`,
  request: {
    query: z.object({
      reference: examples(z.string().min(1).max(100), {
        processing: { summary: "The demo merchant's airtime purchase that stays processing until forced", value: DEMO.vtu },
        notFound: { summary: "A reference no purchase of this merchant returned", value: "VTU_0000000000000000" },
      }),
    }),
  },
  responses: {
    200: json(VtuTransactionSchema, "The VTU transaction record (top level)", {
      processing: {
        summary: "Still processing",
        value: {
          success: true,
          reference: DEMO.vtu,
          type: "debit",
          service: "airtime",
          status: "Processing",
          amount: 500,
          description: "MTN VTU airtime of NGN 500.00 to 08055555555",
          date: AT,
          token: null,
          transaction_id: "TXN_N408IIWLSHCFE7TA",
        },
      },
      prepaidSuccess: {
        summary: "A prepaid electricity purchase that succeeded, with its token (the electricity prepaid example's)",
        value: {
          success: true,
          reference: NEXT_PURCHASE,
          type: "debit",
          service: "electricity",
          status: "Success",
          amount: 5000,
          description: "Ikeja Electric prepaid NGN 5000.00 for meter 45012345678",
          date: AT,
          token: PREPAID_TOKEN,
          transaction_id: NEXT_TRANSACTION,
        },
      },
    }),
    ...errors({
      403: SERVICE_NOT_ENABLED,
      404: { notFound: errorExample("No purchase of this merchant has this reference", "NOT_FOUND", "No VTU transaction with reference VTU_0000000000000000.") },
      422: { validationError: invalidExample("The reference is missing", { reference: ["The reference field is required."] }) },
    }),
  },
});
