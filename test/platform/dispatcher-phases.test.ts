/**
 * Webhook delivery split into phases (plan, send, record) must not change what a seeded sandbox does:
 * the same delivery ids, nonces, order, outcomes and retry times, in memory and with --data alike. The
 * file snapshot was recorded from the dispatcher before the split; both stores must still give it.
 * Several events fall due at one instant (payouts settling together), so attempts of one instant run
 * side by side, with every webhook fault and built-in capture failures that schedule retries.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LOCAL_TRAFFIC, MemoryTenantStore, type TenantStore } from "../../src/engine/tenant-store.js";
import type { Tenant } from "../../src/engine/tenant.js";
import { FileTenantStore } from "../../src/persistence/file-tenant-store.js";
import { createRuntime } from "../../src/runtime.js";
import { buildRegistry } from "../../src/server.js";
import { verifyWebhookSignature } from "../../src/webhooks/sign.js";
import { client } from "../client.js";
import { harness } from "../helpers.js";

const FAULTS = ["duplicate", "out_of_order", "delay", "drop", "bad_signature"] as const;

async function scenario(store: "memory" | "file") {
  const dir = store === "file" ? mkdtempSync(join(tmpdir(), "msb-phases-")) : undefined;
  const { registry } = buildRegistry({ seed: "dispatcher-phases" });
  const tenantStore = dir ? new FileTenantStore(dir, registry, { wholeBelowBytes: 0 }) : undefined;
  const runtime = createRuntime({ store: tenantStore });
  tenantStore?.attach(runtime.driver);
  try {
    const h = harness({ registry, runtime });
    const c = client(
      await h.merchant({
        wallet_balance: 10_000_000,
        webhook_capture: { fail_first: 7 },
        delays: { payout_settlement_seconds: 30 },
        limits: { requests_per_minute: 0, payout_attempts_per_hour: 0, payout_attempts_per_ip_per_hour: 0 },
      }),
    );
    for (const outcome of FAULTS) await c.rule({ target: "webhook", outcome, times: 2 });
    // Events emitted by requests, one at a time.
    const account = (await c.virtualAccount()).account_number;
    for (let i = 0; i < 3; i++) await c.transferIn(account, 1_000 + i);
    // Events emitted together: payouts that settle at one instant.
    for (let i = 0; i < 6; i++) await c.processingPayout({ amount: 2_000 + i });
    await c.advance(30);
    for (let i = 0; i < 8; i++) await c.advance(600);
    const [first] = await c.events();
    const redelivery = await c.call("POST", `/sandbox/v1/events/${first!.id}/redeliver`);
    await c.advance(86_400);
    await c.flush();
    // The webhook secret is not drawn from the seed, so a signature is kept as whether it verifies.
    const deliveries = (await c.deliveries()).map(({ request_headers, ...d }: any) => {
      const { "x-webhook-signature": signature, ...headers } = request_headers;
      const verifies = signature === undefined ? null : verifyWebhookSignature(d.request_body, signature, c.merchant.webhookSecret);
      return { ...d, request_headers: headers, verifies, latency_ms: null };
    });
    const events = (await c.events()).map(({ id, type, status, attempts }: any) => ({ id, type, status, attempts }));
    return { redelivery: redelivery.status, events, deliveries };
  } finally {
    runtime.stop();
    await tenantStore?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

describe("webhook delivery phases", () => {
  it("a seeded run gives the recorded deliveries and ids in memory", async () => {
    await expect(JSON.stringify(await scenario("memory"), null, 2)).toMatchFileSnapshot("./__snapshots__/dispatcher-phases.json");
  });

  it("and the same with the folder store", async () => {
    await expect(JSON.stringify(await scenario("file"), null, 2)).toMatchFileSnapshot("./__snapshots__/dispatcher-phases.json");
  });

  it("with a shared store, an attempt is planned in the change that emitted its event and recorded in a change of its own, each kept before the attempt goes on", async () => {
    const memory = new MemoryTenantStore();
    /** Per change: what its work returned, the delivery log's length before and after it, and the outbox's after it. */
    const changes: { result: any; before: number; after: number; outbox: number }[] = [];
    const shared: TenantStore = {
      kind: "memory",
      shared: true,
      ...LOCAL_TRAFFIC,
      resolveKey: () => undefined,
      resolveCheckout: () => undefined,
      fresh: () => undefined,
      async change<T>(t: Tenant, work: () => T | Promise<T>): Promise<T> {
        await Promise.resolve(); // another process's store answers later, never in the same tick
        const before = t.state.deliveries.length;
        const result = await work();
        changes.push({ result, before, after: t.state.deliveries.length, outbox: t.state.outbox.length });
        return result;
      },
      created: () => memory.created(),
      removed: () => memory.removed(),
      health: () => memory.health(),
      close: () => memory.close(),
    };
    const runtime = createRuntime({ store: shared });
    try {
      const h = harness({ registry: buildRegistry({ seed: "dispatcher-phases" }).registry, runtime });
      const c = client(await h.merchant({ webhook_capture: { fail_first: 0 } }));
      await c.transferIn((await c.virtualAccount()).account_number);
      await c.flush();
      // The transfer's own change took its event off the outbox and planned the attempt (nothing logged
      // yet); the record's change applied the answer and logged it.
      const recorded = changes.filter((x) => typeof x.result?.delivery?.id === "string" && x.result.delivery.id.startsWith("DLV"));
      expect(recorded).toHaveLength(1);
      expect(recorded[0]).toMatchObject({ before: 0, after: 1, result: { delivery: { trigger: "initial", url: "sandbox:webhook-capture", fault: null, outcome: "delivered" } } });
      const transfer = changes[changes.indexOf(recorded[0]!) - 1]!;
      expect(transfer).toMatchObject({ before: 0, after: 0, outbox: 0 });
      expect(changes.filter((x) => x.outbox > 0), "no change left an event in the outbox").toEqual([]);
      expect((await c.events())[0]).toMatchObject({ status: "delivered", attempts: 1 });
    } finally {
      runtime.stop();
    }
  });
});
