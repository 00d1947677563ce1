/**
 * `--data postgres://…`: merchants kept in PostgreSQL, shared by every process started with the same
 * URL. The database is the one source of truth and the one lock; each process holds a cache of the
 * merchants it served. A change runs in one transaction that locks the merchant's row, brings the
 * cached copy up to the row's version (its journal rows since, or the whole merchant), runs the work,
 * appends what changed as one journal row (the ops the folder store writes as a line) and commits:
 * the answer goes only after the commit. A read first compares versions (one small query), and
 * catches up when another process changed the merchant.
 *
 * Changes of one merchant in this process queue in a lane, so waiting for the row costs one
 * connection, not one per request. A change made inside another of the same merchant (a timer fired
 * during a request, a webhook attempt during an advance) joins it: one transaction, one commit.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Snapshot } from "../domain/snapshot.js";
import { canFire, nextTimer } from "../domain/timers.js";
import type { ClockDriver } from "../engine/clock-driver.js";
import { Lanes } from "../engine/lanes.js";
import { claimsOf, MerchantLimitError, type Registry } from "../engine/registry.js";
import { MerchantGone, type FreshOptions, type SideRecordName, type StoreHealth, type TenantStore } from "../engine/tenant-store.js";
import { liveOf, snapshotOf, type Tenant } from "../engine/tenant.js";
import { serialiseInSlices } from "../store/compaction.js";
import { captureDoc, Tracker, type Op } from "../store/journal-diff.js";
import { replay } from "../store/journal-replay.js";
import { loggedEntry, type RequestRecord } from "../domain/request-record.js";
import type { Sql, Tx } from "../store/postgres/connect.js";
import { classifyPgError, pgErrorText } from "../store/postgres/errors.js";
import { merchantOfClaim, merchantOfKey, updateClaims, replaceClaims, ClaimTaken, type Claim } from "../store/postgres/lookup-rows.js";
import {
  appendChange,
  compactMerchant,
  insertMerchants,
  loadMerchant,
  lockMerchant,
  MerchantLimitReached,
  readHead,
  removeMerchant,
  changesSince,
  setNextDue,
  type JournalRow,
  type MerchantHead,
} from "../store/postgres/merchant-rows.js";
import { StoreUnavailable } from "../store/store-io.js";
import { PgTraffic } from "./pg-traffic.js";

/** A journal is folded into its merchant's snapshot once it holds more than this and more than the snapshot. */
const COMPACT_ABOVE = 4 * 1024 * 1024;
/** Events left in the outbox after a commit are due for delivery this long after it, whoever is left to do it. */
const ORPHANED_OUTBOX_MS = 5_000;

/** What this process knows of a merchant it holds: the version its copy is at, and what that copy wrote. */
interface Held {
  /** The row version the cached tenant reflects; -1: unknown (a change failed half-way), so the next use reloads it. */
  version: number;
  tracker: Tracker;
  /** Bytes of the merchant's snapshot row when it was last read or written whole. */
  snapshotBytes: number;
  compacting: boolean;
}

/** A change under way: changes of the same merchant made inside it (while it is open) join its transaction. */
interface Ongoing {
  merchantId: string;
  tx: Tx;
  open: boolean;
  /** Changes that joined it: it commits only once they are done (one may have been started and not awaited by its work). */
  joined: Promise<unknown>[];
}

export interface PgTenantStoreOptions {
  /** This process's id in the cluster (journal rows name it). */
  nodeId: string;
  /** Merchants the whole cluster holds (`--max-merchants`). */
  maxMerchants?: number;
}

export class PgTenantStore implements TenantStore {
  readonly kind = "postgres";
  readonly shared = true;
  private readonly held = new Map<string, Held>();
  private readonly lanes = new Lanes();
  private readonly ongoing = new AsyncLocalStorage<Ongoing>();
  private driver: Pick<ClockDriver, "arm" | "stop"> | undefined;
  /** The request log, quotas and side records (pg-traffic.ts). */
  private readonly traffic: PgTraffic;
  private failing: { error: string; since: string } | null = null;

  constructor(
    private readonly sql: Sql,
    private readonly registry: Registry,
    private readonly options: PgTenantStoreOptions,
  ) {
    this.traffic = new PgTraffic(sql);
  }

  /** The clock driver, once the runtime exists: a merchant caught up or loaded gets its wake-up armed. */
  attach(driver: Pick<ClockDriver, "arm" | "stop">): void {
    this.driver = driver;
  }

  resolveKey(apiKey: string): Promise<void> | undefined {
    if (this.registry.findByApiKey(apiKey)) return undefined;
    return this.guard(async () => {
      const id = await merchantOfKey(this.sql, apiKey);
      if (id) await this.load(id);
    });
  }

  resolveCheckout(reference: string): Promise<void> | undefined {
    if (this.registry.findCheckout(reference)) return undefined;
    return this.guard(async () => {
      const id = await merchantOfClaim(this.sql, { kind: "checkout", value: reference });
      if (id) await this.load(id);
    });
  }

  fresh(tenant: Tenant, opts?: FreshOptions): Promise<void> | undefined {
    if (opts?.requestLog) return this.freshWithTraffic(tenant);
    if (this.joinable(tenant)) return undefined; // inside its own change: already as fresh as it gets
    return this.guard(async () => {
      const head = await readHead(this.sql, tenant.id);
      const held = this.held.get(tenant.id);
      if (head && held && held.version === head.version) return;
      await this.lanes.run(tenant.id, () => this.bringUp(tenant, head, this.sql));
    });
  }

  change<T>(tenant: Tenant, work: () => T | Promise<T>): Promise<T> {
    const outer = this.ongoing.getStore();
    if (outer?.open && outer.merchantId === tenant.id) {
      const joined = Promise.resolve().then(work);
      outer.joined.push(joined);
      return joined;
    }
    return this.lanes.run(tenant.id, () => this.transact(tenant, work));
  }

  async created(tenants: Tenant[]): Promise<void> {
    if (tenants.length === 0) return;
    const wall = this.registry.wall();
    const rows = tenants.map((t) => {
      const snapshot = JSON.stringify(snapshotOf(t));
      return {
        merchantId: t.id,
        apiKey: t.config.api_key,
        snapshot,
        clockWall: wall,
        nextDueWall: nextDueWall(t, wall),
        scenarioFile: t.config.scenario_origin?.file ?? null,
        claims: claimsOf(t.state),
      };
    });
    try {
      await insertMerchants(this.sql, rows, this.options.maxMerchants ?? Infinity);
    } catch (err) {
      // All or none: a sign-up or scenario load that could not be kept leaves no merchant behind.
      for (const t of tenants) this.registry.remove(t);
      if (err instanceof MerchantLimitReached) throw new MerchantLimitError(err.max);
      throw this.failure(err);
    }
    this.healthy();
    for (const [i, t] of tenants.entries()) this.track(t, 1, rows[i]!.snapshot.length);
  }

  async removed(tenant: Tenant): Promise<void> {
    this.held.delete(tenant.id);
    try {
      // Deleted inside its own change (DELETE /sandbox/v1/merchant): in that transaction, which holds the row.
      await removeMerchant(this.transactionOf(tenant) ?? this.sql, tenant.id);
    } catch (err) {
      throw this.failure(err);
    }
  }

  health(): StoreHealth {
    return this.failing ? { ok: false, ...this.failing } : { ok: true };
  }

  async close(): Promise<void> {
    await this.sql.end({ timeout: 5 });
  }

  // ---- Traffic (pg-traffic.ts): the request log, quotas, side records. Not state: no version, no journal row.

  /** The merchant as `fresh` brings it, and its traffic, read at the same time. */
  private freshWithTraffic(tenant: Tenant): Promise<void> {
    const state = this.fresh(tenant);
    const traffic = this.guard(() => this.traffic.sync(tenant));
    return state ? Promise.all([state, traffic]).then(() => undefined) : traffic;
  }

  logRequest(tenant: Tenant, record: RequestRecord): Promise<void> {
    const tx = this.transactionOf(tenant);
    // Every process reads the rows: they hold the entry as shown.
    const entry = loggedEntry(record);
    return this.guard(() => (tx ? this.traffic.logRequestIn(tx, tenant, entry) : this.traffic.logRequest(tenant, entry)));
  }

  clearRequestLog(tenant: Tenant): Promise<number> {
    const db = this.transactionOf(tenant) ?? this.sql;
    return this.guard(() => this.traffic.clear(tenant, db));
  }

  quota(name: string, ip: string, perMinute: number, wall: number): Promise<number | null> {
    return this.guard(() => this.traffic.quota(name, ip, perMinute, wall));
  }

  keepSideRecord(tenant: Tenant, name: SideRecordName, value: unknown): Promise<void> {
    const db = this.transactionOf(tenant) ?? this.sql;
    return this.guard(() => this.traffic.keepSideRecord(tenant, name, value, db));
  }

  sideRecord(tenant: Tenant, name: SideRecordName): unknown {
    return this.traffic.sideRecord(tenant, name);
  }

  // ---- End of traffic.

  /**
   * The transaction of the merchant's change under way in this call chain, if any: what is written
   * inside it (a lease, a log entry, a deletion) commits with it, instead of waiting on the pool for
   * the row lock that change holds.
   */
  transactionOf(tenant: Tenant): Tx | undefined {
    const outer = this.ongoing.getStore();
    return outer?.open && outer.merchantId === tenant.id ? outer.tx : undefined;
  }

  /** A merchant by id, loaded when this process does not hold it yet (background work found it due). */
  async loadById(merchantId: string): Promise<Tenant | undefined> {
    return this.registry.get(merchantId) ?? (await this.guard(() => this.load(merchantId)));
  }

  /**
   * After background work: the row's due time made right even when the work changed nothing (a due
   * time computed on a clock since slowed or stopped), so no node keeps finding it due.
   */
  settleDue(tenant: Tenant): Promise<void> {
    return this.lanes.run(tenant.id, async () => {
      try {
        await this.sql.begin(async (tx) => {
          const head = await lockMerchant(tx, tenant.id);
          await this.bringUp(tenant, head, tx);
          await setNextDue(tx, tenant.id, nextDueWall(tenant, this.registry.wall()));
        });
      } catch (err) {
        throw this.failure(err);
      }
    });
  }

  private joinable(tenant: Tenant): boolean {
    return this.transactionOf(tenant) !== undefined;
  }

  /** One change: lock, catch up, work, append, commit. A failure leaves the cached copy to be reloaded. */
  private async transact<T>(tenant: Tenant, work: () => T | Promise<T>): Promise<T> {
    let result!: T;
    let kept: { version: number; snapshotBytes?: number } | undefined;
    let started = false;
    try {
      await this.beginRetrying(() => started, async (tx) => {
        const head = await lockMerchant(tx, tenant.id);
        await this.bringUp(tenant, head, tx);
        started = true;
        const ongoing: Ongoing = { merchantId: tenant.id, tx, open: true, joined: [] };
        try {
          result = await this.ongoing.run(ongoing, work);
          // A change the work started without waiting (a webhook attempt's plan, from a timer fired on a
          // catch-up) still writes into this transaction: the commit waits for it.
          while (ongoing.joined.length > 0) await Promise.allSettled(ongoing.joined.splice(0));
        } finally {
          ongoing.open = false;
        }
        const held = this.held.get(tenant.id);
        // Deleted while the work ran (in this transaction): nothing of it is kept.
        if (!held || this.registry.get(tenant.id) !== tenant) return;
        // The wall clock first, then the merchant's clock: a process that restores the clock from the
        // two never puts it before a time this change recorded.
        const wall = this.registry.wall();
        const ops = held.tracker.diff(liveOf(tenant));
        if (ops.length === 0) {
          kept = { version: head!.version };
          return;
        }
        await this.claimsOfChange(tx, tenant, ops);
        // Not awaited (and wrapped, or the async body would wait for it): written with the COMMIT that follows.
        const last = appendChange(tx, tenant.id, head!, {
          ops: JSON.stringify(ops),
          nodeId: this.options.nodeId,
          wallAt: wall,
          nextDueWall: nextDueWall(tenant, wall),
        }).then((version) => {
          kept = { version };
          if (head!.journalBytes > Math.max(COMPACT_ABOVE, held.snapshotBytes)) held.compacting ||= this.compactSoon(tenant, version);
        });
        return { last };
      });
    } catch (err) {
      const held = this.held.get(tenant.id);
      if (held) held.version = -1;
      if (err instanceof ClaimTaken && err.claim.kind !== "api_key") await this.load(err.owner).catch(() => undefined);
      throw this.failure(err);
    }
    this.healthy();
    const held = this.held.get(tenant.id);
    if (held && kept) held.version = kept.version;
    return result;
  }

  /**
   * A transaction that lost a deadlock or serialization race, or found a lock unavailable, before its
   * work started is run again, a bounded number of times; once the work ran it cannot be (the request
   * has moved on), and the loss is answered as a 503 that says to send it again.
   */
  private async beginRetrying(started: () => boolean, body: PipelinedBody): Promise<void> {
    for (let tries = 1; ; tries++) {
      try {
        await this.pipelined(body);
        return;
      } catch (err) {
        if (started() || tries >= RACE_TRIES || classifyPgError(err) !== "retry") throw err;
      }
    }
  }

  /**
   * One transaction on a connection of its own, in as few round trips as the protocol allows: BEGIN
   * goes out with the body's first statement, and COMMIT with the statements the body hands back
   * unawaited (`last`). A statement that fails makes PostgreSQL answer the COMMIT queued after it with
   * a rollback, so nothing half done is kept; a body that throws before the COMMIT is rolled back.
   */
  private async pipelined(body: PipelinedBody): Promise<void> {
    const conn = await this.sql.reserve();
    // A reserved connection takes the same queries as a transaction's handle; no savepoint is used here.
    const tx = conn as unknown as Tx;
    let committing: Promise<unknown> | undefined;
    try {
      const begun = conn`begin`.execute();
      begun.catch(() => undefined); // its failure fails the statements after it, which are awaited
      const { last } = (await body(tx)) ?? {};
      last?.catch(() => undefined); // judged below, with the COMMIT
      await begun;
      committing = conn`commit`.execute();
      const [wrote, committed] = await Promise.allSettled([last, committing]);
      if (wrote.status === "rejected") throw wrote.reason;
      if (committed.status === "rejected") throw committed.reason;
    } catch (err) {
      if (!committing) await conn`rollback`.catch(() => undefined);
      throw err;
    } finally {
      conn.release();
    }
  }

  /** New sandbox-wide identifiers a change took (a payment link, an account number) go to the claims table. */
  private async claimsOfChange(tx: Tx, tenant: Tenant, ops: Op[]): Promise<void> {
    if (ops.some((op) => op[0] === "doc")) return replaceClaims(tx, tenant.id, claimsOf(tenant.state));
    const added: Claim[] = [];
    for (const op of ops) {
      if (op[0] !== "put") continue;
      if (op[1] === "checkouts") for (const c of op[2] as Array<{ reference: string; account_number: string }>) added.push({ kind: "checkout", value: c.reference }, { kind: "account", value: c.account_number });
      if (op[1] === "virtual_accounts") for (const a of op[2] as Array<{ account_number: string }>) added.push({ kind: "account", value: a.account_number });
    }
    if (added.length > 0) await updateClaims(tx, tenant.id, added, []);
  }

  /**
   * Brings the cached merchant up to the row's version: the journal rows after its own, or the merchant
   * whole when those were folded into a newer snapshot (or its copy is unknown). Runs in its lane, or
   * under the row's lock.
   */
  private async bringUp(tenant: Tenant, head: MerchantHead | null, db: Sql | Tx): Promise<void> {
    if (!head) {
      this.evict(tenant);
      throw new MerchantGone(tenant.id);
    }
    const held = this.held.get(tenant.id);
    if (held && held.version === head.version) return;
    const changes = held && held.version >= 0 ? await changesSince(db, tenant.id, held.version) : null;
    if (changes) {
      this.apply(tenant, snapshotOf(tenant), changes, head, held!.snapshotBytes);
      return;
    }
    const rows = await loadMerchant(this.sql, tenant.id);
    if (!rows) {
      this.evict(tenant);
      throw new MerchantGone(tenant.id);
    }
    this.apply(tenant, JSON.parse(rows.snapshot) as unknown, rows.changes, rows.head, rows.snapshot.length);
  }

  /** The base with the journal rows replayed over it becomes the cached merchant, at the last row's version. */
  private apply(tenant: Tenant, base: unknown, changes: JournalRow[], head: MerchantHead, snapshotBytes: number): void {
    const snapshot = this.replayed(tenant.id, base, changes);
    this.registry.reload(tenant, snapshot);
    const last = changes.at(-1);
    tenant.clock.restoreAt(snapshot.clock, last?.wallAt ?? head.clockWall);
    this.track(tenant, last?.version ?? head.snapshotVersion, snapshotBytes);
    this.driver?.arm(tenant);
  }

  private replayed(merchantId: string, base: unknown, changes: JournalRow[]): Snapshot {
    const lines = changes.map((c) => JSON.parse(c.ops) as unknown);
    const result = replay(base, [{ where: `of merchant ${merchantId} in the database`, lines }]);
    if ("error" in result) throw new Error(`merchant ${merchantId} ${result.error}`);
    return result.snapshot;
  }

  /** Loads a merchant this process does not hold yet; undefined when the database has none by that id. */
  private load(merchantId: string): Promise<Tenant | undefined> {
    return this.lanes.run(merchantId, async () => {
      const known = this.registry.get(merchantId);
      if (known) return known;
      const rows = await loadMerchant(this.sql, merchantId);
      if (!rows) return undefined;
      const snapshot = this.replayed(merchantId, JSON.parse(rows.snapshot) as unknown, rows.changes);
      const tenant = this.registry.restore(snapshot);
      tenant.clock.restoreAt(snapshot.clock, rows.changes.at(-1)?.wallAt ?? rows.head.clockWall);
      this.track(tenant, rows.head.version, rows.snapshot.length);
      this.driver?.arm(tenant);
      return tenant;
    });
  }

  private track(tenant: Tenant, version: number, snapshotBytes: number): void {
    const held = this.held.get(tenant.id) ?? { version, tracker: new Tracker(), snapshotBytes, compacting: false };
    held.version = version;
    held.snapshotBytes = snapshotBytes;
    held.tracker.reset(liveOf(tenant));
    // The clock as this process runs it on is its own reading: the next change writes it, so a process
    // whose wall clock is behind never runs the merchant's time back past a time this one recorded.
    held.tracker.unwritten("clock");
    this.held.set(tenant.id, held);
  }

  /** Deleted through another process: forgotten here. */
  private evict(tenant: Tenant): void {
    this.held.delete(tenant.id);
    if (this.registry.get(tenant.id) === tenant) this.registry.remove(tenant);
    this.driver?.stop(tenant);
  }

  /**
   * Folds the journal into a snapshot made of the merchant as committed at `version`: captured now
   * (before any later change), serialised a slice at a time, written outside the merchant's lock.
   */
  private compactSoon(tenant: Tenant, version: number): boolean {
    const doc = captureDoc(liveOf(tenant));
    void (async () => {
      const parts: Buffer[] = [];
      for await (const part of serialiseInSlices(doc, {})) parts.push(part);
      const text = Buffer.concat(parts).toString();
      if (await compactMerchant(this.sql, tenant.id, version, text)) {
        const held = this.held.get(tenant.id);
        if (held) held.snapshotBytes = text.length;
      }
    })()
      .catch((err: unknown) => console.error(`[merchant-sandbox] merchant ${tenant.id}: folding its journal failed:`, pgErrorText(err)))
      .finally(() => {
        const held = this.held.get(tenant.id);
        if (held) held.compacting = false;
      });
    return true;
  }

  /** Runs a query outside any change, answering a lost database as a change would. */
  private async guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      const result = await work();
      this.healthy();
      return result;
    } catch (err) {
      throw this.failure(err);
    }
  }

  private healthy(): void {
    this.failing = null;
  }

  /** Background work's word on the database (it answered, or not), so /health tells an idle node's state too. */
  observed(err?: unknown): void {
    if (err === undefined) this.healthy();
    else this.failure(err);
  }

  /** A database error as the API answers it: the database out of reach (or a lost race) is a 503, nothing half applied. */
  private failure(err: unknown): unknown {
    if (err instanceof ClaimTaken) return new StoreUnavailable("an identifier was taken by another merchant at the same time", RACE_LOST);
    const kind = classifyPgError(err);
    if (kind === "retry") return new StoreUnavailable(pgErrorText(err), RACE_LOST);
    if (kind !== "unavailable") return err;
    const text = pgErrorText(err);
    this.failing ??= { error: `PostgreSQL: ${text}`, since: new Date(this.registry.wall()).toISOString() };
    return new StoreUnavailable(text, `The change could not be confirmed (PostgreSQL is unavailable: ${text}). It was not applied unless the connection was lost while it committed; retry, with the same reference where the call takes one, once the database is back.`);
  }
}

/** A transaction's statements; those it hands back unawaited as `last` are written with its COMMIT. */
type PipelinedBody = (tx: Tx) => Promise<{ last?: Promise<void> } | void>;

/** Tries of a transaction that lost a race before its work started. */
const RACE_TRIES = 3;
const RACE_LOST = "The change lost a race with another change of the sandbox and was not applied; send it again.";

/** When a process must next do background work for the merchant: a realtime timer falling due, or events left to deliver. */
function nextDueWall(tenant: Tenant, wall: number): number | null {
  let due: number | null = null;
  const next = nextTimer(tenant.state);
  const { mode, speed, now } = tenant.clock.settings();
  if (next && canFire(next) && mode === "realtime") due = wall + Math.max(0, Math.ceil((next.at - now!) / speed));
  if (tenant.state.outbox.length > 0) due = Math.min(due ?? Infinity, wall + ORPHANED_OUTBOX_MS);
  return due;
}
