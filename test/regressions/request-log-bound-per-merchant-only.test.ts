/**
 * The request log (500 entries and 2 MB a merchant) and the webhook delivery log (1,000 deliveries a
 * merchant) were bounded per merchant only: with 20,000 merchants the sandbox could hold about 40 GB of
 * them. A sandbox-wide budget (--log-budget-mb) now bounds them together: past it, the largest logs
 * lose their oldest entries first, and a small log is left alone. A small budget shows it here.
 */
import { describe, expect, it } from "vitest";
import { Registry } from "../../src/engine/registry.js";
import { loadCatalog } from "../../src/store/fixtures.js";
import { harness, type Merchant } from "../helpers.js";

const catalog = loadCatalog();

function sandboxWithBudget(bytes: number) {
  return harness({ registry: new Registry({ catalog, logBudgetBytes: bytes }) });
}

const bodiesOf = (m: Merchant) => m.tenant.requestLog.all().reduce((sum, e) => sum + (e.request_body?.length ?? 0) + (e.response_body?.length ?? 0), 0);

describe("the request logs of all merchants together", () => {
  it("hold at most the budget: the busiest logs lose their oldest requests, a quiet merchant's log is untouched", async () => {
    const budget = 256 * 1024;
    const h = sandboxWithBudget(budget);
    const quiet = await h.merchant();
    expect((await quiet.call("GET", "/api/v1/wallet/balance")).status).toBe(200);
    const busy: Merchant[] = [];
    for (let i = 0; i < 12; i++) busy.push(await h.merchant());
    // Each request keeps an 8 KB body: about 700 KB in all, near three times the budget.
    for (let round = 0; round < 6; round++) {
      for (const m of busy) expect((await m.call("POST", "/api/v1/virtual-account/create", { body: { email: "x".repeat(8_000), round } })).status).toBe(422);
    }
    const all = [quiet, ...busy];
    expect(all.reduce((sum, m) => sum + bodiesOf(m), 0)).toBeLessThanOrEqual(budget);
    expect(h.registry.logBudget.used).toBeLessThanOrEqual(budget);
    expect(quiet.tenant.requestLog.size).toBe(1);
    // What is left of each busy log is its newest requests.
    for (const m of busy) {
      const kept = m.tenant.requestLog.all();
      expect(kept.length).toBeGreaterThan(0);
      expect(kept.at(-1)!.seq).toBe(6);
      expect(kept.length).toBeLessThan(6);
    }
  });
});

describe("the webhook delivery logs of all merchants together", () => {
  it("hold at most the budget: each merchant keeps its newest deliveries", async () => {
    const budget = 64 * 1024;
    const h = sandboxWithBudget(budget);
    const merchants: Merchant[] = [];
    for (let i = 0; i < 10; i++) merchants.push(await h.merchant({ webhook_capture: { fail_first: 0 } }));
    const sent = new Map<Merchant, string[]>(merchants.map((m) => [m, []]));
    // About 1 KB each, 100 KB in all.
    for (let round = 0; round < 10; round++) {
      for (const m of merchants) {
        const res = await m.call("POST", "/sandbox/v1/webhooks/test");
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        sent.get(m)!.push(res.body.data.id);
      }
    }
    const kept = merchants.map((m) => m.tenant.state.deliveries.map((d) => d.id));
    expect(kept.flat().length).toBeLessThan(100);
    expect(h.registry.logBudget.used).toBeLessThanOrEqual(budget);
    merchants.forEach((m, i) => {
      const ids = sent.get(m)!;
      expect(kept[i]!.length).toBeGreaterThan(0);
      expect(kept[i]).toEqual(ids.slice(ids.length - kept[i]!.length));
    });
    // The delivery list says the same.
    const listed = (await merchants[0]!.call("GET", "/sandbox/v1/webhook-deliveries")).body.data.map((d: { id: string }) => d.id);
    expect([...listed].sort()).toEqual([...kept[0]!].sort());
  });
});
