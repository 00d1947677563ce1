/**
 * The schema's migrations (src/store/postgres/migrations.ts) on a real PostgreSQL: each test gets an
 * empty database of its own, so what one migrates the next does not see.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PG_DEFAULTS, connectPostgres, type Sql } from "../../src/store/postgres/connect.js";
import { MIGRATIONS, SCHEMA_VERSION, SchemaTooNewError, migrate, schemaVersion } from "../../src/store/postgres/migrations.js";
import { SKIP_POSTGRES, usePostgres } from "../support/postgres.js";

const pg = usePostgres();
const OPTIONS = { ...PG_DEFAULTS, poolSize: 2, nodeId: "node-m" };

/** Every table migration 1 makes, and the one migrate keeps its record in. */
const TABLES = [
  "msb_api_keys",
  "msb_claims",
  "msb_counters",
  "msb_journal",
  "msb_merchants",
  "msb_nodes",
  "msb_quota_hits",
  "msb_request_log",
  "msb_request_log_heads",
  "msb_schema_migrations",
  "msb_side_records",
  "msb_webhook_attempts",
];

it("numbers the migrations 1..N, and SCHEMA_VERSION is the last", () => {
  expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
  expect(SCHEMA_VERSION).toBe(MIGRATIONS.length);
  for (const m of MIGRATIONS) expect(m.name).not.toBe("");
});

describe.skipIf(SKIP_POSTGRES)("migrate on a real server", () => {
  let admin: Sql;
  const pools: Sql[] = [];
  let databases = 0;
  beforeAll(async () => {
    admin = await connectPostgres(pg.cluster.url, OPTIONS);
  });
  afterAll(async () => {
    await Promise.all([admin, ...pools].map((p) => p?.end()));
  });

  /** A pool on a new, empty database. */
  async function emptyDatabase(): Promise<Sql> {
    const name = `migrations_${++databases}`;
    await admin`create database ${admin(name)}`;
    const url = new URL(pg.cluster.url);
    url.pathname = `/${name}`;
    const pool = await connectPostgres(url.href, OPTIONS);
    pools.push(pool);
    return pool;
  }
  const tables = async (sql: Sql) =>
    (await sql<{ name: string }[]>`select table_name as name from information_schema.tables
      where table_schema = current_schema() and table_name like 'msb\\_%' order by table_name`).map((r) => r.name);

  it("finds version 0 on an empty database, and makes every table on the first run", async () => {
    const sql = await emptyDatabase();
    expect(await schemaVersion(sql)).toBe(0);
    expect(await migrate(sql, "node-m")).toEqual({ version: SCHEMA_VERSION, applied: MIGRATIONS.map((m) => m.version) });
    expect(await tables(sql)).toEqual(TABLES);
    expect(await schemaVersion(sql)).toBe(SCHEMA_VERSION);
    expect(await sql`select name, value from msb_counters`).toEqual([{ name: "merchants", value: 0 }]);
    expect(await sql`select version, name, applied_by from msb_schema_migrations order by version`).toEqual(
      MIGRATIONS.map((m) => ({ version: m.version, name: m.name, applied_by: "node-m" })),
    );
  });

  it("applies nothing on a second run, and prints no notice", async () => {
    const sql = await emptyDatabase();
    await migrate(sql, "node-m");
    const log = vi.spyOn(console, "log");
    try {
      expect(await migrate(sql, "node-n")).toEqual({ version: SCHEMA_VERSION, applied: [] });
      expect(log).not.toHaveBeenCalled();
    } finally {
      log.mockRestore();
    }
    expect(await sql`select count(*) as n from msb_schema_migrations`).toEqual([{ n: MIGRATIONS.length }]);
  });

  it("applies each migration once when three nodes migrate at the same moment", async () => {
    const first = await emptyDatabase();
    const url = new URL(pg.cluster.url);
    url.pathname = `/migrations_${databases}`;
    const others = await Promise.all([2, 3].map((n) => connectPostgres(url.href, { ...OPTIONS, nodeId: `node-${n}` })));
    pools.push(...others);
    const results = await Promise.all([first, ...others].map((sql, i) => migrate(sql, `node-${i + 1}`)));
    expect(results.flatMap((r) => r.applied).sort((a, b) => a - b)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(results.every((r) => r.version === SCHEMA_VERSION)).toBe(true);
    expect(await first`select version from msb_schema_migrations order by version`).toEqual(MIGRATIONS.map((m) => ({ version: m.version })));
    expect(await tables(first)).toEqual(TABLES);
  });

  it("refuses a database whose schema is newer than it knows, and changes nothing", async () => {
    const sql = await emptyDatabase();
    await migrate(sql, "node-m");
    await sql`insert into msb_schema_migrations (version, name, applied_by) values (999, 'from the future', 'node-z')`;
    const err = await migrate(sql, "node-m").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SchemaTooNewError);
    expect(err).toMatchObject({ found: 999, known: SCHEMA_VERSION });
    expect((err as Error).message).toBe(
      `the database's merchant-sandbox schema is version 999, newer than this merchant-sandbox knows (${SCHEMA_VERSION}): upgrade merchant-sandbox, or use another database`,
    );
    expect(await schemaVersion(sql)).toBe(999);
    // The lock went with the refusal: another run is refused the same way instead of waiting forever.
    await expect(migrate(sql, "node-m")).rejects.toBeInstanceOf(SchemaTooNewError);
  });

  it("leaves the reserved connection's statement timeout as the pool set it", async () => {
    const sql = await emptyDatabase();
    await migrate(sql, "node-m");
    const settings = await Promise.all([1, 2].map(() => sql.begin((tx) => tx`select current_setting('statement_timeout') as t`)));
    expect(settings.flat()).toEqual([{ t: "5s" }, { t: "5s" }]);
  });
});
