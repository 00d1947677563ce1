/**
 * A merchant as rows: its head (version, snapshot version, clock), the snapshot text and the journal of
 * changes after it. A change locks the head row, appends one journal row and bumps the version, so the
 * row lock is the merchant's one lock across every node. Snapshot and ops cross this layer as text, as the
 * caller made them; nothing here parses them.
 */
import type { Db, Sql, Tx } from "./connect.js";
import { ClaimTaken, chunks, insertClaims, merchantOfKey, type Claim } from "./lookup-rows.js";

export interface MerchantHead {
  version: number;
  snapshotVersion: number;
  journalBytes: number;
  clockWall: number;
}
export interface JournalRow {
  version: number;
  ops: string;
  wallAt: number;
}
/** `changes`: the journal rows after the snapshot, ascending. */
export interface MerchantRows {
  head: MerchantHead;
  snapshot: string;
  changes: JournalRow[];
}
export interface NewMerchantRow {
  merchantId: string;
  apiKey: string;
  snapshot: string;
  clockWall: number;
  nextDueWall: number | null;
  scenarioFile: string | null;
  claims: readonly Claim[];
}

export class MerchantLimitReached extends Error {
  override name = "MerchantLimitReached";
  constructor(readonly max: number) {
    super(`the sandbox holds its most merchants (${max})`);
  }
}

interface HeadRow {
  version: number;
  snapshot_version: number;
  journal_bytes: number;
  clock_wall: number;
}
// Number(): int8 comes back as a number from connectPostgres's pool, as a string from any other.
const headOf = (r: HeadRow): MerchantHead => ({
  version: Number(r.version),
  snapshotVersion: Number(r.snapshot_version),
  journalBytes: Number(r.journal_bytes),
  clockWall: Number(r.clock_wall),
});
const journalRowOf = (r: { version: number; ops: string; wall_at: number }): JournalRow => ({
  version: Number(r.version),
  ops: r.ops,
  wallAt: Number(r.wall_at),
});

/** Counts n merchants in (or out, n < 0) of the cluster-wide count; false when that would pass max. */
async function countMerchants(tx: Tx, n: number, max: number): Promise<boolean> {
  const counted = Number.isFinite(max)
    ? await tx`update msb_counters set value = value + ${n} where name = 'merchants' and value + ${n} <= ${max} returning value`
    : await tx`update msb_counters set value = value + ${n} where name = 'merchants' returning value`;
  return counted.length === 1;
}

/**
 * Inserts every merchant in one transaction (a scenario load is all or none): each at version 1 =
 * snapshot_version 1, with its api key and claims (ClaimTaken when another merchant holds one), and counts
 * them in, refusing with MerchantLimitReached past `max` (Infinity: no limit). A merchant id that exists
 * already throws Error("merchant X already exists").
 */
export async function insertMerchants(sql: Sql, rows: readonly NewMerchantRow[], max: number): Promise<void> {
  if (rows.length === 0) return;
  await sql.begin(async (tx) => {
    for (const chunk of chunks(rows)) {
      const merchants = chunk.map((r) => ({
        merchant_id: r.merchantId,
        version: 1,
        snapshot: r.snapshot,
        snapshot_version: 1,
        clock_wall: r.clockWall,
        next_due_wall: r.nextDueWall,
        scenario_file: r.scenarioFile,
      }));
      const inserted = await tx<{ merchant_id: string }[]>`insert into msb_merchants ${tx(merchants)}
        on conflict do nothing returning merchant_id`;
      if (inserted.length < chunk.length) {
        const fresh = new Set(inserted.map((r) => r.merchant_id));
        // Not inserted: there before, or twice in this batch (its second row).
        const twice = chunk.find((r, i) => !fresh.has(r.merchantId) || chunk.findIndex((o) => o.merchantId === r.merchantId) < i);
        throw new Error(`merchant ${twice?.merchantId} already exists`);
      }
      const keys = chunk.map((r) => ({ api_key: r.apiKey, merchant_id: r.merchantId }));
      const keyed = await tx<{ api_key: string }[]>`insert into msb_api_keys ${tx(keys)} on conflict do nothing returning api_key`;
      if (keyed.length < chunk.length) {
        const done = new Set(keyed.map((r) => r.api_key));
        const clash = chunk.find((r, i) => !done.has(r.apiKey) || chunk.findIndex((o) => o.apiKey === r.apiKey) < i)!;
        throw new ClaimTaken({ kind: "api_key", value: clash.apiKey }, (await merchantOfKey(tx, clash.apiKey)) ?? "");
      }
    }
    await insertClaims(
      tx,
      rows.flatMap((r) => r.claims.map((c) => ({ kind: c.kind, value: c.value, merchantId: r.merchantId }))),
    );
    // Last, so the counter row is held for the shortest time, and always after merchant rows (as in removeMerchant).
    if (!(await countMerchants(tx, rows.length, max))) throw new MerchantLimitReached(max);
  });
}

/** SELECT … FOR UPDATE of the merchant row, held until the transaction ends; null when it is gone. */
export async function lockMerchant(tx: Tx, merchantId: string): Promise<MerchantHead | null> {
  const [row] = await tx<HeadRow[]>`select version, snapshot_version, journal_bytes, clock_wall
    from msb_merchants where merchant_id = ${merchantId} for no key update`;
  return row ? headOf(row) : null;
}

/** The head without a lock. */
export async function readHead(db: Db, merchantId: string): Promise<MerchantHead | null> {
  const [row] = await db<HeadRow[]>`select version, snapshot_version, journal_bytes, clock_wall
    from msb_merchants where merchant_id = ${merchantId}`;
  return row ? headOf(row) : null;
}

/**
 * Journal rows with version > after, ascending. null when rows the caller needs were compacted away
 * (after < snapshot_version), or the merchant is gone: either way the caller loads the merchant whole.
 * One statement, so the snapshot version and the rows are seen at the same instant.
 */
export async function changesSince(db: Db, merchantId: string, after: number): Promise<JournalRow[] | null> {
  const rows = await db<{ snapshot_version: number; version: number | null; ops: string | null; wall_at: number | null }[]>`
    select m.snapshot_version, j.version, j.ops, j.wall_at
    from msb_merchants m left join msb_journal j on j.merchant_id = m.merchant_id and j.version > ${after}
    where m.merchant_id = ${merchantId} order by j.version`;
  const first = rows[0];
  if (!first || after < Number(first.snapshot_version)) return null;
  return rows.filter((r) => r.version !== null).map((r) => journalRowOf(r as { version: number; ops: string; wall_at: number }));
}

/** Snapshot, head and the changes after the snapshot, read in one REPEATABLE READ READ ONLY transaction. */
export async function loadMerchant(sql: Sql, merchantId: string): Promise<MerchantRows | null> {
  return sql.begin("isolation level repeatable read read only", async (tx) => {
    const [row] = await tx<(HeadRow & { snapshot: string })[]>`select version, snapshot_version, journal_bytes, clock_wall, snapshot
      from msb_merchants where merchant_id = ${merchantId}`;
    if (!row) return null;
    const head = headOf(row);
    const changes = await tx<{ version: number; ops: string; wall_at: number }[]>`select version, ops, wall_at from msb_journal
      where merchant_id = ${merchantId} and version > ${head.snapshotVersion} order by version`;
    return { head, snapshot: row.snapshot, changes: changes.map(journalRowOf) };
  });
}

/** Every merchant id (optionally only those made by one scenario file), for start-up. */
export async function merchantIds(db: Db, scenarioFile?: string): Promise<string[]> {
  const rows =
    scenarioFile === undefined
      ? await db<{ merchant_id: string }[]>`select merchant_id from msb_merchants order by merchant_id`
      : await db<{ merchant_id: string }[]>`select merchant_id from msb_merchants where scenario_file = ${scenarioFile} order by merchant_id`;
  return rows.map((r) => r.merchant_id);
}

/**
 * Appends one change under the lock lockMerchant took: the journal row at head.version + 1 and the head's
 * new version, bytes, clock and due time, in one statement. Returns the new version.
 */
export async function appendChange(
  tx: Tx,
  merchantId: string,
  head: MerchantHead,
  change: { ops: string; nodeId: string; wallAt: number; nextDueWall: number | null },
): Promise<number> {
  const version = head.version + 1;
  // One statement: the journal row goes in only if the row was still at the head's version, so even a
  // COMMIT sent right behind it (pipelined) can never keep one without the other.
  const updated = await tx`
    with bumped as (
      update msb_merchants set version = ${version}, journal_bytes = journal_bytes + ${Buffer.byteLength(change.ops)},
        clock_wall = ${change.wallAt}, next_due_wall = ${change.nextDueWall}, updated_at = now()
      where merchant_id = ${merchantId} and version = ${head.version}
      returning merchant_id)
    insert into msb_journal (merchant_id, version, ops, node_id, wall_at)
      select merchant_id, ${version}, ${change.ops}, ${change.nodeId}, ${change.wallAt} from bumped`;
  if (updated.count !== 1) throw new Error(`merchant ${merchantId} moved past version ${head.version} under its lock`);
  return version;
}

/**
 * Deletes the merchant (the cascade takes its journal, key, claims, attempts, log and side records) and
 * counts it out; false when it was not there. One statement, so it is whole on the pool as well as inside
 * a transaction that holds the merchant's lock.
 */
export async function removeMerchant(db: Db, merchantId: string): Promise<boolean> {
  const [row] = await db<{ removed: number }[]>`
    with gone as (delete from msb_merchants where merchant_id = ${merchantId} returning merchant_id),
      counted as (update msb_counters set value = value - 1 where name = 'merchants' and exists (select from gone) returning value)
    select count(*)::int as removed from gone`;
  return (row?.removed ?? 0) > 0;
}

/**
 * Folds the journal into a snapshot the caller made at `version`: snapshot_version = version, the journal
 * rows up to it deleted, journal_bytes = the bytes of the rows after it. false when a snapshot as new was
 * there already. The row is locked first, so the bytes are counted after every append that committed
 * before, and none can commit meanwhile; rows after `version` stay.
 */
export async function compactMerchant(sql: Sql, merchantId: string, version: number, snapshot: string): Promise<boolean> {
  return sql.begin(async (tx) => {
    const head = await lockMerchant(tx, merchantId);
    if (!head || head.snapshotVersion >= version || head.version < version) return false;
    await Promise.all([
      tx`update msb_merchants set snapshot = ${snapshot}, snapshot_version = ${version},
        journal_bytes = (select coalesce(sum(octet_length(ops)), 0) from msb_journal
          where merchant_id = ${merchantId} and version > ${version})
        where merchant_id = ${merchantId}`,
      tx`delete from msb_journal where merchant_id = ${merchantId} and version <= ${version}`,
    ]);
    return true;
  });
}

/** The wall time at which background work for the merchant is next due (NULL: none), under its lock. */
export async function setNextDue(tx: Tx, merchantId: string, wall: number | null): Promise<void> {
  await tx`update msb_merchants set next_due_wall = ${wall} where merchant_id = ${merchantId}`;
}
