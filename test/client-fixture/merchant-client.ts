/**
 * A merchant's client generated from /openapi.json with the tools' default options: openapi-typescript
 * types (./generated/api.d.ts, written by test/platform/openapi.test.ts) and openapi-fetch. It is
 * written as a merchant would from the spec: optional fields with defaults are left out (customer_type,
 * airtime_type, brand), and every refusal is read through the one error envelope. tsc checks this file
 * against the generated types; the @ts-expect-error lines prove the types carry the spec's rules
 * (were they `any` or too loose, the directive would be unused: an error).
 */
import createClient from "openapi-fetch";
import type { components, paths } from "./generated/api.js";

type Client = ReturnType<typeof createClient<paths>>;
type ErrorEnvelope = components["schemas"]["Error"];

/** What the merchant's code sees of a refusal: the envelope's code and the fields it names. */
const refusal = (error: ErrorEnvelope | undefined) => (error ? { code: error.error_code, fields: Object.keys(error.errors ?? {}) } : undefined);

export async function merchantFlows(baseUrl: string, headers: { "X-Api-Key": string; "X-Api-Secret": string }) {
  const client = createClient<paths>({ baseUrl, headers });

  // Money in: a virtual account of each customer type (an individual without customer_type: its default).
  const individual = await client.POST("/api/v1/virtual-account/create", {
    body: { email: "ada@example.com", reference: "cust-ada", bank: "partnerbank", first_name: "Ada", last_name: "Obi", bvn: "22212345678" },
  });
  const business = await client.POST("/api/v1/virtual-account/create", {
    body: { customer_type: "business", email: "ops@mamaput.ng", reference: "cust-mamaput", bank: "partnerbank", business_name: "Mama Put Foods Ltd", cac_number: "RC1234567" },
  });
  const incomplete = await client.POST("/api/v1/virtual-account/create", {
    // A business without cac_number passes no type check (see below): cast as untyped input would be.
    body: { customer_type: "business", email: "x@example.com", reference: "cust-x", bank: "partnerbank", business_name: "X" } as never,
  });

  // A payment link.
  const checkout = await client.POST("/api/v1/checkout/create", { body: { amount: 12500, description: "Jollof rice for two" } });

  // Money out: name enquiry, then a payout; a bad check digit gets the same code wherever it is sent.
  const verified = await client.POST("/api/v1/payout/verify-account", { body: { bank_code: "058", account_number: "0000000018" } });
  const accountName: string = verified.data!.data.account_name;
  const payout = await client.POST("/api/v1/payout/transfer", {
    body: { amount: 2500, bank_code: "058", account_number: "0000000018", account_name: accountName, bank_name: "Guaranty Trust Bank", reference: "client-1" },
  });
  const duplicate = await client.POST("/api/v1/payout/transfer", {
    body: { amount: 2500, bank_code: "058", account_number: "0000000018", account_name: accountName, bank_name: "Guaranty Trust Bank", reference: "client-1" },
  });
  const badVerify = await client.POST("/api/v1/payout/verify-account", { body: { bank_code: "058", account_number: "0123456789" } });
  const badTransfer = await client.POST("/api/v1/payout/transfer", {
    body: { amount: 2500, bank_code: "058", account_number: "0123456789", account_name: "A B", bank_name: "Guaranty Trust Bank" },
  });
  await client.POST("/sandbox/v1/clock/advance", { body: { seconds: 30 } });
  const payoutStatus = await client.GET("/api/v1/payout/status", { params: { query: { reference: "client-1" } } });

  // Airtime without airtime_type (default VTU).
  const airtime = await client.POST("/api/v1/vtu/airtime", { body: { network: "mtn", phone: "08031234567", amount: 100 } });

  // A card without brand (default VISA): cardholder, KYC approved in the sandbox, card, funding.
  const holder = await client.POST("/api/v1/virtual-cards/cardholders", { body: { first_name: "Ada", last_name: "Obi", email: "ada@example.com" } });
  const holderId = holder.data!.cardholder_id;
  const early = await client.POST("/api/v1/virtual-cards", { body: { cardholder_id: holderId } });
  await client.POST("/sandbox/v1/cardholders/{id}/approve", { params: { path: { id: holderId } } });
  const card = await client.POST("/api/v1/virtual-cards", { body: { cardholder_id: holderId } });
  const missing = await client.GET("/api/v1/virtual-cards/{id}", { params: { path: { id: 999_999 } } });

  return {
    individual: { status: individual.response.status, type: individual.data?.data.customer_type },
    business: { status: business.response.status, type: business.data?.data.customer_type },
    incomplete: refusal(incomplete.error),
    checkout: { status: checkout.response.status, amount: checkout.data?.amount, link: typeof checkout.data?.checkout_url },
    payout: { status: payout.response.status, fee: payout.data?.data.fee, settled: payoutStatus.data?.data.status },
    duplicate: refusal(duplicate.error),
    badAccount: { verify: refusal(badVerify.error), transfer: refusal(badTransfer.error) },
    airtime: { status: airtime.response.status, purchase: airtime.data?.status },
    card: { beforeKyc: refusal(early.error), status: card.response.status, brand: card.data?.brand, missing: refusal(missing.error) },
  };
}

export function typeErrorsAreCaught(client: Client) {
  // @ts-expect-error an individual needs first_name and last_name
  void client.POST("/api/v1/virtual-account/create", { body: { email: "a@b.ng", reference: "r", bank: "partnerbank" } });
  void client.POST("/api/v1/virtual-account/create", {
    // @ts-expect-error bvn is for individuals only
    body: { customer_type: "business", email: "a@b.ng", reference: "r", bank: "partnerbank", business_name: "B", cac_number: "RC1", bvn: "22212345678" },
  });
  // @ts-expect-error a business needs cac_number
  void client.POST("/api/v1/virtual-account/create", { body: { customer_type: "business", email: "a@b.ng", reference: "r", bank: "partnerbank", business_name: "B" } });
  // @ts-expect-error amount must be a number
  void client.POST("/api/v1/payout/transfer", { body: { amount: "2500", bank_code: "058", account_number: "0000000018", account_name: "A", bank_name: "B" } });
  // @ts-expect-error airtime_type is VTU or Sharesell
  void client.POST("/api/v1/vtu/airtime", { body: { network: "mtn", phone: "08031234567", amount: 100, airtime_type: "Voucher" } });
  // @ts-expect-error no such path
  void client.GET("/api/v1/not-a-route");
}
