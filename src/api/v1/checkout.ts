import { createRoute, z } from "@hono/zod-openapi";
import { checkoutCreatedView, checkoutLinks, checkoutView, createCheckout, findCheckout } from "../../domain/checkout.js";
import { CHECKOUT_DESCRIPTION_MAX, CHECKOUT_MIN_AMOUNT } from "../../domain/limits.js";
import { toMinor } from "../../domain/money.js";
import { requireCapability } from "../../http/capability.js";
import { body, errors, json, security } from "../../http/openapi.js";
import { amount, email, isoTime, text } from "../../domain/fields.js";
import { router } from "../../http/validation.js";
import { contextOf } from "../../engine/tenant.js";

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
    order_no: z.string(),
    amount: z.number(),
    currency: z.literal("NGN"),
    status: z.enum(["pending", "paid", "expired"]),
    expires_at: isoTime,
    paid_at: z.null(),
  })
  .openapi("CheckoutCreated");

const CheckoutRecord = z
  .object({
    reference: z.string(),
    transaction_id: z.string(),
    order_no: z.string(),
    status: z.enum(["pending", "paid", "expired"]),
    amount: z.number(),
    currency: z.literal("NGN"),
    description: z.string().nullable(),
    customer_email: z.string().nullable(),
    customer_name: z.string().nullable(),
    redirect_url: z.string().nullable(),
    account_number: z.string(),
    account_name: z.string(),
    bank_name: z.string(),
    created_at: isoTime,
    expires_at: isoTime,
    paid_at: isoTime.nullable(),
    payment_link: z.string(),
    checkout_url: z.string(),
  })
  .openapi("Checkout");

const create = createRoute({
  method: "post",
  path: "/create",
  tags: ["Checkout"],
  summary: "Create a payment link",
  security,
  middleware: [requireCapability("checkout")] as const,
  request: body(CreateCheckout),
  responses: { 200: json(CheckoutCreated, "The payment link (fields at the top level)"), ...errors(400, 415, 422) },
});

const status = createRoute({
  method: "get",
  path: "/status",
  tags: ["Checkout"],
  summary: "Status of a payment link",
  security,
  middleware: [requireCapability("checkout")] as const,
  request: { query: z.object({ reference: z.string().min(1).max(100) }) },
  responses: { 200: json(z.object({ success: z.literal(true), data: CheckoutRecord }), "The payment link"), ...errors(404, 422) },
});

/** `baseUrl` is where the sandbox's own pages are served: the configured public URL or the request's origin. */
export function checkoutRoutes(opts: { publicUrl?: string }) {
  const baseOf = (url: string) => opts.publicUrl ?? new URL(url).origin;
  return router()
    .openapi(create, (c) => {
      const tenant = c.var.tenant;
      const input = c.req.valid("json");
      const checkout = createCheckout(contextOf(tenant), tenant.state, { ...input, amount: toMinor(input.amount) });
      return c.json(checkoutCreatedView(baseOf(c.req.url), checkout), 200);
    })
    .openapi(status, (c) => {
      const tenant = c.var.tenant;
      const checkout = findCheckout(tenant.state, c.req.valid("query").reference);
      const data = { ...checkoutView(checkout, tenant.clock.now()), ...checkoutLinks(baseOf(c.req.url), checkout) };
      return c.json({ success: true as const, data }, 200);
    });
}
