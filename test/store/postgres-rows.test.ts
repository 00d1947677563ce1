/**
 * Merchants as rows (src/store/postgres/merchant-rows.ts, lookup-rows.ts) on a real PostgreSQL: inserts
 * that are all or none, the merchant lock, the journal and its compaction while others append, claims
 * that belong to one merchant, and removal that leaves nothing behind. Snapshots and ops are any JSON
 * text: the layer stores them as given.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PG_DEFAULTS, connectPostgres, type Sql, type Tx } from "../../src/store/postgres/connect.js";
import { ClaimTaken, merchantOfClaim, merchantOfKey, replaceClaims, updateClaims, type Claim } from "../../src/store/postgres/lookup-rows.js";
import {
  MerchantLimitReached,
  appendChange,
  changesSince,
  compactMerchant,
  insertMerchants,
  loadMerchant,
  lockMerchant,
  merchantIds,
  readHead,
  removeMerchant,
  type NewMerchantRow,
} from "../../src/store/postgres/merchant-rows.js";
import { migrate } from "../../src/store/postgres/migrations.js";
import { SKIP_POSTGRES, usePostgres } from "../support/postgres.js";

const pg = usePostgres();

const merchant = (id: string, more: Partial<NewMerchantRow> = {}): NewMerchantRow => ({
  merchantId: id,
  apiKey: `sk_test_${id}`,
  snapshot: JSON.stringify({ merchant: id, note: "₦ 1 000,00 \u2028 \"quoted\"" }),
  clockWall: 1_700_000_000_000,
  nextDueWall: null,
  scenarioFile: null,
  claims: [],
  ...more,
});
const checkout = (value: string): Claim => ({ kind: "checkout", value });
const account = (value: string): Claim => ({ kind: "account", value });
const bytes = (text: string) => Buffer.byteLength(text);

describe.skipIf(SKIP_POSTGRES)("merchant rows on a real server", () => {
  let sql: Sql;
  beforeAll(async () => {
    sql = await connectPostgres(pg.cluster.url, { ...PG_DEFAULTS, poolSize: 6, nodeId: "node-r" });
    await migrate(sql, "node-r");
  });
  afterAll(async () => {
    await sql?.end();
  });

  const counted = async () => Number((await sql<{ value: number }[]>`select value from msb_counters where name = 'merchants'`)[0]!.value);
  const claimsOf = async (id: string) =>
    await sql<Claim[]>`select kind, value from msb_claims where merchant_id = ${id} order by kind, value`;
  /** One change as a node makes it: lock, append, commit. */
  const change = (id: string, ops: string, wallAt = 1_700_000_000_500) =>
    sql.begin(async (tx) => {
      const head = await lockMerchant(tx, id);
      return appendChange(tx, id, head!, { ops, nodeId: "node-r", wallAt, nextDueWall: null });
    });

  it("loads what it inserted: the snapshot text exact, at version 1, with key and claims found", async () => {
    const before = await counted();
    const a = merchant("MRC_a", { claims: [checkout("PL_a1"), account("0123456789")], scenarioFile: "/s/one.yaml", nextDueWall: 1_700_000_060_000 });
    const b = merchant("MRC_b", { snapshot: "{\n  \"spaced\" : [ 1 ,2 ]\n}" });
    await insertMerchants(sql, [a, b], Infinity);

    expect(await loadMerchant(sql, "MRC_a")).toEqual({
      head: { version: 1, snapshotVersion: 1, journalBytes: 0, clockWall: a.clockWall },
      snapshot: a.snapshot,
      changes: [],
    });
    expect((await loadMerchant(sql, "MRC_b"))!.snapshot).toBe(b.snapshot);
    expect(await loadMerchant(sql, "MRC_nobody")).toBeNull();
    expect(await merchantOfKey(sql, "sk_test_MRC_a")).toBe("MRC_a");
    expect(await merchantOfKey(sql, "sk_test_nobody")).toBeNull();
    expect(await merchantOfClaim(sql, checkout("PL_a1"))).toBe("MRC_a");
    expect(await merchantOfClaim(sql, account("0123456789"))).toBe("MRC_a");
    expect(await merchantOfClaim(sql, account("PL_a1"))).toBeNull();
    expect(await merchantIds(sql)).toEqual(expect.arrayContaining(["MRC_a", "MRC_b"]));
    expect(await merchantIds(sql, "/s/one.yaml")).toEqual(["MRC_a"]);
    expect(await sql`select next_due_wall from msb_merchants where merchant_id = 'MRC_a'`).toEqual([{ next_due_wall: 1_700_000_060_000 }]);
    expect(await counted()).toBe(before + 2);
  });

  it("refuses a merchant id that exists, or comes twice, and keeps none of the batch", async () => {
    await insertMerchants(sql, [merchant("MRC_dup")], Infinity);
    const before = await counted();
    await expect(insertMerchants(sql, [merchant("MRC_new1"), merchant("MRC_dup", { apiKey: "sk_other" })], Infinity)).rejects.toThrow(
      "merchant MRC_dup already exists",
    );
    await expect(insertMerchants(sql, [merchant("MRC_new2"), merchant("MRC_new2", { apiKey: "sk_other" })], Infinity)).rejects.toThrow(
      "merchant MRC_new2 already exists",
    );
    expect(await readHead(sql, "MRC_new1")).toBeNull();
    expect(await readHead(sql, "MRC_new2")).toBeNull();
    expect(await counted()).toBe(before);
  });

  it("keeps none of a batch when one of its claims is held by another merchant", async () => {
    await insertMerchants(sql, [merchant("MRC_holder", { claims: [checkout("PL_held")] })], Infinity);
    const before = await counted();
    const err = await insertMerchants(
      sql,
      [merchant("MRC_c", { claims: [checkout("PL_c")] }), merchant("MRC_d", { claims: [account("999"), checkout("PL_held")] })],
      Infinity,
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ClaimTaken);
    expect(err).toMatchObject({ claim: checkout("PL_held"), owner: "MRC_holder", message: "merchant MRC_holder already holds checkout PL_held" });
    for (const id of ["MRC_c", "MRC_d"]) expect(await readHead(sql, id)).toBeNull();
    expect(await merchantOfKey(sql, "sk_test_MRC_c")).toBeNull();
    expect(await merchantOfClaim(sql, checkout("PL_c"))).toBeNull();
    expect(await merchantOfClaim(sql, account("999"))).toBeNull();
    expect(await counted()).toBe(before);
  });

  it("keeps none of a batch when its api key is another merchant's, and never shows the key", async () => {
    await insertMerchants(sql, [merchant("MRC_keyed", { apiKey: "sk_test_shared_secret" })], Infinity);
    const before = await counted();
    const err = await insertMerchants(
      sql,
      [merchant("MRC_e", { claims: [checkout("PL_e")] }), merchant("MRC_f", { apiKey: "sk_test_shared_secret" })],
      Infinity,
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ClaimTaken);
    expect(err).toMatchObject({ claim: { kind: "api_key", value: "sk_test_shared_secret" }, owner: "MRC_keyed" });
    expect((err as Error).message).toBe("merchant MRC_keyed already uses this api key");
    for (const id of ["MRC_e", "MRC_f"]) expect(await readHead(sql, id)).toBeNull();
    expect(await merchantOfClaim(sql, checkout("PL_e"))).toBeNull();
    expect(await counted()).toBe(before);
    // Two merchants of one batch with one key: the second is refused, naming the first.
    await expect(
      insertMerchants(sql, [merchant("MRC_g", { apiKey: "sk_twice" }), merchant("MRC_h", { apiKey: "sk_twice" })], Infinity),
    ).rejects.toMatchObject({ owner: "MRC_g" });
    expect(await readHead(sql, "MRC_g")).toBeNull();
  });

  it("counts merchants against the limit: a batch that would pass it is refused whole", async () => {
    const n = await counted();
    const err = await insertMerchants(sql, [merchant("MRC_l1"), merchant("MRC_l2")], n + 1).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MerchantLimitReached);
    expect(err).toMatchObject({ max: n + 1 });
    expect(await readHead(sql, "MRC_l1")).toBeNull();
    expect(await counted()).toBe(n);
    await insertMerchants(sql, [merchant("MRC_l1"), merchant("MRC_l2")], n + 2);
    expect(await counted()).toBe(n + 2);
    await expect(insertMerchants(sql, [merchant("MRC_l3")], n + 2)).rejects.toBeInstanceOf(MerchantLimitReached);
  });

  it("makes a second lock wait until the first commits, then gives it the new version", async () => {
    await insertMerchants(sql, [merchant("MRC_lock")], Infinity);
    let secondGot: number | undefined;
    let second: Promise<void> | undefined;
    await sql.begin(async (tx) => {
      const head = (await lockMerchant(tx, "MRC_lock"))!;
      expect(head.version).toBe(1);
      second = sql.begin(async (other) => {
        secondGot = (await lockMerchant(other, "MRC_lock"))!.version;
      });
      // The second transaction is really waiting on the row lock, not merely slow.
      await expect
        .poll(async () => (await sql`select count(*) as n from pg_locks where not granted and locktype = 'transactionid'`)[0]!.n)
        .toBe(1);
      expect(secondGot).toBeUndefined();
      expect(await appendChange(tx, "MRC_lock", head, { ops: "[]", nodeId: "node-r", wallAt: 1, nextDueWall: null })).toBe(2);
    });
    await second;
    expect(secondGot).toBe(2);
    expect(await sql.begin((tx) => lockMerchant(tx, "MRC_nobody"))).toBeNull();
  });

  it("appends changes and gives back those after a version, with the head's bytes, clock and due time", async () => {
    await insertMerchants(sql, [merchant("MRC_j")], Infinity);
    const ops = ['[["set","wallet",{"balance":100}]]', '[["set","note","₦₦₦"]]', "[]"];
    const versions: number[] = [];
    for (const [i, o] of ops.entries()) versions.push(await change("MRC_j", o, 1_700_000_001_000 + i));
    expect(versions).toEqual([2, 3, 4]);
    await sql.begin(async (tx) => {
      const head = (await lockMerchant(tx, "MRC_j"))!;
      await appendChange(tx, "MRC_j", head, { ops: "[1]", nodeId: "node-x", wallAt: 1_700_000_009_000, nextDueWall: 1_700_000_070_000 });
    });

    expect(await readHead(sql, "MRC_j")).toEqual({
      version: 5,
      snapshotVersion: 1,
      journalBytes: ops.reduce((sum, o) => sum + bytes(o), 0) + bytes("[1]"),
      clockWall: 1_700_000_009_000,
    });
    expect(await sql`select next_due_wall from msb_merchants where merchant_id = 'MRC_j'`).toEqual([{ next_due_wall: 1_700_000_070_000 }]);
    expect(await sql`select node_id from msb_journal where merchant_id = 'MRC_j' and version = 5`).toEqual([{ node_id: "node-x" }]);
    expect(await changesSince(sql, "MRC_j", 1)).toEqual([
      { version: 2, ops: ops[0], wallAt: 1_700_000_001_000 },
      { version: 3, ops: ops[1], wallAt: 1_700_000_001_001 },
      { version: 4, ops: ops[2], wallAt: 1_700_000_001_002 },
      { version: 5, ops: "[1]", wallAt: 1_700_000_009_000 },
    ]);
    expect((await changesSince(sql, "MRC_j", 3))!.map((r) => r.version)).toEqual([4, 5]);
    expect(await changesSince(sql, "MRC_j", 5)).toEqual([]);
    expect(await changesSince(sql, "MRC_nobody", 0)).toBeNull();
    expect((await loadMerchant(sql, "MRC_j"))!.changes.map((r) => r.version)).toEqual([2, 3, 4, 5]);
    // A head that is not the row's (no lock, or a stale copy) is refused, not written over.
    await expect(
      sql.begin((tx) => appendChange(tx, "MRC_j", { version: 3, snapshotVersion: 1, journalBytes: 0, clockWall: 0 }, { ops: "[]", nodeId: "n", wallAt: 0, nextDueWall: null })),
    ).rejects.toThrow();
    expect((await readHead(sql, "MRC_j"))!.version).toBe(5);
  });

  it("compacts while another connection appends: nothing lost, the bytes counted after the snapshot", async () => {
    await insertMerchants(sql, [merchant("MRC_k")], Infinity);
    for (let i = 0; i < 4; i += 1) await change("MRC_k", `["before ${i}"]`);
    const snapshot5 = JSON.stringify({ folded: "at 5" });

    // An append holds the lock when compaction starts: compaction waits, then counts that row too.
    let compacted: Promise<boolean> | undefined;
    await sql.begin(async (tx) => {
      const head = (await lockMerchant(tx, "MRC_k"))!;
      await appendChange(tx, "MRC_k", head, { ops: '["held 6"]', nodeId: "node-r", wallAt: 6, nextDueWall: null });
      compacted = compactMerchant(sql, "MRC_k", 5, snapshot5);
      await expect
        .poll(async () => (await sql`select count(*) as n from pg_locks where not granted and locktype = 'transactionid'`)[0]!.n)
        .toBe(1);
    });
    // And more appends race it from other connections.
    const racing = Promise.all([0, 1, 2].map(async (n) => {
      for (let i = 0; i < 5; i += 1) await change("MRC_k", `["racer ${n}.${i}"]`);
    }));
    expect(await compacted).toBe(true);
    await racing;

    const rows = (await loadMerchant(sql, "MRC_k"))!;
    expect(rows.snapshot).toBe(snapshot5);
    expect(rows.head.snapshotVersion).toBe(5);
    expect(rows.head.version).toBe(21);
    expect(rows.changes.map((r) => r.version)).toEqual(Array.from({ length: 16 }, (_, i) => 6 + i));
    expect(rows.changes[0]!.ops).toBe('["held 6"]');
    expect(rows.head.journalBytes).toBe(rows.changes.reduce((sum, r) => sum + bytes(r.ops), 0));
    expect(await sql`select count(*) as n from msb_journal where merchant_id = 'MRC_k' and version <= 5`).toEqual([{ n: 0 }]);

    expect(await changesSince(sql, "MRC_k", 4)).toBeNull();
    expect((await changesSince(sql, "MRC_k", 5))!.length).toBe(16);
    // An older or equal snapshot never replaces a newer one.
    expect(await compactMerchant(sql, "MRC_k", 5, "{}")).toBe(false);
    expect(await compactMerchant(sql, "MRC_k", 3, "{}")).toBe(false);
    expect(await compactMerchant(sql, "MRC_nobody", 3, "{}")).toBe(false);
    expect((await loadMerchant(sql, "MRC_k"))!.snapshot).toBe(snapshot5);
  });

  it("updates and replaces claims, and refuses one another merchant holds with its owner", async () => {
    await insertMerchants(
      sql,
      [merchant("MRC_p", { claims: [account("1234567890")] }), merchant("MRC_q", { claims: [checkout("PL_q1"), checkout("PL_q2")] })],
      Infinity,
    );
    const inTx = (work: (tx: Tx) => Promise<void>) => sql.begin(work);

    const err = await inTx((tx) => updateClaims(tx, "MRC_q", [checkout("PL_q3"), account("1234567890")], [checkout("PL_q1")])).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ClaimTaken);
    expect(err).toMatchObject({ claim: account("1234567890"), owner: "MRC_p" });
    expect(await claimsOf("MRC_q")).toEqual([checkout("PL_q1"), checkout("PL_q2")]);

    await inTx((tx) => updateClaims(tx, "MRC_q", [checkout("PL_q3"), account("555")], [checkout("PL_q1")]));
    expect(await claimsOf("MRC_q")).toEqual([account("555"), checkout("PL_q2"), checkout("PL_q3")]);
    // Claiming again what the merchant holds already is no conflict.
    await inTx((tx) => updateClaims(tx, "MRC_q", [checkout("PL_q2")], []));

    await inTx((tx) => replaceClaims(tx, "MRC_q", [checkout("PL_q3"), checkout("PL_q9")]));
    expect(await claimsOf("MRC_q")).toEqual([checkout("PL_q3"), checkout("PL_q9")]);
    expect(await merchantOfClaim(sql, account("555"))).toBeNull();

    await expect(inTx((tx) => replaceClaims(tx, "MRC_q", [account("1234567890")]))).rejects.toMatchObject({
      claim: account("1234567890"),
      owner: "MRC_p",
    });
    expect(await claimsOf("MRC_q")).toEqual([checkout("PL_q3"), checkout("PL_q9")]);
    await inTx((tx) => replaceClaims(tx, "MRC_q", []));
    expect(await claimsOf("MRC_q")).toEqual([]);
  });

  it("removes a merchant with every row that is its, and counts it out", async () => {
    await insertMerchants(sql, [merchant("MRC_gone", { claims: [checkout("PL_gone"), account("777")] })], Infinity);
    await change("MRC_gone", '["one"]');
    await sql`insert into msb_webhook_attempts (merchant_id, attempt_id, plan, leased_by, lease_until)
      values ('MRC_gone', 'DLV_1', '{}', 'node-r', now())`;
    await sql`insert into msb_request_log_heads (merchant_id) values ('MRC_gone')`;
    await sql`insert into msb_request_log (merchant_id, seq, wall_at, entry) values ('MRC_gone', 1, 1, '{}')`;
    await sql`insert into msb_side_records (merchant_id, name, value) values ('MRC_gone', 'credit_report', '{}')`;
    const tables = (await sql<{ name: string }[]>`select table_name as name from information_schema.columns
      where table_schema = current_schema() and column_name = 'merchant_id' and table_name like 'msb\\_%'`).map((r) => r.name);
    expect(tables).toHaveLength(8);
    const rowsOf = async () => {
      const counts: Record<string, number> = {};
      for (const table of tables) counts[table] = (await sql<{ n: number }[]>`select count(*) as n from ${sql(table)} where merchant_id = 'MRC_gone'`)[0]!.n;
      return counts;
    };
    expect(Object.values(await rowsOf()).every((n) => n > 0)).toBe(true);
    const before = await counted();

    expect(await removeMerchant(sql, "MRC_gone")).toBe(true);
    expect(Object.values(await rowsOf())).toEqual(tables.map(() => 0));
    expect(await counted()).toBe(before - 1);
    expect(await removeMerchant(sql, "MRC_gone")).toBe(false);
    expect(await counted()).toBe(before - 1);

    // Inside the change that holds the merchant's lock, as DELETE /sandbox/v1/merchant runs it.
    await insertMerchants(sql, [merchant("MRC_gone2")], Infinity);
    await sql.begin(async (tx) => {
      await lockMerchant(tx, "MRC_gone2");
      expect(await removeMerchant(tx, "MRC_gone2")).toBe(true);
    });
    expect(await readHead(sql, "MRC_gone2")).toBeNull();
    expect(await counted()).toBe(before - 1);
  });
});
