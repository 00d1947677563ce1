import { createRoute, z } from "@hono/zod-openapi";
import { MAX_NARRATION } from "../../domain/bounds.js";
import { TransactionStatus, findVaPayment, vaPaymentView } from "../../domain/va-payments.js";
import { createVirtualAccount, findVirtualAccount, virtualAccountView, type VirtualAccountRequest } from "../../domain/virtual-accounts.js";
import { body, errors, examples, json, security } from "../../http/openapi.js";
import { digits, email, isoTime, text } from "../../domain/fields.js";
import { router } from "../../http/validation.js";
import { contextOf } from "../../engine/tenant.js";
import * as docs from "./virtual-accounts-docs.js";

/** Identity fields refused for a business: the spec marks bvn and nin "individual only". */
const individualOnly = (field: string) =>
  z
    .unknown()
    .refine((v) => v === undefined, { message: `The ${field} field is accepted for individual customers only.` })
    .openapi({ not: {}, description: "Individual customers only: not accepted for a business." });

const common = {
  email,
  reference: text(100).openapi({ description: "Chosen by the merchant (an order or customer id). The same request again returns the existing account." }),
  bank: z.literal("partnerbank", { message: "The only supported bank is partnerbank." }).openapi({ description: "The only supported bank." }),
};

/**
 * The spec's table, as two shapes: an individual (the default when customer_type is left out) needs
 * first_name and last_name and may give bvn or nin; a business needs business_name and cac_number,
 * and gives no bvn or nin. Generated clients and validators refuse what the sandbox refuses.
 */
const Individual = z
  .object({
    customer_type: z.literal("individual", { message: 'Must be "individual" or "business".' }).optional().openapi({ description: "Default: individual" }),
    ...common,
    first_name: text(100),
    last_name: text(100),
    bvn: digits(11).optional().openapi({ description: "11 digits. Identification used: bvn, else nin, else the merchant's own KYC BVN, else its KYC NIN." }),
    nin: digits(11).optional().openapi({ description: "11 digits" }),
  })
  .openapi("IndividualVirtualAccount");

const Business = z
  .object({
    customer_type: z.literal("business", { message: 'Must be "individual" or "business".' }),
    ...common,
    business_name: text(200).openapi({ description: "Registered name as on the business registration certificate" }),
    cac_number: z
      .string()
      .trim()
      // No regex flags: the pattern is also the OpenAPI document's, and JSON Schema has no flags.
      .regex(/^([Rr][Cc]|[Bb][Nn])\d{1,8}$/, { message: "Must start with RC or BN followed by digits, e.g. RC1234567." })
      .openapi({ description: "RC or BN followed by digits; the identification used for a business" }),
    bvn: individualOnly("bvn").optional(),
    nin: individualOnly("nin").optional(),
  })
  .openapi("BusinessVirtualAccount");

const CreateVirtualAccount = z.union([Individual, Business]).openapi("CreateVirtualAccount");

/** The body as the domain takes it: an individual's customer_type filled in, a business without the refused fields. */
function toRequest(body: z.infer<typeof CreateVirtualAccount>): VirtualAccountRequest {
  if (body.customer_type === "business") {
    const { bvn: _bvn, nin: _nin, ...rest } = body;
    return rest;
  }
  return { ...body, customer_type: "individual" };
}

const VirtualAccount = z
  .object({
    account_number: z.string(),
    account_name: z.string(),
    bank_name: z.string(),
    customer_name: z.string(),
    customer_email: z.string(),
    customer_type: z.enum(["individual", "business"]),
    reference: z.string(),
    status: z.literal("Enabled"),
    created_at: isoTime,
  })
  .openapi("VirtualAccount");


const create = createRoute({
  method: "post",
  path: "/virtual-account/create",
  tags: ["Virtual accounts"],
  operationId: "createVirtualAccount",
  summary: "Create a virtual account",
  description: docs.CREATE_DESCRIPTION,
  security,
  request: body(CreateVirtualAccount, docs.CREATE_BODY_EXAMPLES),
  responses: {
    200: json(
      z.object({ success: z.literal(true), message: z.string(), data: VirtualAccount }),
      "The new account, or the existing one when the same request is repeated",
      docs.CREATE_RESPONSE_EXAMPLES,
    ),
    ...errors(docs.CREATE_ERRORS),
  },
});

const getOne = createRoute({
  method: "get",
  path: "/virtual-account/{account_number}",
  tags: ["Virtual accounts"],
  operationId: "getVirtualAccount",
  summary: "Get a virtual account",
  description: docs.GET_DESCRIPTION,
  security,
  request: { params: z.object({ account_number: examples(z.string().max(20, { message: "Must be at most 20 characters." }), docs.GET_PARAM_EXAMPLES) }) },
  responses: {
    200: json(z.object({ success: z.literal(true), data: VirtualAccount }), "The account", docs.GET_RESPONSE_EXAMPLES),
    ...errors(docs.GET_ERRORS),
  },
});

const list = createRoute({
  method: "get",
  path: "/virtual-accounts",
  tags: ["Virtual accounts"],
  operationId: "listVirtualAccounts",
  summary: "List the merchant's virtual accounts",
  description: docs.LIST_DESCRIPTION,
  security,
  responses: {
    200: json(z.object({ success: z.literal(true), data: z.array(VirtualAccount) }), "All accounts, oldest first", docs.LIST_RESPONSE_EXAMPLES),
    ...errors(),
  },
});

const status = createRoute({
  method: "get",
  path: "/transaction/status",
  tags: ["Virtual accounts"],
  operationId: "getTransactionStatus",
  summary: "Status of a virtual account payment by reference (the payer's narration)",
  description: docs.STATUS_DESCRIPTION,
  security,
  request: {
    query: z.object({
      reference: examples(
        z
          .string()
          .min(1, { message: "The reference field is required." })
          .max(MAX_NARRATION, { message: `Must be at most ${MAX_NARRATION} characters.` }),
        docs.STATUS_PARAM_EXAMPLES,
      ),
    }),
  },
  responses: {
    200: json(z.object({ success: z.literal(true), data: TransactionStatus }), "The most recent payment with this reference", docs.STATUS_RESPONSE_EXAMPLES),
    ...errors(docs.STATUS_ERRORS),
  },
});

export function virtualAccountRoutes() {
  return router()
    .openapi(create, (c) => {
      const tenant = c.get("tenant");
      const { account, created } = createVirtualAccount(contextOf(tenant), tenant.state, toRequest(c.req.valid("json")));
      const message = created ? "Virtual account created successfully" : "Virtual account already exists";
      return c.json({ success: true as const, message, data: virtualAccountView(account) }, 200);
    })
    .openapi(getOne, (c) => {
      const account = findVirtualAccount(c.get("tenant").state, c.req.valid("param").account_number);
      return c.json({ success: true as const, data: virtualAccountView(account) }, 200);
    })
    .openapi(list, (c) => {
      const data = [...c.get("tenant").state.virtualAccounts.values()].map(virtualAccountView);
      return c.json({ success: true as const, data }, 200);
    })
    .openapi(status, (c) => {
      const payment = findVaPayment(c.get("tenant").state, c.req.valid("query").reference);
      return c.json({ success: true as const, data: vaPaymentView(payment) }, 200);
    });
}
