/**
 * The pages behind `payment_link` and `checkout_url`: a plain, self-contained page that shows the
 * customer what to pay and where. (The branded page with the simulate button comes with the pages work.)
 */
import { Hono } from "hono";
import { html } from "hono/html";
import { checkoutStatus } from "../domain/checkout.js";
import { toMajor } from "../domain/money.js";
import type { Registry } from "../store/registry.js";
import type { Checkout } from "../store/types.js";

function findAnywhere(registry: Registry, reference: string): { checkout: Checkout; now: number } | undefined {
  // References are drawn from a 36^16 space, so a reference names one checkout across all merchants.
  for (const tenant of registry.list()) {
    const checkout = tenant.state.checkouts.get(reference);
    if (checkout) return { checkout, now: tenant.clock.now() };
  }
  return undefined;
}

export function checkoutPages(registry: Registry) {
  const page = (title: string) => (c: import("hono").Context) => {
    const found = findAnywhere(registry, c.req.param("reference") ?? "");
    if (!found) return c.html(html`<!doctype html><title>Payment link not found</title><p>This payment link does not exist.</p>`, 404);
    const { checkout, now } = found;
    const naira = toMajor(checkout.amount).toLocaleString("en-NG", { minimumFractionDigits: 2 });
    return c.html(html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title></head>
<body>
<main>
<h1>${title}</h1>
<p>Amount: NGN ${naira}</p>
${checkout.description ? html`<p>${checkout.description}</p>` : ""}
<p>Transfer exactly NGN ${naira} to ${checkout.bank_name}, account ${checkout.account_number} (${checkout.account_name}).</p>
<p>Status: <strong data-status>${checkoutStatus(checkout, now)}</strong>; expires at ${new Date(checkout.expires_at).toISOString()}.</p>
</main>
</body></html>`);
  };
  return new Hono().get("/pay/:reference", page("Pay with bank transfer")).get("/processor/checkout/:reference", page("Checkout"));
}
