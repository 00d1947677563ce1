/**
 * The schema, as numbered migrations that every node runs at start. Each is applied once, in its own
 * transaction, under an advisory lock, so that nodes starting together neither race nor half-apply one.
 * Every table is prefixed msb_, so the sandbox can share a database with other software.
 */
import { underAdvisoryLock } from "./advisory-lock.js";
import type { Db, Sql } from "./connect.js";

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "merchants, journal, lookups and traffic",
    sql: `
CREATE TABLE msb_merchants (
  merchant_id text PRIMARY KEY,
  version bigint NOT NULL,
  snapshot text NOT NULL,
  snapshot_version bigint NOT NULL,
  journal_bytes bigint NOT NULL DEFAULT 0,
  clock_wall bigint NOT NULL,
  next_due_wall bigint,
  scenario_file text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now());
CREATE INDEX msb_merchants_due ON msb_merchants (next_due_wall) WHERE next_due_wall IS NOT NULL;
CREATE INDEX msb_merchants_scenario ON msb_merchants (scenario_file) WHERE scenario_file IS NOT NULL;
CREATE TABLE msb_journal (merchant_id text NOT NULL REFERENCES msb_merchants ON DELETE CASCADE,
  version bigint NOT NULL, ops text NOT NULL, node_id text NOT NULL, wall_at bigint NOT NULL,
  PRIMARY KEY (merchant_id, version));
CREATE TABLE msb_api_keys (api_key text PRIMARY KEY,
  merchant_id text NOT NULL UNIQUE REFERENCES msb_merchants ON DELETE CASCADE);
CREATE TABLE msb_claims (kind text NOT NULL CHECK (kind IN ('checkout','account')), value text NOT NULL,
  merchant_id text NOT NULL REFERENCES msb_merchants ON DELETE CASCADE, PRIMARY KEY (kind, value));
CREATE INDEX msb_claims_merchant ON msb_claims (merchant_id);
CREATE TABLE msb_webhook_attempts (merchant_id text NOT NULL REFERENCES msb_merchants ON DELETE CASCADE,
  attempt_id text NOT NULL, plan text NOT NULL, leased_by text NOT NULL, lease_until timestamptz NOT NULL,
  tries int NOT NULL DEFAULT 1, PRIMARY KEY (merchant_id, attempt_id));
CREATE INDEX msb_webhook_attempts_lease ON msb_webhook_attempts (lease_until);
CREATE TABLE msb_request_log_heads (merchant_id text PRIMARY KEY REFERENCES msb_merchants ON DELETE CASCADE,
  next_seq bigint NOT NULL DEFAULT 1, kept_from bigint NOT NULL DEFAULT 1);
CREATE TABLE msb_request_log (merchant_id text NOT NULL REFERENCES msb_merchants ON DELETE CASCADE,
  seq bigint NOT NULL, wall_at bigint NOT NULL, entry text NOT NULL, PRIMARY KEY (merchant_id, seq));
CREATE TABLE msb_quota_hits (quota text NOT NULL, client_ip text NOT NULL, wall_at bigint NOT NULL);
CREATE INDEX msb_quota_hits_window ON msb_quota_hits (quota, client_ip, wall_at);
CREATE TABLE msb_side_records (merchant_id text NOT NULL REFERENCES msb_merchants ON DELETE CASCADE,
  name text NOT NULL, value text NOT NULL, PRIMARY KEY (merchant_id, name));
CREATE TABLE msb_counters (name text PRIMARY KEY, value bigint NOT NULL);
CREATE TABLE msb_nodes (node_id text PRIMARY KEY,
  state text NOT NULL CHECK (state IN ('starting','serving','draining')),
  started_at timestamptz NOT NULL DEFAULT now(), heartbeat_at timestamptz NOT NULL DEFAULT now(),
  app_version text NOT NULL, schema_version int NOT NULL);
INSERT INTO msb_counters VALUES ('merchants', 0);
`,
  },
];

export const SCHEMA_VERSION: number = MIGRATIONS.at(-1)!.version;

export class SchemaTooNewError extends Error {
  override name = "SchemaTooNewError";
  constructor(
    readonly found: number,
    readonly known: number,
  ) {
    super(
      `the database's merchant-sandbox schema is version ${found}, newer than this merchant-sandbox knows (${known}): upgrade merchant-sandbox, or use another database`,
    );
  }
}

/** The version the database's schema is at: 0 when no migration was ever applied. */
export async function schemaVersion(db: Db): Promise<number> {
  const [table] = await db<{ present: boolean }[]>`select to_regclass('msb_schema_migrations') is not null as present`;
  if (!table?.present) return 0;
  const [row] = await db<{ version: number }[]>`select coalesce(max(version), 0)::int as version from msb_schema_migrations`;
  return row?.version ?? 0;
}

/**
 * Brings the schema to SCHEMA_VERSION, holding pg_advisory_lock on ONE reserved connection (a session lock
 * belongs to the connection that took it): creates msb_schema_migrations if missing, refuses a newer
 * schema, applies each missing migration in its own transaction, recording who applied it. Safe to run
 * from many nodes at once: the others wait, then find nothing left to apply.
 */
export async function migrate(sql: Sql, appliedBy: string): Promise<{ version: number; applied: number[] }> {
  return underAdvisoryLock(sql, "merchant-sandbox:migrate", async (conn) => {
    await conn`create table if not exists msb_schema_migrations (version int PRIMARY KEY, name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now(), applied_by text NOT NULL)`;
    const found = await schemaVersion(conn);
    if (found > SCHEMA_VERSION) throw new SchemaTooNewError(found, SCHEMA_VERSION);
    const applied: number[] = [];
    for (const migration of MIGRATIONS.filter((m) => m.version > found)) {
      // A reserved connection has no sql.begin: the transaction is spelled out.
      await conn`begin`;
      try {
        await conn.unsafe(migration.sql);
        await conn`insert into msb_schema_migrations (version, name, applied_by)
          values (${migration.version}, ${migration.name}, ${appliedBy})`;
        await conn`commit`;
      } catch (err) {
        await conn`rollback`.catch(() => undefined);
        throw err;
      }
      applied.push(migration.version);
    }
    return { version: SCHEMA_VERSION, applied };
  });
}
