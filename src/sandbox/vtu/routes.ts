/**
 * VTU purchases in the control API: the provider's answer to a processing purchase (succeed, or fail and
 * refund; a settled one is 409 INVALID_STATE), and the paged list. Examples are real bodies.
 */
import { z } from "@hono/zod-openapi";
import { DEFAULTS } from "../../domain/merchant.js";
import { magicPhone, VTU_MAGIC_DIGIT, type VtuMagic } from "../../domain/outcomes.js";
import { VtuTransactionSchema } from "../../domain/vtu.js";
import { AT, DEMO } from "../../http/demo-examples.js";
import { errorExample, examples, json, type Examples } from "../../http/openapi.js";
import { routes } from "../../http/route.js";
import { controlErrors } from "../errors.js";
import { badStatus, codes, listDescription, listFields, listQuery, listRoute, pageOf } from "../lists.js";

const route = routes({ tags: ["Sandbox"] });

const UNKNOWN_VTU = "VTU_0000000000000000";

// ---- The pieces both levers share ------------------------------------------------------------------

/** The magic phone whose purchase stays processing and then ends as `plan` says (domain/outcomes.ts), after the VTU delay. */
const phoneFor = (plan: VtuMagic["plan"]) =>
  `\`${magicPhone(Object.keys(VTU_MAGIC_DIGIT).find((d) => VTU_MAGIC_DIGIT[d]!.plan === plan && VTU_MAGIC_DIGIT[d]!.queries === undefined)!)}\``;

const COMMON = `
- \`reference\`: the purchase's \`reference\` (from the purchase response), of the calling merchant; else 404.
- A purchase that is not \`processing\` (already \`success\` or \`fail\`) gets 409 \`INVALID_STATE\` naming its state.
- Answers with the VTU transaction record at the top level, as GET /api/v1/vtu/transaction/status shows it
  (\`status\` capitalised).
- No webhook is sent: VTU purchases have none. Poll the status endpoint.

A purchase stays \`processing\` in the sandbox when an outcome rule (\`vtu\`: \`processing\`, \`processing_success\`,
\`processing_fail\`) or a magic phone, smart card or meter number says so: ${phoneFor("processing_success")} / ${phoneFor("processing_fail")} settle to
success / fail after \`delays.vtu_settlement_seconds\` (${DEFAULTS.delays.vtu_settlement_seconds} by default), ${phoneFor("processing")} stays \`processing\` until a
lever settles it. Demo merchant: \`${DEMO.vtu}\` (airtime to 08055555555) is \`processing\` until forced.`.trim();

/** The demo's airtime purchase held processing, as its status record shows it. */
const vtuRecord = (status: string) => ({
  success: true,
  reference: DEMO.vtu,
  type: "debit",
  service: "airtime",
  status,
  amount: 500,
  description: "MTN VTU airtime of NGN 500.00 to 08055555555",
  date: AT,
  token: null,
  transaction_id: "TXN_N408IIWLSHCFE7TA",
});

/** The path's reference: the demo's processing purchase under `name`, and an unknown one. */
const leverRequest = (name: string) => ({
  params: z.object({
    reference: examples(z.string().min(1).max(100), {
      [name]: { summary: "The demo's airtime purchase held processing", value: DEMO.vtu },
      notFound: { summary: "No purchase with this reference", value: UNKNOWN_VTU },
    }),
  }),
});

/** The record after the lever, or its refusals (`settled`: the state the demo purchase is in once settled). */
const leverResponses = (named: Examples, settled: string) => ({
  200: json(VtuTransactionSchema, "The VTU transaction record (top level, as the status endpoint)", named),
  ...controlErrors({
    404: { notFound: errorExample("No purchase with this reference", "NOT_FOUND", `No VTU transaction with reference ${UNKNOWN_VTU}.`) },
    409: {
      invalidState: errorExample("The purchase is already settled", "INVALID_STATE", `VTU purchase ${DEMO.vtu} is ${settled}; only a processing purchase can be settled.`),
    },
  }),
});

// ---- The levers ------------------------------------------------------------------------------------

export const succeed = route({
  method: "post",
  path: "/vtu/{reference}/succeed",
  operationId: "succeedVtuPurchase",
  summary: "Provider confirms a processing purchase (-> success)",
  description: `
The provider confirms a \`processing\` purchase now: -> \`success\` (record status \`Success\`). An electricity
(Prepaid) purchase gets its token, an exam purchase its pins, at this moment. The settlement timer is cancelled.
No money moves: the wallet was debited at purchase.

${COMMON}`.trim(),
  request: leverRequest("succeedProcessing"),
  responses: leverResponses({ succeedProcessing: { summary: "The purchase, now Success", value: vtuRecord("Success") } }, "success"),
});

export const fail = route({
  method: "post",
  path: "/vtu/{reference}/fail",
  operationId: "failVtuPurchase",
  summary: "Provider fails a processing purchase (-> fail, refunded)",
  description: `
The provider fails a \`processing\` purchase now: -> \`fail\` (record status \`Failed\`). The amount goes back to the
wallet at once, as one \`vtu_refund\` ledger entry with the purchase's \`transaction_id\`. The settlement timer is
cancelled.

${COMMON}`.trim(),
  request: leverRequest("failProcessing"),
  responses: leverResponses({ failProcessing: { summary: "The purchase, now Failed and refunded", value: vtuRecord("Failed") } }, "fail"),
});

// ---- The list --------------------------------------------------------------------------------------

/** The list's status filter: as the purchase answers it or as the record shows it, each naming the stored state. */
export const VTU_STATUS = { success: "success", processing: "processing", fail: "fail", Success: "success", Processing: "processing", Failed: "fail" } as const;
const STATUSES = Object.keys(VTU_STATUS) as (keyof typeof VTU_STATUS)[];
const ANSWERED = STATUSES.filter((s) => VTU_STATUS[s] === s);
const RECORDED = STATUSES.filter((s) => VTU_STATUS[s] !== s);
const processingPage = pageOf([vtuRecord("Processing")]);

export const list = listRoute({
  path: "/vtu",
  operationId: "listVtuPurchases",
  summary: "List the merchant's VTU purchases, newest first (paged; filter by status, time, reference)",
  description:
    listDescription(
      "VTU purchases (airtime, data, cable TV, electricity, exam pins)",
      "GET /api/v1/vtu/transaction/status (fields at the top level of each item, `success` included)",
      `${codes(ANSWERED)} as the purchase answers them, or ${codes(RECORDED)} as the record shows them (the same three states).`,
    ) + `\n\nDemo merchant: \`${DEMO.vtu}\` (airtime to 08055555555) is \`Processing\`.`,
  query: listQuery(
    listFields(STATUSES, "Purchases", {
      page: { newest: { summary: "The first page", value: 1 } },
      status: {
        processing: { summary: "Purchases still processing", value: "processing" },
        recordSpelling: { summary: "The same, as the record spells it", value: "Processing" },
        noneFailed: { summary: "Failed purchases (the demo has none)", value: "Failed" },
      },
      reference: { byReference: { summary: "The purchase with this reference", value: DEMO.vtu } },
    }),
  ),
  item: VtuTransactionSchema,
  responses: {
    newest: { summary: "Every purchase, newest first", value: processingPage },
    processing: { summary: "The processing purchase", value: processingPage },
    recordSpelling: { summary: "The processing purchase", value: processingPage },
    noneFailed: { summary: "No purchase: an empty page", value: pageOf([]) },
    byReference: { summary: "The purchase", value: processingPage },
  },
  errors: { 422: { badStatus: badStatus(STATUSES) } },
});
