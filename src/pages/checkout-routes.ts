/**
 * Public routes of the payment-link pages (the customer has no API keys): the page, its status, and
 * the sandbox's simulated transfer. A link's reference names it across all merchants.
 */
import { Hono, type Context } from "hono";
import { checkoutStatus, payCheckout } from "../domain/checkout.js";
import { DomainError } from "../domain/errors.js";
import { z } from "@hono/zod-openapi";
import { toMajor, toMinor } from "../domain/money.js";
import type { ClockDriver } from "../engine/clock-driver.js";
import { errorResponse } from "../http/errors.js";
import { amount as amountSchema } from "../domain/fields.js";
import type { Checkout } from "../domain/records.js";
import { cspNonce, pageSecurityHeaders } from "../http/security-headers.js";
import { formatIssues } from "../http/validation.js";
import type { Registry } from "../engine/registry.js";
import { contextOf, type Tenant } from "../engine/tenant.js";
import { LinkNotFoundPage, LinkPage, type LinkPageData } from "./checkout-page.js";

const SimulateBody = z.object({ amount: amountSchema({ min: 0.01, max: 1e10 }).optional() });

export interface PageDeps {
  registry: Registry;
  driver: ClockDriver;
  /** Starts webhook deliveries, re-arms timers and saves, after a change made from a page. */
  afterChange: (tenant: Tenant) => Promise<void>;
}

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

export function checkoutPages(deps: PageDeps) {
  // References are unique sandbox-wide, so the registry's index names the one merchant (no scan).
  const lookup = async (c: Context) => {
    const found = deps.registry.findCheckout(c.req.param("reference") ?? "");
    if (found) await deps.driver.catchUpForRead(found.tenant);
    return found;
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
      if (!found) return errorResponse(c, "NOT_FOUND", "No such payment link.");
      return c.json({ success: true, data: view(found.tenant, found.checkout) });
    })
    .post("/pay/:reference/simulate", async (c) => {
      const found = await lookup(c);
      if (!found) return errorResponse(c, "NOT_FOUND", "No such payment link.");
      // The same amount rule as the control API's pay lever, through the same schema and error format.
      let raw: unknown;
      try {
        raw = await c.req.json();
      } catch {
        return errorResponse(c, "INVALID_JSON", "The request body is not valid JSON.");
      }
      const parsed = SimulateBody.safeParse(raw);
      if (!parsed.success) {
        return errorResponse(c, "VALIDATION_ERROR", "The given data was invalid.", { errors: formatIssues(parsed.error.issues, raw) });
      }
      const amount = parsed.data.amount;
      const { tenant } = found;
      try {
        payCheckout(contextOf(tenant), tenant.state, found.checkout.reference, amount === undefined ? undefined : toMinor(amount));
      } catch (err) {
        if (err instanceof DomainError) return errorResponse(c, err.code, err.message, err.details);
        throw err;
      }
      await deps.afterChange(tenant);
      return c.json({ success: true, data: view(tenant, found.checkout) });
    });
}
