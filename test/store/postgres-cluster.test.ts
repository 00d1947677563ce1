/**
 * The throwaway PostgreSQL the store tests run on (test/support/postgres.ts), through the `postgres`
 * client the store uses: Debian's server, on 127.0.0.1 outside the ephemeral ports, with a role that
 * must give its password; and the two behaviours the shared store is built on: what one connection
 * commits the other sees (and nothing before), and a `FOR UPDATE SKIP LOCKED` claim passes over a row
 * another connection holds, which is how any node claims a due timer that no other node is running.
 */
import { basename, dirname } from "node:path";
import postgres, { type Sql } from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PORT_RANGE } from "../../tools/postgres-test-cluster.mjs";
import { POSTGRES_BIN, SKIP_POSTGRES, usePostgres } from "../support/postgres.js";

const pg = usePostgres();

/** A client with one connection, so that two of them are two sessions. */
const connect = (url: string): Sql => postgres(url, { max: 1, connect_timeout: 10 });
const ids = (rows: readonly { id: number }[]) => rows.map((r) => r.id);

describe.skipIf(SKIP_POSTGRES)("the test PostgreSQL cluster", () => {
  let a: Sql;
  let b: Sql;
  beforeAll(() => {
    a = connect(pg.cluster.url);
    b = connect(pg.cluster.url);
  });
  afterAll(async () => {
    await Promise.all([a?.end(), b?.end()]);
  });

  it("is Debian's server from the bin folder found, on 127.0.0.1 only, at the URL's port, role and database", async () => {
    const url = new URL(pg.cluster.url);
    const port = Number(url.port);
    expect(url.hostname).toBe("127.0.0.1");
    expect(port).toBeGreaterThanOrEqual(PORT_RANGE.from);
    expect(port).toBeLessThanOrEqual(PORT_RANGE.to);
    expect(url.password).not.toBe("");

    const [row] = await a<{ version: string; listen: string; port: number; role: string; db: string; superuser: string }[]>`
      select current_setting('server_version') as version, current_setting('listen_addresses') as listen,
             inet_server_port() as port, current_user as role, current_database() as db,
             current_setting('is_superuser') as superuser`;
    expect(row!.version).toBe(pg.cluster.version);
    // "15.18 (Debian 15.18-0+deb12u1)", whose major is the folder's (/usr/lib/postgresql/15/bin). GitHub's
    // ubuntu-latest runs the same Debian packaging, which names its distribution: "(Ubuntu 16.x-...)".
    expect(row!.version).toMatch(/^\d+\.\d+ \((Debian|Ubuntu) \d+\.\d+-\S+\)$/);
    expect(row!.version.split(".")[0]).toBe(basename(dirname(POSTGRES_BIN!)));
    expect(row).toMatchObject({ listen: "127.0.0.1", port, role: url.username, db: url.pathname.slice(1), superuser: "off" });
  });

  it("refuses a wrong password with PostgreSQL's invalid_password (28P01)", async () => {
    const wrong = new URL(pg.cluster.url);
    wrong.password = "not-the-password";
    const sql = connect(wrong.href);
    try {
      await expect(sql`select 1`).rejects.toMatchObject({
        name: "PostgresError",
        code: "28P01",
        message: `password authentication failed for user "${wrong.username}"`,
      });
    } finally {
      await sql.end();
    }
  });

  it("shows each connection the rows the other committed, and none before the commit", async () => {
    await a`create table seen (id int primary key)`;
    await a.begin(async (tx) => {
      await tx`insert into seen values (1), (2)`;
      expect(ids(await tx<{ id: number }[]>`select id from seen order by id`)).toEqual([1, 2]);
      expect(await b`select id from seen`).toHaveLength(0);
    });
    expect(ids(await b<{ id: number }[]>`select id from seen order by id`)).toEqual([1, 2]);
    await b`insert into seen values (3)`;
    expect(ids(await a<{ id: number }[]>`select id from seen order by id`)).toEqual([1, 2, 3]);
  });

  it("passes over a row another connection holds FOR UPDATE with SKIP LOCKED, and claims it once released", async () => {
    await a`create table due (id int primary key)`;
    await a`insert into due values (1), (2)`;
    const claim = () => b.begin((tx) => tx<{ id: number }[]>`select id from due order by id limit 1 for update skip locked`);
    await a.begin(async (tx) => {
      expect(ids(await tx<{ id: number }[]>`select id from due where id = 1 for update`)).toEqual([1]);
      // Really held: taking it without SKIP LOCKED fails at once with lock_not_available (55P03).
      await expect(b.begin((t) => t`select id from due where id = 1 for update nowait`)).rejects.toMatchObject({ code: "55P03" });
      expect(ids(await claim())).toEqual([2]);
    });
    expect(ids(await claim())).toEqual([1]);
  });
});
