/**
 * `GET /pay/{reference}/status` is public to anyone who holds a link's reference. It answered the
 * one-time account (number, bank, name) and the customer's email after the link was paid or expired,
 * though the page itself no longer showed them. It now says what the page needs and no more: the
 * account only while the link can be paid into, the email never.
 */
import { describe, expect, it } from "vitest";
import { client } from "../client.js";
import { harness } from "../helpers.js";

const ACCOUNT_FIELDS = ["account_number", "bank_name", "account_name"];
const MINUTE = 60;

async function linkOf(h: ReturnType<typeof harness>) {
  const c = client(await h.merchant());
  const link = await c.call("POST", "/api/v1/checkout/create", { body: { amount: 1500, customer_email: "ada@example.com", customer_name: "Ada Obi" } });
  expect(link.status, JSON.stringify(link.body)).toBe(200);
  return { c, reference: link.body.reference as string };
}

/** The status as an anonymous client reads it: no keys, only the reference. */
async function anonymousStatus(h: ReturnType<typeof harness>, reference: string) {
  const res = await h.call("GET", `/pay/${reference}/status`);
  expect(res.status).toBe(200);
  return res.body.data as Record<string, unknown>;
}

describe("the public status of a payment link", () => {
  it("while pending: the account to pay into, never the customer's email", async () => {
    const h = harness();
    const { reference } = await linkOf(h);
    const data = await anonymousStatus(h, reference);
    expect(data.status).toBe("pending");
    for (const field of ACCOUNT_FIELDS) expect(data[field], field).toEqual(expect.any(String));
    expect(data).not.toHaveProperty("customer_email");
    expect(JSON.stringify(data)).not.toContain("ada@example.com");
  });

  it("once paid: neither the account nor the email, through the status and the simulate reply", async () => {
    const h = harness();
    const { reference } = await linkOf(h);
    const pending = await anonymousStatus(h, reference);
    const paid = await h.call("POST", `/pay/${reference}/simulate`, { body: {} });
    expect(paid.status).toBe(200);
    for (const data of [paid.body.data, await anonymousStatus(h, reference)]) {
      expect(data.status).toBe("paid");
      expect(data.paid_at).toEqual(expect.any(String));
      for (const field of [...ACCOUNT_FIELDS, "customer_email"]) expect(data, field).not.toHaveProperty(field);
      expect(JSON.stringify(data)).not.toContain(pending.account_number as string);
    }
  });

  it("once expired: neither the account nor the email", async () => {
    const h = harness();
    const { c, reference } = await linkOf(h);
    const pending = await anonymousStatus(h, reference);
    await c.advance(31 * MINUTE);
    const data = await anonymousStatus(h, reference);
    expect(data.status).toBe("expired");
    for (const field of [...ACCOUNT_FIELDS, "customer_email"]) expect(data, field).not.toHaveProperty(field);
    expect(JSON.stringify(data)).not.toContain(pending.account_number as string);
    // The merchant, with its keys, still reads the whole link.
    const own = await c.call("GET", `/api/v1/checkout/status?reference=${reference}`);
    expect(own.status).toBe(200);
    expect(JSON.stringify(own.body)).toContain(pending.account_number as string);
  });
});
