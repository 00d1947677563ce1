/**
 * The payment page's states read wrong: once paid it said "Time left: Paid: the account is closed",
 * once expired "Time left: 00:00"; while pending it printed the amount three times and the
 * reference twice. Each state is now one server-rendered view: pending has the countdown, the amount
 * once and the reference once; paid says when it was paid on the merchant's clock, with no "Time
 * left"; expired says when it expired. The view the script fetches after a live change
 * (/pay/{reference}/view) is the page's own, byte for byte.
 */
import { describe, expect, it } from "vitest";
import { expectError, harness, type Harness } from "../helpers.js";

const AMOUNT = "₦12,500.00";

/** The words of an HTML fragment, tags dropped and entities read. */
const words = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .replace(/ ([.,:])/g, "$1")
    .trim();
const count = (text: string, part: string) => text.split(part).length - 1;
/** The customer's part of the page: <main> without the sandbox panel. */
const customerPart = (html: string) => html.slice(html.indexOf("<main"), html.indexOf('<section class="pay-sandbox"'));

async function link(h: Harness) {
  const m = await h.merchant({ business_name: "Mama Put Foods Ltd" });
  const res = await m.call("POST", "/api/v1/checkout/create", { body: { amount: 12_500, description: "Jollof rice for two", customer_email: "ada@example.com" } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { m, reference: res.body.reference as string };
}

/** The page and the view its script fetches: the view's chip and state view are the page's own. */
async function pageAndView(h: Harness, reference: string) {
  const page = await h.call("GET", `/pay/${reference}`);
  expect(page.status).toBe(200);
  const view = await h.call("GET", `/pay/${reference}/view`);
  expect(view.status).toBe(200);
  expect(view.headers.get("content-type")).toMatch(/^text\/html/);
  const html: string = page.body;
  const fragment: string = view.body;
  const at = fragment.indexOf('<div id="state-view"');
  expect(at).toBeGreaterThan(0);
  expect(html).toContain(fragment.slice(0, at)); // the status chip
  expect(html).toContain(fragment.slice(at)); // the state view
  return { html, text: words(customerPart(html)) };
}

describe("the payment page's states", () => {
  it("pending: the countdown, the amount once, the reference once", async () => {
    const h = harness();
    const { reference } = await link(h);
    const { text } = await pageAndView(h, reference);
    expect(text).toContain("Awaiting payment");
    expect(text).toContain("Time left --:--");
    expect(count(text, AMOUNT)).toBe(1);
    expect(count(text, reference)).toBe(1);
    expect(text).toContain("Reference " + reference);
    expect(text).toContain("Paying as ada@example.com");
    expect(text).toContain("Transfer exactly the amount above to this one-time account. It accepts only that amount and closes 30 minutes after the link was created.");
  });

  it("paid: when, on the merchant's clock, and no time left", async () => {
    const h = harness();
    const { reference } = await link(h);
    const paid = await h.call("POST", `/pay/${reference}/simulate`, { body: {} });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const { html, text } = await pageAndView(h, reference);
    expect(text).toContain(
      `Paid Payment received ${AMOUNT} Jollof rice for two Paid to Mama Put Foods Ltd on 2 Mar 2026, 10:00 WAT. You can close this page. Reference ${reference} Paid by ada@example.com Times are West Africa Time on Mama Put Foods Ltd's sandbox clock.`,
    );
    expect(text).not.toMatch(/Time left|closed|--:--/);
    expect(count(text, AMOUNT)).toBe(1);
    expect(count(text, reference)).toBe(1);
    expect(html).not.toContain("account-number");
  });

  it("expired: when it expired, and no 00:00", async () => {
    const h = harness();
    const { m, reference } = await link(h);
    expect((await m.call("POST", "/sandbox/v1/clock/advance", { body: { by: "30m" } })).status).toBe(200);
    const { html, text } = await pageAndView(h, reference);
    expect(text).toContain(
      `Expired This payment link has expired ${AMOUNT} Jollof rice for two It expired on 2 Mar 2026, 10:30 WAT. Its one-time account is closed: do not transfer to it. Ask Mama Put Foods Ltd for a new payment link. If you already sent money, your bank returns it. Reference ${reference}`,
    );
    expect(text).not.toMatch(/Time left|00:00|--:--/);
    expect(count(text, AMOUNT)).toBe(1);
    expect(count(text, reference)).toBe(1);
    expect(html).not.toContain("account-number");
  });

  it("the view of an unknown link is the error envelope's 404", async () => {
    expectError(await harness().call("GET", "/pay/CHK_NO_SUCH_LINK/view"), 404, "NOT_FOUND");
  });
});
