/**
 * A merchant's traffic in PostgreSQL (store/postgres/traffic-rows.ts), for PgTenantStore: what it
 * answers must not depend on which process is asked, though none of it is merchant state.
 *
 * - The request log: each process appends its requests' entries as rows; the database hands out the
 *   seqs, so every process lists one merchant's requests in one order. Entries a process logs for the
 *   same merchant while its last write is under way go in one batch (one transaction). Each process's
 *   ring (domain/request-log.ts) mirrors the rows: a reader catches it up (`sync`) with the rows past
 *   its `next`, and with a clear made anywhere (kept_from). Adopted in seq order, the rows leave the
 *   ring as one process logging them all would have (same count and bytes bounds).
 * - The open routes' quotas, counted in one table for every process: exact.
 * - Side records (the credit report, the doctor's last scorecard): written through, read back by `sync`.
 */
import type { CreditReport } from "../domain/checks.js";
import { REQUEST_LOG_BYTES, type LoggedRequest } from "../domain/request-log.js";
import { Lanes } from "../engine/lanes.js";
import type { SideRecordName } from "../engine/tenant-store.js";
import type { Tenant } from "../engine/tenant.js";
import type { Db, Sql, Tx } from "../store/postgres/connect.js";
import { appendRequests, appendRequestsIn, clearRequests, hitQuota, pruneQuotaHits, readTraffic, writeSideRecord } from "../store/postgres/traffic-rows.js";

/**
 * How far back a catch-up reads, in bytes of entry JSON newer than a row: a ring holds at most
 * REQUEST_LOG_BYTES as entryBytes counts them, and an entry's JSON is at most a few times that
 * (escapes, UTF-8), so rows past this reach would be dropped anyway. It bounds what a process reads
 * when it first serves a merchant with a long log.
 */
const REACH_BYTES = 8 * REQUEST_LOG_BYTES;
/** Quota hits of addresses that never came back are swept this often (wall ms), by each process. */
const PRUNE_EVERY_MS = 60_000;

/** Entries waiting for the write under way of their merchant to end. */
interface Batch {
  tenant: Tenant;
  entries: Array<Omit<LoggedRequest, "seq">>;
  kept: Promise<void>;
}

export class PgTraffic {
  private readonly waiting = new Map<string, Batch>();
  private readonly writes = new Lanes();
  /** Each process's copy of a merchant's side records, and the read (or write) it came from. */
  private readonly sides = new WeakMap<Tenant, { ticket: number; records: Record<string, unknown> }>();
  private tickets = 0;
  private prunedAt = -Infinity;

  constructor(private readonly sql: Sql) {}

  /** Resolves once the entry is a row; entries logged meanwhile for the same merchant join its batch. */
  logRequest(tenant: Tenant, entry: Omit<LoggedRequest, "seq">): Promise<void> {
    const open = this.waiting.get(tenant.id);
    if (open?.tenant === tenant) {
      open.entries.push(entry);
      return open.kept;
    }
    const batch = { tenant, entries: [entry] } as Batch;
    this.waiting.set(tenant.id, batch);
    batch.kept = this.writes.run(tenant.id, async () => {
      if (this.waiting.get(tenant.id) === batch) this.waiting.delete(tenant.id);
      const first = await appendRequests(this.sql, tenant.id, rowsOf(batch.entries), tenant.requestLog.capacity);
      this.adoptOwn(tenant, batch.entries, first);
    });
    return batch.kept;
  }

  /** The same, inside a change of the merchant (its transaction holds the merchant's row): no batch. */
  async logRequestIn(tx: Tx, tenant: Tenant, entry: Omit<LoggedRequest, "seq">): Promise<void> {
    const first = await appendRequestsIn(tx, tenant.id, rowsOf([entry]), tenant.requestLog.capacity);
    this.adoptOwn(tenant, [entry], first);
  }

  /** Brings the process's ring and side records up to the database. */
  async sync(tenant: Tenant): Promise<void> {
    const ticket = ++this.tickets;
    const log = tenant.requestLog;
    const read = await readTraffic(this.sql, tenant.id, log.next, log.capacity, REACH_BYTES);
    log.skipTo(read.keptFrom);
    // Rows the ring already has (its own entries, or a read that came back first) are skipped.
    for (const [seq, entry] of read.entries) if (seq >= log.next) log.adopt(Object.assign(entry, { seq }) as unknown as LoggedRequest);
    // A read that left before a later one (or a write) was answered has older side records.
    if (ticket > (this.sides.get(tenant)?.ticket ?? 0)) this.setSides(tenant, ticket, read.sides);
  }

  /** Empties the log for every process (`db`: the change's transaction, when inside one); the requests it held here, once caught up. */
  async clear(tenant: Tenant, db: Db): Promise<number> {
    await this.sync(tenant);
    const count = tenant.requestLog.size;
    tenant.requestLog.skipTo(await clearRequests(db, tenant.id));
    return count;
  }

  quota(name: string, ip: string, perMinute: number, wall: number): Promise<number | null> {
    if (wall - this.prunedAt >= PRUNE_EVERY_MS) {
      this.prunedAt = wall;
      void pruneQuotaHits(this.sql, wall).catch(() => undefined); // housekeeping: the next sweep retries
    }
    return hitQuota(this.sql, name, ip, perMinute, wall);
  }

  async keepSideRecord(tenant: Tenant, name: SideRecordName, value: unknown, db: Db): Promise<void> {
    await writeSideRecord(db, tenant.id, name, value === null || value === undefined ? null : JSON.stringify(value));
    const records = { ...this.sides.get(tenant)?.records };
    if (value === null || value === undefined) delete records[name];
    else records[name] = value;
    this.setSides(tenant, ++this.tickets, records);
  }

  sideRecord(tenant: Tenant, name: SideRecordName): unknown {
    return this.sides.get(tenant)?.records[name];
  }

  private setSides(tenant: Tenant, ticket: number, records: Record<string, unknown>): void {
    this.sides.set(tenant, { ticket, records });
    tenant.creditReport = (records.credit_report ?? null) as CreditReport | null;
  }

  /** A process's own entries go into its ring at once when they follow what it holds; otherwise the next sync brings them. */
  private adoptOwn(tenant: Tenant, entries: Array<Omit<LoggedRequest, "seq">>, first: number): void {
    const log = tenant.requestLog;
    if (first !== log.next) return;
    for (const [i, entry] of entries.entries()) log.adopt(Object.assign(entry, { seq: first + i }) as LoggedRequest);
  }
}

const rowsOf = (entries: Array<Omit<LoggedRequest, "seq">>) => entries.map((e) => ({ entry: JSON.stringify(e), wallAt: e.wall_at }));
