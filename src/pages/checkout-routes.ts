/**
 * Public routes of the payment-link pages (the customer has no API keys): the page, its status, and
 * the sandbox's simulated transfer. A link's reference names it across all merchants.
 */
import { Hono, type Context } from "hono";
import { checkoutStatus, payCheckout } from "../domain/checkout.js";
import { DomainError } from "../domain/errors.js";
import { createRoute, z } from "@hono/zod-openapi";
import { toMajor, toMinor } from "../domain/money.js";
import { errors, json, type Examples } from "../http/openapi.js";
import { amount as amountSchema } from "../domain/fields.js";
import type { Checkout } from "../domain/records.js";
import { cspNonce, pageSecurityHeaders } from "../http/security-headers.js";
import { router } from "../http/validation.js";
import { contextOf, type Tenant } from "../engine/tenant.js";
import type { Deps } from "../http/deps.js";
import { LinkNotFoundPage, LinkPage, LinkStateFragment, type LinkPageData } from "./checkout-page.js";

const SimulateBody = z.object({ amount: amountSchema({ min: 0.01, max: 1e10 }).optional() });

type PageDeps = Pick<Deps, "registry" | "driver" | "commits">;

/** The page follows redirect_url after payment: only to an http(s) page, whatever the state holds. */
function webUrl(url: string | null): string | null {
  if (url === null || !URL.canParse(url)) return null;
  const { protocol } = new URL(url);
  return protocol === "http:" || protocol === "https:" ? url : null;
}

function view(tenant: Tenant, c: Checkout): LinkPageData {
  const now = tenant.clock.now();
  const clock = tenant.clock.settings();
  return {
    reference: c.reference,
    amount: toMajor(c.amount),
    description: c.description,
    business_name: tenant.config.business_name,
    customer_email: c.customer_email,
    bank_name: c.bank_name,
    account_number: c.account_number,
    account_name: c.account_name,
    status: checkoutStatus(c, now),
    expires_at: new Date(c.expires_at).toISOString(),
    paid_at: c.paid_at === null ? null : new Date(c.paid_at).toISOString(),
    now: new Date(now).toISOString(),
    clock_mode: clock.mode,
    clock_speed: clock.speed,
    redirect_url: webUrl(c.redirect_url),
  };
}

/**
 * What anyone holding the reference may read: never the customer's email (the page renders it for the
 * one it shows), and the one-time account only while the link can still be paid into.
 */
function publicView(tenant: Tenant, c: Checkout): Partial<LinkPageData> {
  const data: Partial<LinkPageData> = view(tenant, c);
  delete data.customer_email;
  if (data.status !== "pending") {
    delete data.bank_name;
    delete data.account_number;
    delete data.account_name;
  }
  return data;
}

export function checkoutPages(deps: Deps) {
  // References are unique sandbox-wide, so the registry's index names the one merchant (no scan).
  const lookup = async (c: Context) => {
    const reference = c.req.param("reference") ?? "";
    const resolving = deps.store.resolveCheckout(reference);
    if (resolving) await resolving;
    const found = deps.registry.findCheckout(reference);
    if (!found) return undefined;
    await deps.driver.catchUpForRead(found.tenant);
    // Found again: a merchant brought up to date by its store holds new records.
    return deps.store.shared ? deps.registry.findCheckout(reference) : found;
  };
  const page = (variant: "branded" | "processor") => async (c: Context) => {
    const found = await lookup(c);
    const nonce = cspNonce(c);
    if (!found) return c.html(LinkNotFoundPage({ nonce }) as unknown as string, 404);
    return c.html(LinkPage({ data: view(found.tenant, found.checkout), variant, nonce }) as unknown as string);
  };

  return new Hono()
    .get("/pay/:reference", pageSecurityHeaders(), page("branded"))
    .get("/processor/checkout/:reference", pageSecurityHeaders(), page("processor"))
    .get("/pay/:reference/status", async (c) => {
      const found = await lookup(c);
      if (!found) throw new DomainError("NOT_FOUND", "No such payment link.");
      return c.json({ success: true, data: publicView(found.tenant, found.checkout) });
    })
    // The page's state view alone (what the page itself shows), which its script swaps in after a live change.
    .get("/pay/:reference/view", async (c) => {
      const found = await lookup(c);
      if (!found) throw new DomainError("NOT_FOUND", "No such payment link.");
      return c.html(LinkStateFragment({ data: view(found.tenant, found.checkout) }) as unknown as string);
    })
    .route("/", simulateRoute(deps, lookup));
}

/** The page's view of a link after the simulated transfer (the route is hidden from the document). */
const SIMULATE_PAID: Examples = {
  paid: {
    summary: "The link, paid",
    value: {
      success: true,
      data: {
        reference: "CHK_EIHCVSQ8DN0DMC5D",
        amount: 12500,
        description: "Jollof rice for two",
        business_name: "Mama Put Foods Ltd",
        status: "paid",
        expires_at: "2026-03-02T09:30:00.000Z",
        paid_at: "2026-03-02T09:00:00.000Z",
        now: "2026-03-02T09:00:00.000Z",
        clock_mode: "realtime",
        clock_speed: 1,
        redirect_url: null,
      },
    },
  },
};

const simulate = createRoute({
  method: "post",
  path: "/pay/{reference}/simulate",
  hide: true, // the page's own action, not part of the API
  request: {
    params: z.object({ reference: z.string().max(100) }),
    body: { required: false, content: { "application/json": { schema: SimulateBody } } },
  },
  responses: {
    200: json(z.object({ success: z.literal(true), data: z.record(z.string(), z.unknown()) }), "The link after payment", SIMULATE_PAID),
    ...errors({
      404: { notFound: { summary: "No link with this reference", value: { success: false, message: "No such payment link.", error_code: "NOT_FOUND" } } },
      409: {
        invalidState: {
          summary: "The link is already paid, or expired",
          value: { success: false, message: "Payment link CHK_EIHCVSQ8DN0DMC5D is paid; only a pending link can be paid.", error_code: "INVALID_STATE" },
        },
      },
      422: {
        amountMismatch: {
          summary: "Not the link's exact amount",
          value: {
            success: false,
            message: "This link accepts exactly NGN 12500.00; a transfer of NGN 100.00 is refused and returned to the payer.",
            error_code: "AMOUNT_MISMATCH",
          },
        },
      },
    }),
  },
});

/**
 * The sandbox's simulated transfer from the payment page: the same amount schema as the control API's
 * pay lever, validated by the same hook, refused through the same error envelope.
 */
function simulateRoute(deps: PageDeps, lookup: (c: Context) => Promise<{ tenant: Tenant; checkout: Checkout } | undefined>) {
  return router().openapi(simulate, async (c) => {
    const found = await lookup(c);
    if (!found) throw new DomainError("NOT_FOUND", "No such payment link.");
    const { tenant, checkout } = found;
    const amount = c.req.valid("json").amount;
    await deps.commits.change(tenant, () => payCheckout(contextOf(tenant), tenant.state, checkout.reference, amount === undefined ? undefined : toMinor(amount)));
    return c.json({ success: true as const, data: publicView(tenant, checkout) }, 200);
  });
}
