/**
 * The control API's levers answered with "any object" in the
 * document (payout, VTU and payment-link levers), so generated clients and Prism checked nothing, and
 * the pay lever's record lacked the links GET /api/v1/checkout/status gives, though documented as the same.
 */
import { describe, expect, it } from "vitest";
import { client } from "../client.js";
import { harness } from "../helpers.js";
import { openApiDocument } from "../openapi-check.js";

const doc = openApiDocument() as unknown as { paths: Record<string, Record<string, any>> };
const schemaOf = (path: string) => JSON.stringify(doc.paths[path]!.post.responses["200"].content["application/json"].schema);

describe("lever responses are the records the API documents", () => {
  it("payout, VTU and payment-link levers reference PayoutStatus, VtuTransaction and Checkout", () => {
    for (const lever of ["approve", "reject", "complete", "fail"]) expect(schemaOf(`/sandbox/v1/payouts/{reference}/${lever}`)).toContain("#/components/schemas/PayoutStatus");
    for (const lever of ["succeed", "fail"]) expect(schemaOf(`/sandbox/v1/vtu/{reference}/${lever}`)).toContain("#/components/schemas/VtuTransaction");
    expect(schemaOf("/sandbox/v1/checkout/{reference}/pay")).toContain("#/components/schemas/Checkout");
  });

  it("the pay lever answers with the status endpoint's record, links included", async () => {
    const c = client(await harness().merchant({ wallet_balance: 1_000 }));
    const link = await c.checkout({ amount: 500 });
    const paid = await c.payLink(link.reference);
    expect(paid.body.data).toEqual(await c.checkoutStatus(link.reference));
    expect(paid.body.data.payment_link).toBe(link.payment_link);
  });
});
