/**
 * What a node of a PostgreSQL cluster does besides answering requests: it runs background work that
 * no node owns (merchants whose realtime timers fell due or whose events wait to be delivered,
 * whichever node made them; webhook attempts whose node died in flight), beats its heart in the
 * nodes table, and forgets nodes that stopped beating. Any node may do any of it: the merchant's row
 * lock and the leases make sure each piece is done once at a time.
 */
import type { PlannedAttempt } from "../domain/webhook-policy.js";
import { MAX_WEBHOOK_TIMEOUT_SECONDS } from "../domain/bounds.js";
import { LEASE_MARGIN_MS, type AttemptLeases } from "../engine/attempt-leases.js";
import type { ClockDriver } from "../engine/clock-driver.js";
import type { Tenant } from "../engine/tenant.js";
import {
  dueMerchants,
  heartbeat,
  leaseAttempt,
  pruneNodes,
  releaseAttempt,
  releaseLeasesOf,
  removeNode,
  takeExpiredAttempts,
  type NodeState,
} from "../store/postgres/background-rows.js";
import type { Sql } from "../store/postgres/connect.js";
import { pgErrorText } from "../store/postgres/errors.js";
import { SCHEMA_VERSION } from "../store/postgres/migrations.js";
import type { PgTenantStore } from "./pg-tenant-store.js";

/** How often a node looks for due work; each look is one indexed query. */
const POLL_MS = 250;
/** How often a node says it is alive, and how long a silent node is kept in the nodes table. */
const HEARTBEAT_MS = 5_000;
const NODE_SILENT_MS = 60_000;
/** Merchants and attempts taken per look: a node never takes more than it can start at once. */
const BATCH = 16;

/** What the background needs of the runtime: firing a merchant's due work, and resending a planned attempt. */
export interface BackgroundWork {
  driver: Pick<ClockDriver, "wake" | "arm" | "stop">;
  dispatcher: { resume(tenant: Tenant, attempt: PlannedAttempt): Promise<unknown> };
}

export class PgBackground implements AttemptLeases {
  private state: NodeState = "starting";
  private timers: NodeJS.Timeout[] = [];
  private polling: Promise<void> | null = null;
  private work: BackgroundWork | undefined;
  private lastBeat = 0;

  constructor(
    private readonly sql: Sql,
    private readonly store: PgTenantStore,
    private readonly options: { nodeId: string; appVersion: string; wall: () => number; pollMs?: number },
  ) {}

  get nodeState(): NodeState {
    return this.state;
  }

  /** Registers the node (starting) before it serves anything. */
  async register(): Promise<void> {
    await heartbeat(this.sql, this.options.nodeId, "starting", this.options.appVersion, SCHEMA_VERSION);
  }

  /** Starts polling and beating; the node now serves. */
  start(work: BackgroundWork): void {
    this.work = work;
    this.state = "serving";
    const every = this.options.pollMs ?? POLL_MS;
    // 0: looks only when asked (tests drive them, on their own wall clock).
    if (every > 0) {
      const poll = setInterval(() => void this.pollOnce(), every);
      poll.unref();
      this.timers.push(poll);
    }
    void this.beat().catch((err: unknown) => this.complain("heartbeat", err));
  }

  /** One look for due work (tests call it directly, with a manual wall clock). Never rejects. */
  pollOnce(): Promise<void> {
    this.polling ??= this.poll().finally(() => (this.polling = null));
    return this.polling;
  }

  async take(tenant: Tenant, attempt: PlannedAttempt, ms: number): Promise<void> {
    const tx = this.store.transactionOf(tenant);
    if (!tx) throw new Error("an attempt is leased inside the change that plans it");
    await leaseAttempt(tx, tenant.id, attempt.id, JSON.stringify(attempt), this.options.nodeId, ms);
  }

  async release(tenant: Tenant, attemptId: string): Promise<boolean> {
    const tx = this.store.transactionOf(tenant);
    if (!tx) throw new Error("an attempt's lease is given back inside the change that records it");
    return releaseAttempt(tx, tenant.id, attemptId, this.options.nodeId);
  }

  /**
   * SIGTERM: the node says it is draining (its /health answers 503, so balancers stop sending), takes
   * no more background work, and gives back the leases it holds so other nodes resend those attempts.
   */
  async drain(): Promise<void> {
    this.state = "draining";
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    await this.polling;
    await heartbeat(this.sql, this.options.nodeId, "draining", this.options.appVersion, SCHEMA_VERSION).catch(() => undefined);
  }

  /** The node leaves the cluster: its row goes, and its leases with it. */
  async leave(): Promise<void> {
    await releaseLeasesOf(this.sql, this.options.nodeId).catch(() => undefined);
    await removeNode(this.sql, this.options.nodeId).catch(() => undefined);
  }

  private async poll(): Promise<void> {
    if (!this.work || this.state !== "serving") return;
    try {
      await this.beat();
      const wall = this.options.wall();
      for (const id of await dueMerchants(this.sql, wall, BATCH)) {
        const tenant = await this.store.loadById(id);
        if (tenant) await this.work.driver.wake(tenant).catch((err: unknown) => this.complain(`merchant ${id}: due work`, err));
        if (tenant) await this.store.settleDue(tenant).catch(() => undefined);
      }
      const ms = MAX_WEBHOOK_TIMEOUT_SECONDS * 1000 + LEASE_MARGIN_MS;
      for (const taken of await takeExpiredAttempts(this.sql, this.options.nodeId, ms, BATCH)) {
        const attempt = JSON.parse(taken.plan) as PlannedAttempt;
        const tenant = await this.store.loadById(taken.merchantId);
        if (tenant) void this.work.dispatcher.resume(tenant, attempt);
      }
      this.store.observed();
    } catch (err) {
      this.store.observed(err);
      this.complain("background work", err);
    }
  }

  private async beat(): Promise<void> {
    const now = Date.now();
    if (now - this.lastBeat < HEARTBEAT_MS) return;
    this.lastBeat = now;
    await heartbeat(this.sql, this.options.nodeId, this.state, this.options.appVersion, SCHEMA_VERSION);
    await pruneNodes(this.sql, NODE_SILENT_MS);
  }

  private complain(what: string, err: unknown): void {
    console.error(`[merchant-sandbox] node ${this.options.nodeId}: ${what} failed: ${pgErrorText(err)}`);
  }
}
