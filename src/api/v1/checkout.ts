import { createRoute, z } from "@hono/zod-openapi";
import { CheckoutSchema, checkoutCreatedView, checkoutStatusView, createCheckout, findCheckout } from "../../domain/checkout.js";
import { CHECKOUT_DESCRIPTION_MAX, CHECKOUT_MIN_AMOUNT } from "../../domain/limits.js";
import { toMinor } from "../../domain/money.js";
import { requireCapability } from "../../http/capability.js";
import { body, errors, examples, json, security } from "../../http/openapi.js";
import { amount, email, isoTime, text } from "../../domain/fields.js";
import { router } from "../../http/validation.js";
import { contextOf } from "../../engine/tenant.js";
import * as docs from "./checkout-docs.js";
import { baseUrl } from "../../http/base-url.js";

const CreateCheckout = z
  .object({
    amount: amount({ min: CHECKOUT_MIN_AMOUNT }),
    description: z.string().trim().max(CHECKOUT_DESCRIPTION_MAX, { message: `Must be at most ${CHECKOUT_DESCRIPTION_MAX} characters.` }).optional(),
    redirect_url: z.url({ protocol: /^https?$/, message: "Must be an http(s) URL." }).max(2000).optional(),
    customer_email: email.optional(),
    customer_name: text(100).optional(),
  })
  .openapi("CreateCheckout");

const CheckoutCreated = z
  .object({
    success: z.literal(true),
    payment_link: z.string(),
    checkout_url: z.string(),
    reference: z.string(),
    transaction_id: z.string().openapi({ description: "The link's transaction identifier, the key for reconciliation (the checkout.completed webhook carries it)" }),
    order_no: z.string().openapi({ description: "Equal to transaction_id" }),
    amount: z.number(),
    currency: z.literal("NGN"),
    status: z.enum(["pending", "paid", "expired"]),
    expires_at: isoTime,
    paid_at: z.null(),
  })
  .openapi("CheckoutCreated");


const create = createRoute({
  method: "post",
  path: "/create",
  tags: ["Checkout"],
  operationId: "createCheckout",
  summary: "Create a payment link",
  description: docs.CREATE_DESCRIPTION,
  security,
  middleware: [requireCapability("checkout")] as const,
  request: body(CreateCheckout, docs.CREATE_BODY_EXAMPLES),
  responses: {
    200: json(CheckoutCreated, "The payment link (fields at the top level)", docs.CREATE_RESPONSE_EXAMPLES),
    ...errors(docs.CREATE_ERRORS),
  },
});

const status = createRoute({
  method: "get",
  path: "/status",
  tags: ["Checkout"],
  operationId: "getCheckoutStatus",
  summary: "Status of a payment link",
  description: docs.STATUS_DESCRIPTION,
  security,
  middleware: [requireCapability("checkout")] as const,
  request: { query: z.object({ reference: examples(z.string().min(1).max(100), docs.STATUS_PARAM_EXAMPLES) }) },
  responses: {
    200: json(z.object({ success: z.literal(true), data: CheckoutSchema }), "The payment link", docs.STATUS_RESPONSE_EXAMPLES),
    ...errors(docs.STATUS_ERRORS),
  },
});

/** `baseUrl` is where the sandbox's own pages are served: the configured public URL or the request's origin. */
export function checkoutRoutes(opts: { publicUrl?: string }) {
  return router()
    .openapi(create, (c) => {
      const tenant = c.get("tenant");
      const input = c.req.valid("json");
      const checkout = createCheckout(contextOf(tenant), tenant.state, { ...input, amount: toMinor(input.amount) });
      return c.json(checkoutCreatedView(baseUrl(opts.publicUrl, c.req.url), checkout), 200);
    })
    .openapi(status, (c) => {
      const tenant = c.get("tenant");
      const checkout = findCheckout(tenant.state, c.req.valid("query").reference);
      const data = checkoutStatusView(baseUrl(opts.publicUrl, c.req.url), checkout, tenant.clock.now());
      return c.json({ success: true as const, data }, 200);
    });
}
