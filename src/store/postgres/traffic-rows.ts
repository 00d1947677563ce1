/**
 * Traffic as rows: each merchant's request log (its seqs handed out by msb_request_log_heads), the hits
 * of the open routes' per-IP quotas, and the side records kept beside a merchant. Not merchant state,
 * so the log's and the quotas' commits do not wait for the disk (synchronous_commit off): a crash of the
 * database may lose the last few, never a merchant's money. Entries and records cross this layer as JSON text.
 */
import type { Db, Sql, Tx } from "./connect.js";

const MINUTE = 60_000;

/** A batch of one merchant's request-log entries, in the order they were kept. */
export interface NewRequestRow {
  /** The entry's JSON, without its seq. */
  entry: string;
  wallAt: number;
}

/** Rows past a merchant's log capacity are deleted once every this many seqs (a quarter of the capacity). */
export const trimEvery = (capacity: number): number => Math.max(1, Math.ceil(capacity / 4));

/**
 * Appends entries with the next seqs of the merchant, in one statement (its own transaction: one round
 * trip): the merchant's row is locked FOR KEY SHARE first (the order every transaction takes: merchant,
 * then what hangs off it), then the head row hands out the seqs and stays locked until commit, so one
 * merchant's seqs commit in order and a reader never sees a later seq without the earlier ones. Each
 * time the seqs pass a multiple of trimEvery(capacity), the rows no log of `capacity` entries would hold
 * are deleted. Returns the first seq. A merchant deleted meanwhile fails it (its log went with it).
 */
export function appendRequests(sql: Sql, merchantId: string, rows: readonly NewRequestRow[], capacity: number): Promise<number> {
  return append(sql, merchantId, rows, capacity, true);
}

/** appendRequests inside a transaction that already holds the merchant's row: it commits as that transaction does. */
export function appendRequestsIn(tx: Tx, merchantId: string, rows: readonly NewRequestRow[], capacity: number): Promise<number> {
  return append(tx, merchantId, rows, capacity, false);
}

/**
 * `relaxed`: the statement is its own transaction, and its commit does not wait for the disk
 * (set_config(…, true) lasts until that commit). Never inside a change, whose commit must wait.
 */
async function append(db: Db, merchantId: string, rows: readonly NewRequestRow[], capacity: number, relaxed: boolean): Promise<number> {
  const n = rows.length;
  const every = trimEvery(capacity);
  const relax = relaxed ? db`, (select set_config('synchronous_commit', 'off', true)) as relax` : db``;
  const [added] = await db<{ first: number }[]>`
    with merchant as (select 1 from msb_merchants where merchant_id = ${merchantId} for key share),
    head as (
      insert into msb_request_log_heads as h (merchant_id, next_seq)
      select ${merchantId}, ${1 + n} from merchant ${relax}
      on conflict (merchant_id) do update set next_seq = h.next_seq + ${n}
      returning next_seq, kept_from),
    added as (
      insert into msb_request_log (merchant_id, seq, wall_at, entry)
      select ${merchantId}, head.next_seq - ${n} + e.ord - 1, e.wall_at, e.entry
      from head, unnest(${rows.map((r) => r.entry)}::text[], ${rows.map((r) => String(r.wallAt))}::bigint[]) with ordinality as e(entry, wall_at, ord)),
    trimmed as (
      delete from msb_request_log l using head
      where l.merchant_id = ${merchantId}
        and (head.next_seq - 1) / ${every} > (head.next_seq - 1 - ${n}) / ${every}
        and l.seq < greatest(head.next_seq - ${capacity}, head.kept_from))
    select next_seq - ${n} as first from head`;
  if (!added) throw new Error(`merchant ${merchantId} is gone: its log went with it`);
  return added.first;
}

/**
 * Empties the merchant's log from the next seq on: kept_from moves to next_seq (every process drops
 * what it holds below it) and the rows below go. Returns kept_from (1 when the merchant never logged).
 */
export async function clearRequests(db: Db, merchantId: string): Promise<number> {
  const [row] = await db<{ kept_from: number }[]>`
    with head as (update msb_request_log_heads set kept_from = next_seq where merchant_id = ${merchantId} returning kept_from),
      gone as (delete from msb_request_log l using head where l.merchant_id = ${merchantId} and l.seq < head.kept_from)
    select kept_from from head`;
  return row?.kept_from ?? 1;
}

/** What a reader of a merchant's traffic needs, read in one statement (one instant). */
export interface TrafficRead {
  /** Seqs below it were cleared: no reader holds them. */
  keptFrom: number;
  /** [seq, entry] from `from` on, ascending: at most `capacity`, the newest, as far back as a log of REQUEST_LOG_BYTES could reach. */
  entries: Array<[number, Record<string, unknown>]>;
  /** name -> the record's value, parsed. */
  sides: Record<string, unknown>;
}

/**
 * The log's rows with seq >= max(from, kept_from), newest first up to `capacity` of them and while the
 * rows newer than one hold at most `reachBytes` of JSON, returned oldest first; and the side records.
 */
export async function readTraffic(db: Db, merchantId: string, from: number, capacity: number, reachBytes: number): Promise<TrafficRead> {
  const [row] = await db<{ kept_from: number | null; entries: Array<[number, Record<string, unknown>]>; sides: Record<string, unknown> | null }[]>`
    with head as (select kept_from from msb_request_log_heads where merchant_id = ${merchantId}),
      newest as (
        select seq, entry, coalesce(sum(octet_length(entry)) over (order by seq desc rows between unbounded preceding and 1 preceding), 0) as newer
        from msb_request_log
        where merchant_id = ${merchantId} and seq >= greatest(${from}::bigint, coalesce((select kept_from from head), 1))
        order by seq desc limit ${capacity})
    select (select kept_from from head) as kept_from,
      (select coalesce(json_agg(json_build_array(seq, entry::json) order by seq), '[]'::json) from newest where newer <= ${reachBytes}) as entries,
      (select json_object_agg(name, value::json) from msb_side_records where merchant_id = ${merchantId}) as sides`;
  return { keptFrom: row?.kept_from ?? 1, entries: row?.entries ?? [], sides: row?.sides ?? {} };
}

/** Keeps a side record's JSON (null: deletes it). */
export async function writeSideRecord(db: Db, merchantId: string, name: string, value: string | null): Promise<void> {
  if (value === null) await db`delete from msb_side_records where merchant_id = ${merchantId} and name = ${name}`;
  else
    await db`insert into msb_side_records (merchant_id, name, value) values (${merchantId}, ${name}, ${value})
      on conflict (merchant_id, name) do update set value = excluded.value`;
}

/**
 * Counts a hit of quota `quota` from `ip` at `wall` when fewer than `perMinute` were counted in the
 * minute before: null, or (nothing counted) the seconds until the oldest hit of the window leaves it.
 * Exact across processes: one transaction at a time per (quota, ip), under an advisory lock; the
 * hits of that address that left the window are deleted on the way.
 */
export async function hitQuota(sql: Sql, quota: string, ip: string, perMinute: number, wall: number): Promise<number | null> {
  return sql.begin(async (tx) => {
    const [, , [row]] = await Promise.all([
      tx`set local synchronous_commit = off`,
      tx`select pg_advisory_xact_lock(hashtext(${`merchant-sandbox:quota:${quota}:${ip}`}))`,
      tx<{ n: number; oldest: number | null }[]>`
        with gone as (delete from msb_quota_hits where quota = ${quota} and client_ip = ${ip} and wall_at <= ${wall - MINUTE}),
          win as (select count(*)::int as n, min(wall_at) as oldest from msb_quota_hits
            where quota = ${quota} and client_ip = ${ip} and wall_at > ${wall - MINUTE}),
          hit as (insert into msb_quota_hits (quota, client_ip, wall_at) select ${quota}, ${ip}, ${wall} from win where n < ${perMinute})
        select n, oldest from win`,
    ]);
    if (!row || row.n < perMinute) return null;
    return Math.max(1, Math.ceil((row.oldest! + MINUTE - wall) / 1000));
  });
}

/**
 * Deletes every quota hit that left its window, whatever its address (addresses that never came back).
 * Rows another transaction holds are skipped: this never waits, and never deadlocks with hitQuota.
 */
export async function pruneQuotaHits(db: Db, wall: number): Promise<void> {
  await db`delete from msb_quota_hits where ctid in
    (select ctid from msb_quota_hits where wall_at <= ${wall - MINUTE} for update skip locked)`;
}
