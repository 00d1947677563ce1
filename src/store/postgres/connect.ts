/**
 * Reaching PostgreSQL: what a `postgres://` data target names, how it is shown (never with its password),
 * and the pool every other module of this folder queries. The client is loaded only here, and only when
 * a PostgreSQL URL is used, so the memory and folder stores never load it.
 */
import { createRequire } from "node:module";
import type postgres from "postgres";

/** A pool (or one reserved connection of it). */
export type Sql = postgres.Sql<{}>;
/** The handle `sql.begin` gives its callback: every query on it runs in that one transaction. */
export type Tx = postgres.TransactionSql<{}>;
/** For functions that run the same in or out of a transaction. */
export type Db = Sql | Tx;

const POSTGRES_URL = /^postgres(ql)?:\/\//i;

export function isPostgresUrl(value: string): boolean {
  return POSTGRES_URL.test(value);
}

/** What a URL connects to. `user` and `database` are "" when the URL leaves them to the client's defaults. */
export interface PgTarget {
  host: string;
  port: number;
  database: string;
  user: string;
}

const DEFAULT_PORT = 5432;
const URL_SHAPE = "postgres://USER:PASSWORD@HOST:PORT/DATABASE";

const decode = (part: string, what: string): string => {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new Error(`the PostgreSQL URL's ${what} has a malformed %-escape`);
  }
};

/** The URL parsed, or an Error whose message never repeats the URL (it may hold a password). */
function parseUrl(url: string): { parsed: URL; target: PgTarget } {
  if (!isPostgresUrl(url)) throw new Error(`not a PostgreSQL URL: expected ${URL_SHAPE}`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`malformed PostgreSQL URL: expected ${URL_SHAPE}`);
  }
  const host = parsed.hostname.replace(/^\[(.*)\]$/, "$1");
  if (host === "") throw new Error(`the PostgreSQL URL names no host: expected ${URL_SHAPE}`);
  if (host.includes(",")) throw new Error("the PostgreSQL URL names several hosts: give one host (a load balancer or a proxy in front of them)");
  const port = parsed.port === "" ? DEFAULT_PORT : Number(parsed.port);
  if (!(port >= 1 && port <= 65535)) throw new Error(`the PostgreSQL URL's port must be 1-65535`);
  const database = decode(parsed.pathname.replace(/^\//, ""), "database");
  return { parsed, target: { host, port, database, user: decode(parsed.username, "user") } };
}

/** Throws an Error (its message without the URL, so without the password) when the URL is malformed. */
export function parsePostgresUrl(url: string): PgTarget {
  return parseUrl(url).target;
}

const hostPort = (t: PgTarget) => `${t.host.includes(":") ? `[${t.host}]` : t.host}:${t.port}`;

/** postgres://USER@HOST:PORT/DB — never the password (nor a password=… query parameter). */
export function describeDataTarget(url: string): string {
  let target: PgTarget;
  try {
    target = parsePostgresUrl(url);
  } catch {
    return "postgres://(malformed URL)";
  }
  const scheme = url.slice(0, url.indexOf(":")).toLowerCase();
  const user = target.user === "" ? "" : `${encodeURIComponent(target.user)}@`;
  return `${scheme}://${user}${hostPort(target)}/${encodeURIComponent(target.database)}`;
}

export interface PgOptions {
  poolSize: number;
  statementTimeoutMs: number;
  nodeId: string;
}
export const PG_DEFAULTS = { poolSize: 10, statementTimeoutMs: 5000 } as const;

/** A transaction left open this long by a stuck node is rolled back by the server, releasing its locks. */
const IDLE_IN_TRANSACTION_MS = 10_000;
/** Seconds before a start-up gives up on a host that does not answer. */
const CONNECT_TIMEOUT_S = 10;
/** Seconds between TCP keepalive probes: a peer that vanished without a FIN is noticed. */
const KEEP_ALIVE_S = 15;

export class PgConnectError extends Error {
  override name = "PgConnectError";
}

const codeOf = (err: unknown): string => String((err as { code?: unknown } | null)?.code ?? "");
const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** The start-up failure as a sentence naming host and port, and the user or database at fault. */
function connectFailure(err: unknown, target: PgTarget, user: string, database: string): string {
  const at = hostPort(target);
  const code = codeOf(err);
  const postgresError = (err as { name?: unknown } | null)?.name === "PostgresError";
  if (!postgresError) return `cannot reach PostgreSQL at ${at} (${code || messageOf(err)})`;
  if (code === "28P01" || code === "28000") return `PostgreSQL at ${at} refused user ${user} (${code}: ${messageOf(err)})`;
  if (code === "3D000") return `PostgreSQL at ${at} has no database ${database} (3D000)`;
  return `PostgreSQL at ${at} failed at connection (${code}: ${messageOf(err)})`;
}

/**
 * Opens a pool and proves it works (select 1) before resolving. Sessions get statement_timeout,
 * idle_in_transaction_session_timeout, application_name "merchant-sandbox <nodeId>" and TCP keepalive;
 * notices are silenced; int8 (bigint, count(*)) comes back as a JS number, our values staying below 2^53.
 * Failure: PgConnectError naming host and port, never the password, with the pool ended.
 */
export async function connectPostgres(url: string, options: PgOptions): Promise<Sql> {
  let parsed: ReturnType<typeof parseUrl>;
  try {
    parsed = parseUrl(url);
  } catch (err) {
    throw new PgConnectError(messageOf(err));
  }
  const { target } = parsed;
  // The client reads the rest of the query (sslmode, …) itself; a password given as a parameter would
  // otherwise go to the server as a startup setting.
  const password = parsed.parsed.searchParams.get("password") ?? decode(parsed.parsed.password, "password");
  const rest = new URL(parsed.parsed.href);
  rest.password = "";
  rest.searchParams.delete("password");
  const client = createRequire(import.meta.url)("postgres") as typeof postgres;
  const sql = client(rest.href, {
    // Arrays: the client splits a host string at ':' and ',', which would break an IPv6 address.
    host: [target.host] as unknown as string,
    port: [target.port] as unknown as number,
    ...(target.user === "" ? {} : { username: target.user }),
    ...(target.database === "" ? {} : { database: target.database }),
    ...(password === "" ? {} : { password }),
    max: options.poolSize,
    connect_timeout: CONNECT_TIMEOUT_S,
    keep_alive: KEEP_ALIVE_S,
    onnotice: () => undefined,
    connection: {
      application_name: `merchant-sandbox ${options.nodeId}`,
      statement_timeout: options.statementTimeoutMs,
      idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_MS,
    },
    types: { int8: { to: 20, from: [20], serialize: (value: number) => String(value), parse: (value: string) => Number(value) } },
  }) as unknown as Sql;
  try {
    await sql`select 1`;
    return sql;
  } catch (err) {
    await sql.end({ timeout: 0 }).catch(() => undefined);
    const text = connectFailure(err, target, sql.options.user, sql.options.database);
    throw new PgConnectError(password === "" ? text : text.split(password).join("***"));
  }
}
