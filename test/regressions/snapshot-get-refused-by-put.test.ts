/** Issue 10, finding 6: `GET /sandbox/v1/snapshot` returned a body that `PUT /sandbox/v1/snapshot` refused. */
import { describe, expect, it } from "vitest";
import { harness } from "../helpers.js";

describe("snapshots round-trip", () => {
  it("PUT accepts GET's whole body as it came, and the state is the same after", async () => {
    const h = harness();
    const source = await h.merchant({ wallet_balance: 1234.5 });
    await source.call("POST", "/api/v1/checkout/create", { body: { amount: 2500, description: "Jollof for two" } });
    const exported = await source.call("GET", "/sandbox/v1/snapshot");

    const target = await h.merchant();
    const put = await target.call("PUT", "/sandbox/v1/snapshot", { body: exported.body });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const again = await target.call("GET", "/sandbox/v1/snapshot");
    const { merchant: a, ...restA } = exported.body.data;
    const { merchant: b, ...restB } = again.body.data;
    expect(restB).toEqual(restA);
    expect({ ...b, merchant_id: 0, api_key: 0, api_secret: 0, webhook_secret: 0 }).toEqual({ ...a, merchant_id: 0, api_key: 0, api_secret: 0, webhook_secret: 0 });
    expect((await target.call("GET", "/api/v1/wallet/balance")).body.data.balance).toBe(1234.5);
    // The inner snapshot alone is still accepted.
    expect((await target.call("PUT", "/sandbox/v1/snapshot", { body: exported.body.data })).status).toBe(200);
  });
});
