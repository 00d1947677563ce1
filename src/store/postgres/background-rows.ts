/**
 * Background work without an owner process, as rows: merchants whose timers or undelivered events are
 * due (any process claims them), webhook attempts leased while in flight (another process takes over
 * a lease that ran out), and the processes themselves with their heartbeats (for /health and tidying).
 */
import type { Db, Sql, Tx } from "./connect.js";

/** Up to `limit` merchants due by `wall`, earliest first, passing over those another process is changing right now. */
export async function dueMerchants(sql: Sql, wall: number, limit: number): Promise<string[]> {
  return sql.begin(async (tx) => {
    const rows = await tx<{ merchant_id: string }[]>`
      select merchant_id from msb_merchants where next_due_wall <= ${wall}
      order by next_due_wall limit ${limit} for update skip locked`;
    return rows.map((r) => r.merchant_id);
  });
}

/** Keeps an attempt's plan, leased to `node` for `ms` (inside the change that planned it). */
export async function leaseAttempt(tx: Tx, merchantId: string, attemptId: string, plan: string, node: string, ms: number): Promise<void> {
  await tx`insert into msb_webhook_attempts (merchant_id, attempt_id, plan, leased_by, lease_until)
    values (${merchantId}, ${attemptId}, ${plan}, ${node}, clock_timestamp() + ${ms} * interval '1 millisecond')`;
}

/** Gives a lease back (inside the change that records the attempt); false when it is no longer this node's. */
export async function releaseAttempt(tx: Tx, merchantId: string, attemptId: string, node: string): Promise<boolean> {
  const gone = await tx`delete from msb_webhook_attempts where merchant_id = ${merchantId} and attempt_id = ${attemptId} and leased_by = ${node}`;
  return gone.count > 0;
}

export interface TakenAttempt {
  merchantId: string;
  plan: string;
}

/** Takes over up to `limit` attempts whose lease ran out, leasing each to `node` for `ms`. */
export async function takeExpiredAttempts(sql: Sql, node: string, ms: number, limit: number): Promise<TakenAttempt[]> {
  const rows = await sql<{ merchant_id: string; plan: string }[]>`
    update msb_webhook_attempts set leased_by = ${node}, lease_until = clock_timestamp() + ${ms} * interval '1 millisecond', tries = tries + 1
    where (merchant_id, attempt_id) in (
      select merchant_id, attempt_id from msb_webhook_attempts where lease_until < clock_timestamp()
      order by lease_until limit ${limit} for update skip locked)
    returning merchant_id, plan`;
  return rows.map((r) => ({ merchantId: r.merchant_id, plan: r.plan }));
}

/** Gives back every lease `node` holds (a node draining): others take them over at once. */
export async function releaseLeasesOf(db: Db, node: string): Promise<void> {
  await db`update msb_webhook_attempts set lease_until = clock_timestamp() where leased_by = ${node}`;
}

export type NodeState = "starting" | "serving" | "draining";

/** Registers this node or beats its heart (and says its state). */
export async function heartbeat(db: Db, node: string, state: NodeState, appVersion: string, schemaVersion: number): Promise<void> {
  await db`insert into msb_nodes (node_id, state, app_version, schema_version) values (${node}, ${state}, ${appVersion}, ${schemaVersion})
    on conflict (node_id) do update set state = excluded.state, heartbeat_at = now(), app_version = excluded.app_version, schema_version = excluded.schema_version`;
}

/** Forgets nodes silent for longer than `ms` (they died); returns how many. */
export async function pruneNodes(db: Db, ms: number): Promise<number> {
  const gone = await db`delete from msb_nodes where heartbeat_at < now() - ${ms} * interval '1 millisecond'`;
  return gone.count;
}

export async function removeNode(db: Db, node: string): Promise<void> {
  await db`delete from msb_nodes where node_id = ${node}`;
}
