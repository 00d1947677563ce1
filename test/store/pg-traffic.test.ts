/**
 * Traffic on one PostgreSQL database shared by two nodes (test/support/pg-nodes.ts): a merchant's
 * request log lists the requests every node served, in one seq order, as one node alone would list
 * them (through both nodes, its bound, a clear); the sign-up quota holds across the nodes exactly; the
 * credit report and the doctor's last scorecard read the same from either node.
 */
import { describe, expect, it } from "vitest";
import { client } from "../client.js";
import { expectError, harness, type Merchant, type Reply } from "../helpers.js";
import { SKIP_POSTGRES, usePostgres } from "../support/postgres.js";
import { pgNode, useTwoNodes, type PgNode } from "../support/pg-nodes.js";
import { trimEvery } from "../../src/store/postgres/traffic-rows.js";

const pg = usePostgres();

/** Every entry of the merchant's log as the node lists it, oldest first. */
async function listed(m: Merchant): Promise<{ log: Record<string, unknown>; entries: Array<Record<string, any>> }> {
  const res = await m.call("GET", "/sandbox/v1/requests?per_page=100");
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { log: res.body.log, entries: [...res.body.data].reverse() };
}

const seqsOf = (entries: Array<Record<string, any>>) => entries.map((e) => e.seq as number);
/** What a request was, whichever node served it. */
const shape = (e: Record<string, any>) => [e.method, e.path, e.operation, e.status, e.error_code];
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** A mixed sequence of API calls: reads, payouts, a refusal. */
const sequence = (m: (i: number) => Merchant) =>
  Array.from({ length: 12 }, (_, i) => {
    const who = m(i);
    if (i % 4 === 1) return () => client(who).payout({ amount: 100, reference: `seq-${i}` });
    if (i % 4 === 3) return () => who.call("GET", "/api/v1/payout/status/nope");
    return () => who.call("GET", "/api/v1/wallet/balance");
  });

describe.skipIf(SKIP_POSTGRES)("a merchant's traffic on two nodes of one PostgreSQL", () => {
  const nodes = useTwoNodes(pg);

  async function merchant(): Promise<{ onA: Merchant; onB: Merchant }> {
    const m = await nodes.a.h.merchant({ wallet_balance: 10_000 });
    return { onA: m, onB: nodes.b.as(m) };
  }

  it("requests sent through A and B in turn are listed by either node in one seq order, with no gap and no duplicate", async () => {
    const { onA, onB } = await merchant();
    const sent: string[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await (i % 2 ? onB : onA).call("GET", "/api/v1/wallet/balance");
      sent.push(res.headers.get("x-request-id")!);
    }
    const fromA = await listed(onA);
    const fromB = await listed(onB);
    expect(seqsOf(fromA.entries)).toEqual(range(1, 10));
    expect(fromA.entries.map((e) => e.request_id)).toEqual(sent);
    expect(fromB.entries).toEqual(fromA.entries);
    expect(fromB.log).toEqual(fromA.log);
    expect(fromA.log).toMatchObject({ size: 10, next_seq: 11 });
    // One entry whole, from the node that did not serve it.
    const one = await onA.call("GET", "/sandbox/v1/requests/2");
    expect(one.status).toBe(200);
    expect(one.body.data.request_id).toBe(sent[1]);
  });

  it("requests sent at once through both nodes get every seq once, and both nodes list them alike", async () => {
    const { onA, onB } = await merchant();
    const replies = await Promise.all(Array.from({ length: 24 }, (_, i) => (i % 2 ? onB : onA).call("GET", "/api/v1/wallet/balance", { ip: `10.9.0.${i + 1}` })));
    for (const r of replies) expect(r.status).toBe(200);
    const fromA = await listed(onA);
    const fromB = await listed(onB);
    expect(seqsOf(fromA.entries)).toEqual(range(1, 24));
    expect(new Set(fromA.entries.map((e) => e.request_id))).toEqual(new Set(replies.map((r: Reply) => r.headers.get("x-request-id"))));
    expect(fromB.entries).toEqual(fromA.entries);
  });

  it("clears amid payouts through both nodes wait on no lock in a circle: every call answered, both nodes list alike", async () => {
    const { onA, onB } = await merchant();
    const calls = Array.from({ length: 16 }, (_, i) => client(i % 2 ? onA : onB).payout({ amount: 100, reference: `mix-${i}` }, { ip: `10.8.0.${i + 1}` }));
    const clears = [onA, onB].map((m) => m.call("DELETE", "/sandbox/v1/requests"));
    const started = Date.now();
    for (const r of await Promise.all(calls)) expect(r.status, JSON.stringify(r.body)).toBe(201);
    for (const r of await Promise.all(clears)) expect(r.status).toBe(200);
    expect(Date.now() - started, "no call waited for a statement timeout").toBeLessThan(3_000);
    const fromA = await listed(onA);
    expect(fromA.log).toMatchObject({ next_seq: 17 });
    const seqs = seqsOf(fromA.entries);
    expect(seqs).toEqual(seqs.length === 0 ? [] : range(seqs[0]!, 16));
    expect(await listed(onB)).toEqual(fromA);
  });

  it("the log of a sequence sent through both nodes is what one node alone lists for it", async () => {
    const { onA, onB } = await merchant();
    const alone = await harness().merchant({ wallet_balance: 10_000 });
    for (const call of sequence((i) => (i % 3 ? onA : onB))) await call();
    for (const call of sequence(() => alone)) await call();
    const single = await listed(alone);
    for (const m of [onA, onB]) {
      const { log, entries } = await listed(m);
      expect(entries.map(shape)).toEqual(single.entries.map(shape));
      expect(seqsOf(entries)).toEqual(seqsOf(single.entries));
      expect(log).toEqual(single.log);
    }
    // The checks read that log too, on either node.
    const checks = async (m: Merchant) => (await m.call("GET", "/sandbox/v1/checks")).body.data;
    const fromA = await checks(onA);
    expect(fromA.examined).toMatchObject({ requests: 12, first_request_seq: 1 });
    expect(await checks(onB)).toEqual(fromA);
    expect(fromA).toEqual(await checks(alone));
  });

  it("a clear through A is seen by B; seqs go on from where they were", async () => {
    const { onA, onB } = await merchant();
    for (let i = 0; i < 4; i++) await (i % 2 ? onB : onA).call("GET", "/api/v1/wallet/balance");
    expect((await listed(onB)).entries).toHaveLength(4); // B holds them now
    const cleared = await onA.call("DELETE", "/sandbox/v1/requests");
    expect(cleared.status).toBe(200);
    expect(cleared.body.message).toBe("4 request(s) cleared");
    const afterClear = await listed(onB);
    expect(afterClear.entries).toEqual([]);
    expect(afterClear.log).toMatchObject({ size: 0, next_seq: 5 });
    await onB.call("GET", "/api/v1/wallet/balance");
    for (const m of [onA, onB]) expect(seqsOf((await listed(m)).entries)).toEqual([5]);
  });

  it("the credit report put through A is what the checks on B compare against, and its withdrawal too", async () => {
    const { onA, onB } = await merchant();
    const put = await onA.call("PUT", "/sandbox/v1/checks/credits", { body: { transaction_ids: ["TX1", "TX2", "TX2"] } });
    expect(put.status).toBe(200);
    const examined = async (m: Merchant) => (await m.call("GET", "/sandbox/v1/checks")).body.data.examined;
    expect((await examined(onB)).credits_reported).toBe(3);
    expect((await onB.call("DELETE", "/sandbox/v1/checks/credits")).status).toBe(200);
    expect((await examined(onA)).credits_reported).toBeNull();
  });

  it("the doctor's last scorecard, from a run through A, is on B's dashboard", async () => {
    const m = await nodes.a.h.merchant({ webhook_capture: {} });
    const onB = nodes.b.as(m);
    const fragment = async (x: Merchant) => (await x.call("GET", "/dashboard/fragments/doctor")).body as string;
    expect(await fragment(onB)).toContain("No run yet.");
    expect((await m.call("POST", "/sandbox/v1/webhooks/doctor", { body: {} })).status).toBe(200);
    expect(await fragment(onB)).toContain("5 of 9 cases passed, 4 failed");
  });
});

describe.skipIf(SKIP_POSTGRES)("bounds that hold across two nodes", () => {
  const CAPACITY = 5;
  const SIGNUPS = 3;
  const nodes = useTwoNodes(pg, { requestLogSize: CAPACITY, quotas: { signupsPerMinute: SIGNUPS, scenarioLoadsPerMinute: 0 } });

  it("a log of --request-log N keeps the newest N on both nodes, and the table holds little more", async () => {
    const onA = await nodes.a.h.merchant({}, { ip: "10.1.0.1" });
    const onB = nodes.b.as(onA);
    for (let i = 0; i < 13; i++) await (i % 2 ? onB : onA).call("GET", "/api/v1/wallet/balance");
    for (const m of [onA, onB]) {
      const { log, entries } = await listed(m);
      expect(seqsOf(entries)).toEqual(range(9, 13));
      expect(log).toMatchObject({ capacity: CAPACITY, size: CAPACITY, next_seq: 14 });
      expectError(await m.call("GET", "/sandbox/v1/requests/8"), 404, "NOT_FOUND");
    }
    const [row] = await nodes.a.sql<{ n: number }[]>`select count(*)::int as n from msb_request_log where merchant_id = ${onA.id}`;
    expect(row!.n).toBeLessThanOrEqual(CAPACITY + trimEvery(CAPACITY));
  });

  it("a node that first serves the merchant after many requests holds what one node would", async () => {
    const onA = await nodes.a.h.merchant({}, { ip: "10.1.0.2" });
    for (let i = 0; i < 11; i++) await onA.call("GET", "/api/v1/wallet/balance");
    const c = await pgNode(pg.cluster.url, nodes.wall, "node-c", { requestLogSize: CAPACITY });
    try {
      const { log, entries } = await listed(c.as(onA));
      expect(seqsOf(entries)).toEqual(range(7, 11));
      expect(log).toMatchObject({ size: CAPACITY, next_seq: 12 });
    } finally {
      await c.close();
    }
  });

  it(`sign-ups from one address: ${SIGNUPS} a minute across both nodes, the rest QUOTA_EXCEEDED with retry_after, free again a minute later`, async () => {
    const ip = "10.2.0.1";
    const signUp = (node: PgNode) => node.h.call("POST", "/sandbox/v1/merchants", { body: {}, ip });
    const replies = await Promise.all(Array.from({ length: 8 }, (_, i) => signUp(i % 2 ? nodes.b : nodes.a)));
    expect(replies.filter((r) => r.status === 201)).toHaveLength(SIGNUPS);
    const refused = replies.filter((r) => r.status !== 201);
    expect(refused).toHaveLength(8 - SIGNUPS);
    for (const r of refused) {
      const err = expectError(r, 429, "QUOTA_EXCEEDED");
      expect(err.retry_after).toBe(60);
    }
    // Another address is still served.
    expect((await nodes.a.h.call("POST", "/sandbox/v1/merchants", { body: {}, ip: "10.2.0.2" })).status).toBe(201);
    nodes.wall.now += 30_000;
    expect(expectError(await signUp(nodes.b), 429, "QUOTA_EXCEEDED").retry_after).toBe(30);
    nodes.wall.now += 30_000;
    expect((await signUp(nodes.b)).status).toBe(201);
    expect((await signUp(nodes.a)).status).toBe(201);
  });
});
