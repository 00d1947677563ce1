/** `GET /sandbox/v1/snapshot` returned a body that `PUT /sandbox/v1/snapshot` refused. */
import { describe, expect, it } from "vitest";
import { harness } from "../helpers.js";

describe("snapshots round-trip", () => {
  it("PUT accepts GET's whole body as it came, and the state is the same after", async () => {
    const h = harness();
    const m = await h.merchant({ wallet_balance: 1234.5 });
    await m.call("POST", "/api/v1/checkout/create", { body: { amount: 2500, description: "Jollof for two" } });
    const exported = await m.call("GET", "/sandbox/v1/snapshot");

    // Later changes are undone by putting the exported body back as it came.
    await m.call("POST", "/sandbox/v1/wallet/fund", { body: { amount: 100 } });
    await m.call("POST", "/api/v1/checkout/create", { body: { amount: 900 } });
    const put = await m.call("PUT", "/sandbox/v1/snapshot", { body: exported.body });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect((await m.call("GET", "/sandbox/v1/snapshot")).body).toEqual(exported.body);
    expect((await m.call("GET", "/api/v1/wallet/balance")).body.data.balance).toBe(1234.5);
    // The inner snapshot alone is still accepted.
    expect((await m.call("PUT", "/sandbox/v1/snapshot", { body: exported.body.data })).status).toBe(200);
  });

  it("and into a merchant of another sandbox, which keeps its own keys", async () => {
    const source = await harness().merchant({ wallet_balance: 77 });
    await source.call("POST", "/api/v1/checkout/create", { body: { amount: 2500 } });
    const exported = await source.call("GET", "/sandbox/v1/snapshot");
    const target = await harness().merchant();
    expect((await target.call("PUT", "/sandbox/v1/snapshot", { body: exported.body })).status).toBe(200);
    const after = (await target.call("GET", "/sandbox/v1/snapshot")).body.data;
    expect(after.state).toEqual(exported.body.data.state.timers.length ? expect.anything() : exported.body.data.state);
    expect(after.merchant.api_key).toBe(target.apiKey);
    expect((await target.call("GET", "/api/v1/wallet/balance")).body.data.balance).toBe(77);
  });
});
