/**
 * Sandbox processes sharing one PostgreSQL database, in this test process: each "node" has its own
 * registry, runtime, app and pool, as a separate `start --data postgres://…` would, and all of them
 * read one wall clock the test moves by hand.
 */
import { PgBackground } from "../../src/persistence/pg-background.js";
import { afterAll, beforeAll } from "vitest";
import type { OpenQuotas } from "../../src/http/control-auth.js";
import { PgTenantStore } from "../../src/persistence/pg-tenant-store.js";
import { createRuntime, type Runtime } from "../../src/runtime.js";
import { buildRegistry } from "../../src/server.js";
import { connectPostgres, type Sql } from "../../src/store/postgres/connect.js";
import { migrate } from "../../src/store/postgres/migrations.js";
import { harness, START, type CallOptions, type Harness, type Merchant } from "../helpers.js";

export interface PgNode {
  id: string;
  h: Harness;
  store: PgTenantStore;
  background: PgBackground;
  runtime: Runtime;
  sql: Sql;
  /** The merchant as this node serves it: the same keys, its calls sent to this node. */
  as(m: Pick<Merchant, "id" | "apiKey" | "apiSecret" | "webhookSecret">): Merchant;
  close(): Promise<void>;
  /** Dies without a word: no drain, no leases given back, its row left in the nodes table. */
  kill(): Promise<void>;
}

/** A wall clock several nodes share. */
export const sharedWall = () => ({ now: START });

export interface PgNodeOptions {
  poolSize?: number;
  maxMerchants?: number;
  /** Requests kept in each merchant's request log (`--request-log`). */
  requestLogSize?: number;
  /** Open routes' quotas per client IP per minute (`--signups-per-minute`, …); none by default. */
  quotas?: OpenQuotas;
}

export async function pgNode(url: string, wall: { now: number }, id: string, options: PgNodeOptions = {}): Promise<PgNode> {
  const sql = await connectPostgres(url, { poolSize: options.poolSize ?? 4, statementTimeoutMs: 5000, nodeId: id });
  await migrate(sql, id);
  const { registry } = buildRegistry({ requestLogSize: options.requestLogSize }, () => wall.now);
  const store = new PgTenantStore(sql, registry, { nodeId: id, maxMerchants: options.maxMerchants });
  // Background work runs when the test asks (`background.pollOnce()`), on the test's wall clock.
  const background = new PgBackground(sql, store, { nodeId: id, appVersion: "test", wall: () => wall.now, pollMs: 0 });
  await background.register();
  const runtime = createRuntime({ store, leases: background });
  store.attach(runtime.driver);
  background.start(runtime);
  const h = Object.assign(harness({ registry, runtime, quotas: options.quotas }), { wall });
  const as = (m: Pick<Merchant, "id" | "apiKey" | "apiSecret" | "webhookSecret">): Merchant => {
    const keys = { "x-api-key": m.apiKey, "x-api-secret": m.apiSecret };
    return {
      id: m.id,
      apiKey: m.apiKey,
      apiSecret: m.apiSecret,
      webhookSecret: m.webhookSecret,
      keys,
      get tenant() {
        return registry.get(m.id)!;
      },
      call: (method: string, path: string, opts: CallOptions = {}) =>
        h.call(method, path, { ...opts, headers: opts.anonymous ? opts.headers : { ...keys, ...(opts.headers ?? {}) } }),
    };
  };
  return {
    id,
    h,
    store,
    background,
    runtime,
    sql,
    as,
    async close() {
      runtime.stop();
      await background.drain();
      await background.leave();
      await store.close();
    },
    async kill() {
      // As a process killed with SIGKILL: its connections close at once (PostgreSQL rolls back what
      // they held open), then whatever it still had running fails against a closed pool.
      await sql.end({ timeout: 0 });
      runtime.stop();
    },
  };
}

/**
 * Nodes A and B on the cluster of a test file (usePostgres), sharing one wall clock: started before the
 * tests of the describe block that calls it, closed after them. Read `.a` and `.b` inside tests.
 */
export function useTwoNodes(pg: { readonly cluster: { url: string } }, options: PgNodeOptions = {}): { wall: { now: number }; readonly a: PgNode; readonly b: PgNode } {
  const nodes = { wall: sharedWall() } as { wall: { now: number }; a: PgNode; b: PgNode };
  beforeAll(async () => {
    nodes.a = await pgNode(pg.cluster.url, nodes.wall, "node-a", options);
    nodes.b = await pgNode(pg.cluster.url, nodes.wall, "node-b", options);
  }, 30_000);
  afterAll(async () => {
    await Promise.all([nodes.a?.close(), nodes.b?.close()]);
  });
  return nodes;
}
