/**
 * Work that one node at a time may do (migrating the schema, making the demo and `--scenario`
 * merchants): under a session advisory lock on ONE reserved connection, which the lock belongs to.
 * A node killed while holding it loses its connection, and the lock with it.
 */
import type { ReservedSql } from "postgres";
import type { Sql } from "./connect.js";

export async function underAdvisoryLock<T>(sql: Sql, name: string, work: (conn: ReservedSql<{}>) => Promise<T>): Promise<T> {
  const conn = await sql.reserve();
  try {
    // The work, or waiting for another node's, may outlast the statement timeout set for requests.
    await conn`set statement_timeout = 0`;
    await conn`select pg_advisory_lock(hashtext(${name}))`;
    try {
      return await work(conn);
    } finally {
      await conn`select pg_advisory_unlock(hashtext(${name}))`.catch(() => undefined);
    }
  } finally {
    await conn`reset statement_timeout`.catch(() => undefined);
    conn.release();
  }
}
