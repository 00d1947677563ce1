/**
 * One node of a cluster on PostgreSQL, as `start --data postgres://…` opens it: the pool (proved to
 * work before anything else), the schema migrated under its lock, the node registered, the store and
 * its background work. What the node says of itself on /health comes from here, never the password.
 */
import type { Registry } from "../engine/registry.js";
import type { Tenant } from "../engine/tenant.js";
import { underAdvisoryLock } from "../store/postgres/advisory-lock.js";
import { connectPostgres, describeDataTarget, type Sql } from "../store/postgres/connect.js";
import { merchantIds } from "../store/postgres/merchant-rows.js";
import { migrate, SCHEMA_VERSION } from "../store/postgres/migrations.js";
import { PgBackground, type BackgroundWork } from "./pg-background.js";
import { PgTenantStore } from "./pg-tenant-store.js";

export interface PgNodeOptions {
  url: string;
  nodeId: string;
  poolSize: number;
  statementTimeoutMs: number;
  /** Merchants the whole cluster holds. */
  maxMerchants: number;
  appVersion: string;
}

/** What /health says of a node of a cluster. */
export interface NodeHealth {
  node: string;
  store: { kind: "postgres"; state: "ok" | "failing" | "draining"; target: string; schema_version: number; error?: string; since?: string };
}

export class PgNode {
  readonly target: string;

  private constructor(
    readonly sql: Sql,
    readonly store: PgTenantStore,
    readonly background: PgBackground,
    readonly options: PgNodeOptions,
  ) {
    this.target = describeDataTarget(options.url);
  }

  /** Connects (or throws naming host and port), migrates (or refuses a newer schema) and registers the node. */
  static async open(options: PgNodeOptions, registry: Registry): Promise<PgNode> {
    const sql = await connectPostgres(options.url, { poolSize: options.poolSize, statementTimeoutMs: options.statementTimeoutMs, nodeId: options.nodeId });
    try {
      await migrate(sql, options.nodeId);
      const store = new PgTenantStore(sql, registry, { nodeId: options.nodeId, maxMerchants: options.maxMerchants });
      const background = new PgBackground(sql, store, { nodeId: options.nodeId, appVersion: options.appVersion, wall: registry.wall });
      await background.register();
      return new PgNode(sql, store, background, options);
    } catch (err) {
      await sql.end({ timeout: 1 }).catch(() => undefined);
      throw err;
    }
  }

  /**
   * Making the cluster's shared merchants (the demo, `--scenario` files' merchants) one node at a time:
   * each node finds those an earlier one made, and only the first makes them.
   */
  seeding<T>(work: () => Promise<T>): Promise<T> {
    return underAdvisoryLock(this.sql, "merchant-sandbox:seed", () => work());
  }

  /** Loads the merchants the database already holds among `ids`, and those a scenario file made. */
  async preload(ids: readonly string[], scenarioFiles: readonly string[]): Promise<Tenant[]> {
    const wanted = [...ids];
    for (const file of scenarioFiles) wanted.push(...(await merchantIds(this.sql, file)));
    const loaded: Tenant[] = [];
    for (const id of wanted) {
      const t = await this.store.loadById(id);
      if (t) loaded.push(t);
    }
    return loaded;
  }

  start(work: BackgroundWork): void {
    this.store.attach(work.driver);
    this.background.start(work);
  }

  health(): NodeHealth {
    const status = this.store.health();
    const state = this.background.nodeState === "draining" ? "draining" : status.ok ? "ok" : "failing";
    return {
      node: this.options.nodeId,
      store: { kind: "postgres", state, target: this.target, schema_version: SCHEMA_VERSION, ...(status.ok ? {} : { error: status.error, since: status.since }) },
    };
  }

  /** SIGTERM, first part: /health says draining and background work stops. */
  drain(): Promise<void> {
    return this.background.drain();
  }

  /** Last: the node leaves the cluster (its leases given back) and its pool closes. */
  async close(): Promise<void> {
    await this.background.leave();
    await this.store.close();
  }
}
