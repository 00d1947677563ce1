import { createRoute, z } from "@hono/zod-openapi";
import {
  TransactionStatus,
  createVirtualAccount,
  findVaPayment,
  findVirtualAccount,
  vaPaymentView,
  virtualAccountView,
  type VirtualAccountRequest,
} from "../../domain/virtual-accounts.js";
import { body, errors, json, security } from "../../http/openapi.js";
import { digits, email, text } from "../../domain/fields.js";
import { router } from "../../http/validation.js";
import { contextOf } from "../../engine/tenant.js";

const CreateVirtualAccount = z
  .object({
    customer_type: z.enum(["individual", "business"]).default("individual"),
    email,
    reference: text(100),
    bank: z.literal("partnerbank", { message: "The only supported bank is partnerbank." }),
    first_name: text(100).optional(),
    last_name: text(100).optional(),
    bvn: digits(11).optional(),
    nin: digits(11).optional(),
    business_name: text(200).optional(),
    cac_number: z
      .string()
      .trim()
      // No regex flags: the pattern is also the OpenAPI document's, and JSON Schema has no flags.
      .regex(/^([Rr][Cc]|[Bb][Nn])\d{1,8}$/, { message: "Must start with RC or BN followed by digits, e.g. RC1234567." })
      .optional(),
  })
  .superRefine(
    (v, ctx) => {
    // Which fields are required depends on customer_type; the spec's table, rule by rule.
    const need = (field: keyof typeof v, why: string) => {
      if (v[field] === undefined) ctx.addIssue({ code: "custom", path: [field], message: `The ${field} field is required ${why}.` });
    };
    const forbid = (field: keyof typeof v) => {
      if (v[field] !== undefined) ctx.addIssue({ code: "custom", path: [field], message: `The ${field} field is accepted for individual customers only.` });
    };
    if (v.customer_type === "individual") {
      need("first_name", "for individual customers");
      need("last_name", "for individual customers");
    } else if (v.customer_type === "business") {
      need("business_name", "for business customers");
      need("cac_number", "for business customers");
      forbid("bvn");
      forbid("nin");
    }
    },
    // Run even when other fields already failed, so one reply names every bad field.
    { when: (payload) => typeof payload.value === "object" && payload.value !== null },
  )
  .openapi("CreateVirtualAccount");

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
    created_at: z.string(),
  })
  .openapi("VirtualAccount");


const create = createRoute({
  method: "post",
  path: "/virtual-account/create",
  tags: ["Virtual accounts"],
  summary: "Create a virtual account",
  security,
  request: body(CreateVirtualAccount),
  responses: {
    200: json(z.object({ success: z.literal(true), message: z.string(), data: VirtualAccount }), "The new account, or the existing one when the same request is repeated"),
    ...errors(400, 409, 415, 422),
  },
});

const getOne = createRoute({
  method: "get",
  path: "/virtual-account/{account_number}",
  tags: ["Virtual accounts"],
  summary: "Get a virtual account",
  security,
  request: { params: z.object({ account_number: z.string().max(20) }) },
  responses: { 200: json(z.object({ success: z.literal(true), data: VirtualAccount }), "The account"), ...errors(404) },
});

const list = createRoute({
  method: "get",
  path: "/virtual-accounts",
  tags: ["Virtual accounts"],
  summary: "List the merchant's virtual accounts",
  security,
  responses: { 200: json(z.object({ success: z.literal(true), data: z.array(VirtualAccount) }), "All accounts, oldest first"), ...errors() },
});

const status = createRoute({
  method: "get",
  path: "/transaction/status",
  tags: ["Virtual accounts"],
  summary: "Status of a virtual account payment by reference (the payer's narration)",
  security,
  request: { query: z.object({ reference: z.string().min(1, { message: "The reference field is required." }).max(500) }) },
  responses: { 200: json(z.object({ success: z.literal(true), data: TransactionStatus }), "The most recent payment with this reference"), ...errors(404, 422) },
});

export function virtualAccountRoutes() {
  return router()
    .openapi(create, (c) => {
      const tenant = c.var.tenant;
      const { account, created } = createVirtualAccount(contextOf(tenant), tenant.state, c.req.valid("json") as VirtualAccountRequest);
      const message = created ? "Virtual account created successfully" : "Virtual account already exists";
      return c.json({ success: true as const, message, data: virtualAccountView(account) }, 200);
    })
    .openapi(getOne, (c) => {
      const account = findVirtualAccount(c.var.tenant.state, c.req.valid("param").account_number);
      return c.json({ success: true as const, data: virtualAccountView(account) }, 200);
    })
    .openapi(list, (c) => {
      const data = [...c.var.tenant.state.virtualAccounts.values()].map(virtualAccountView);
      return c.json({ success: true as const, data }, 200);
    })
    .openapi(status, (c) => {
      const payment = findVaPayment(c.var.tenant.state, c.req.valid("query").reference);
      return c.json({ success: true as const, data: vaPaymentView(payment) }, 200);
    });
}
