/**
 * Reaching PostgreSQL (src/store/postgres/connect.ts, errors.ts): how a data target is shown without its
 * password, which URLs are refused, what a start-up failure says, the session settings every pooled
 * connection gets, and how real failures provoked on a real server are classified.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  PG_DEFAULTS,
  PgConnectError,
  connectPostgres,
  describeDataTarget,
  isPostgresUrl,
  parsePostgresUrl,
  type Sql,
} from "../../src/store/postgres/connect.js";
import { classifyPgError, pgErrorText } from "../../src/store/postgres/errors.js";
import { SKIP_POSTGRES, usePostgres } from "../support/postgres.js";

const pg = usePostgres();
const OPTIONS = { ...PG_DEFAULTS, nodeId: "node-a" };

describe("describeDataTarget", () => {
  it.each([
    ["postgres://msb:s3cret@db.internal:6543/sandbox", "postgres://msb@db.internal:6543/sandbox"],
    ["postgresql://msb:s3cret@db.internal/sandbox", "postgresql://msb@db.internal:5432/sandbox"],
    ["postgres://msb@db.internal:5432/sandbox?password=s3cret&sslmode=require", "postgres://msb@db.internal:5432/sandbox"],
    ["postgres://db.internal:5433/sandbox", "postgres://db.internal:5433/sandbox"],
    ["postgres://msb:s3cret@[::1]:5433/sandbox", "postgres://msb@[::1]:5433/sandbox"],
    ["POSTGRES://msb:s3cret@[2001:db8::7]/sandbox", "postgres://msb@[2001:db8::7]:5432/sandbox"],
    ["postgres://m%40b:s3cret@db.internal/my%20db", "postgres://m%40b@db.internal:5432/my%20db"],
  ])("shows %s as %s", (url, shown) => {
    expect(describeDataTarget(url)).toBe(shown);
    expect(describeDataTarget(url)).not.toContain("s3cret");
  });

  it("shows a malformed URL as such, without repeating it", () => {
    expect(describeDataTarget("postgres://msb:s3cret@h1,h2/db")).toBe("postgres://(malformed URL)");
  });
});

describe("isPostgresUrl and parsePostgresUrl", () => {
  it("knows postgres:// and postgresql:// in any case, and nothing else", () => {
    for (const url of ["postgres://h/db", "postgresql://h/db", "PostgreSQL://h/db"]) expect(isPostgresUrl(url)).toBe(true);
    for (const url of ["./data", "/var/lib/sandbox", "postgres:/h/db", "mysql://h/db", "file://x", " postgres://h/db"]) {
      expect(isPostgresUrl(url)).toBe(false);
    }
  });

  it("parses host, port (5432 by default), database and user, decoded", () => {
    expect(parsePostgresUrl("postgres://m%40b:pw@[::1]/my%20db")).toEqual({ host: "::1", port: 5432, database: "my db", user: "m@b" });
    expect(parsePostgresUrl("postgresql://h:6000")).toEqual({ host: "h", port: 6000, database: "", user: "" });
  });

  it.each([
    ["mysql://u:s3cret@h/db", /not a PostgreSQL URL/],
    ["postgres://u:s3cret@h:99999/db", /malformed PostgreSQL URL/],
    ["postgres://u:s3cret@h:0/db", /port must be 1-65535/],
    ["postgres:///db", /names no host/],
    ["postgres://u:s3cret@h1,h2/db", /several hosts/],
    ["postgres://u:s3cret@h/d%zzb", /database has a malformed %-escape/],
  ])("refuses %s", (url, message) => {
    expect(() => parsePostgresUrl(url)).toThrow(message);
    expect(() => parsePostgresUrl(url)).not.toThrow(/s3cret/);
  });
});

describe.skipIf(SKIP_POSTGRES)("connectPostgres on a real server", () => {
  let sql: Sql;
  beforeAll(async () => {
    sql = await connectPostgres(pg.cluster.url, OPTIONS);
  });
  afterAll(async () => {
    await sql?.end();
  });

  const withPassword = (password: string) => {
    const url = new URL(pg.cluster.url);
    url.password = password;
    return url.href;
  };

  it("names host and port, never the password, when nothing listens there", async () => {
    const err = await connectPostgres("postgres://msb:s3cret@127.0.0.1:1/db", OPTIONS).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PgConnectError);
    expect((err as Error).message).toBe("cannot reach PostgreSQL at 127.0.0.1:1 (ECONNREFUSED)");
  });

  it("names the user refused on a wrong password, without the password", async () => {
    const { user, host, port } = parsePostgresUrl(pg.cluster.url);
    const err = await connectPostgres(withPassword("wrong-s3cret"), OPTIONS).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PgConnectError);
    expect((err as Error).message).toBe(
      `PostgreSQL at ${host}:${port} refused user ${user} (28P01: password authentication failed for user "${user}")`,
    );
  });

  it("names a database that does not exist", async () => {
    const { host, port } = parsePostgresUrl(pg.cluster.url);
    const url = new URL(pg.cluster.url);
    url.pathname = "/nowhere";
    await expect(connectPostgres(url.href, OPTIONS)).rejects.toThrow(new PgConnectError(`PostgreSQL at ${host}:${port} has no database nowhere (3D000)`));
  });

  it("takes the password from a password= query parameter too", async () => {
    const url = new URL(withPassword(""));
    url.searchParams.set("password", new URL(pg.cluster.url).password);
    const other = await connectPostgres(url.href, OPTIONS);
    try {
      expect(await other`select 1 as one`).toEqual([{ one: 1 }]);
    } finally {
      await other.end();
    }
  });

  it("gives every session the node's name, the timeouts, and int8 as numbers", async () => {
    const [row] = await sql`select 1 as one, 9007199254740991::int8 as big, count(*) as n,
      current_setting('application_name') as app, current_setting('statement_timeout') as statement,
      current_setting('idle_in_transaction_session_timeout') as idle from pg_class`;
    expect(row).toMatchObject({ one: 1, big: Number.MAX_SAFE_INTEGER, app: "merchant-sandbox node-a", statement: "5s", idle: "10s" });
    expect(typeof row!.n).toBe("number");
  });

  it("keeps notices off stdout", async () => {
    const log = vi.spyOn(console, "log");
    try {
      await sql`create table if not exists noticed (id int)`;
      await sql`create table if not exists noticed (id int)`;
      expect(log).not.toHaveBeenCalled();
    } finally {
      log.mockRestore();
    }
  });

  it("classifies a backend terminated mid-query as unavailable, and the pool reconnects by itself", async () => {
    const victim = await connectPostgres(pg.cluster.url, { ...OPTIONS, poolSize: 1 });
    try {
      const [{ pid }] = (await victim`select pg_backend_pid() as pid`) as unknown as [{ pid: number }];
      const running = victim`select pg_sleep(30)`.catch((e: unknown) => e);
      // Terminate only once the victim's query is running, so the failure reaches that query.
      await expect.poll(async () => (await sql`select state from pg_stat_activity where pid = ${pid}`)[0]?.state).toBe("active");
      await sql`select pg_terminate_backend(${pid})`;
      const err = await running;
      expect(classifyPgError(err)).toBe("unavailable");
      expect(pgErrorText(err)).toMatch(/57P01|CONNECTION_CLOSED/);
      // The client may hand the server's late FATAL (57P01) to the next query: unavailable as well.
      const next = await victim`select 2 as two`.catch((e: unknown) => e);
      if (next instanceof Error) expect(classifyPgError(next)).toBe("unavailable");
      expect(await victim`select 3 as three`).toEqual([{ three: 3 }]);
    } finally {
      await victim.end();
    }
  });

  it("classifies a pool used after end() as unavailable", async () => {
    const ended = await connectPostgres(pg.cluster.url, OPTIONS);
    await ended.end();
    const err = await ended`select 1`.catch((e: unknown) => e);
    expect(classifyPgError(err)).toBe("unavailable");
    expect(pgErrorText(err)).toMatch(/^write CONNECTION_ENDED 127\.0\.0\.1:\d+$/);
  });

  it("classifies a unique violation as taken, and its text leaves out the duplicate value", async () => {
    await sql`create table keyed (k text primary key)`;
    await sql`insert into keyed values ('sk_test_secret')`;
    const err = await sql`insert into keyed values ('sk_test_secret')`.catch((e: unknown) => e);
    expect(classifyPgError(err)).toBe("taken");
    expect(pgErrorText(err)).toBe('23505: duplicate key value violates unique constraint "keyed_pkey"');
  });

  it("classifies a statement timeout as unavailable", async () => {
    const quick = await connectPostgres(pg.cluster.url, { ...OPTIONS, statementTimeoutMs: 50 });
    try {
      const err = await quick`select pg_sleep(5)`.catch((e: unknown) => e);
      expect(classifyPgError(err)).toBe("unavailable");
      expect(pgErrorText(err)).toBe("57014: canceling statement due to statement timeout");
    } finally {
      await quick.end();
    }
  });

  it("classifies FOR UPDATE NOWAIT on a locked row as retry", async () => {
    await sql`create table lockable (id int primary key)`;
    await sql`insert into lockable values (1)`;
    await sql.begin(async (tx) => {
      await tx`select id from lockable where id = 1 for update`;
      const err = await sql.begin((other) => other`select id from lockable where id = 1 for update nowait`).catch((e: unknown) => e);
      expect(classifyPgError(err)).toBe("retry");
      expect(pgErrorText(err)).toMatch(/^55P03: /);
    });
  });

  it("classifies anything else as other", () => {
    expect(classifyPgError(new Error("boom"))).toBe("other");
    expect(classifyPgError(Object.assign(new Error("syntax"), { code: "42601" }))).toBe("other");
    expect(classifyPgError(undefined)).toBe("other");
  });
});
