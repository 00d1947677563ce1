/**
 * Where merchants' state is kept, as the pipeline, the pages and the clock driver see it: every change
 * to a merchant goes through `change`, which resolves once the change is kept, and every read may first
 * ask for the merchant as the store has it (`fresh`). In memory (no `--data`) there is nothing to keep;
 * the folder store (persistence/file-tenant-store.ts) saves after the work. The interface is in terms
 * of tenants, so http/, webhooks/ and engine/ never see how a store keeps them.
 */
import type { RequestRecord } from "../domain/request-record.js";
import type { Tenant } from "./tenant.js";

export type StoreHealth = { ok: true } | { ok: false; error: string; since: string };

export interface TenantStore {
  readonly kind: "memory" | "file" | "postgres";
  /**
   * Whether other processes change the same merchants. When not, a change's work runs at once and in
   * place, so background work (webhook attempts) may make it and keep it afterwards.
   */
  readonly shared: boolean;
  /**
   * Before a request authenticates with `apiKey`: a shared store makes sure the merchant holding it,
   * if any, is known to this process. `undefined` when there is nothing to wait for.
   */
  resolveKey(apiKey: string): Promise<void> | undefined;
  /** The same for the merchant holding a payment link's reference (the public payment pages). */
  resolveCheckout(reference: string): Promise<void> | undefined;
  /**
   * Before a read: brings the merchant up to what the store holds. `undefined` when there is nothing
   * to wait for (memory and folder stores, always), so a read costs no await. `requestLog`: a reader of
   * its traffic (the request log, the checks, the dashboard) also gets the requests every process
   * logged and the side records (its credit report, its last doctor scorecard) as the store holds them.
   */
  fresh(tenant: Tenant, opts?: FreshOptions): Promise<void> | undefined;
  /**
   * Runs `work` on the merchant, then keeps what it changed; resolves with the work's result once kept.
   * Rejects when the work throws (nothing is kept) or when the change cannot be kept (StoreUnavailable:
   * the change is undone). A merchant deleted while the work ran is not kept again.
   */
  change<T>(tenant: Tenant, work: () => T | Promise<T>): Promise<T>;
  /** New merchants (sign-up, scenario load, start), kept before their first answer. */
  created(tenants: Tenant[]): Promise<void>;
  /** A deleted merchant: what the store kept of it goes. */
  removed(tenant: Tenant): Promise<void>;
  health(): StoreHealth;
  /** Every change lands; the store is left tidy for the next start. */
  close(): Promise<void>;

  // Traffic: not merchant state (never in a snapshot), but a shared store answers it the same from every process.
  /**
   * Appends a request to the merchant's request log. Memory and folder stores: at once, in place, as
   * recorded, and `undefined`. A shared store: formatted, and resolves once the entry is in the database
   * with its seq, the seqs of one merchant following the order its entries were kept in, whichever
   * process kept them.
   */
  logRequest(tenant: Tenant, entry: RequestRecord): Promise<void> | undefined;
  /** Empties the merchant's request log (seqs go on), in every process; the number of requests it held. */
  clearRequestLog(tenant: Tenant): number | Promise<number>;
  /**
   * Counts a hit of an open route's quota (`name`) from `ip` at `wall`: null when admitted (and counted),
   * or the seconds until one is, counted over every process. `undefined` when the store is not shared:
   * the caller counts in its own memory.
   */
  quota(name: string, ip: string, perMinute: number, wall: number): Promise<number | null> | undefined;
  /**
   * Keeps a side record (null: removes it) where every process reads it back (`fresh` with
   * `requestLog`). `undefined` when the store is not shared: the caller's own copy is all there is.
   */
  keepSideRecord(tenant: Tenant, name: SideRecordName, value: unknown): Promise<void> | undefined;
  /** A shared store's copy of a side record, as last kept here or read back; undefined when it has none (or is not shared). */
  sideRecord(tenant: Tenant, name: SideRecordName): unknown;
}

export interface FreshOptions {
  /** The merchant's traffic too: its request log and side records. */
  requestLog?: boolean;
}

/**
 * Records kept beside a merchant, not in its state: the payments it says it credited (`tenant.creditReport`,
 * which a shared store's `fresh` sets) and the scorecard of its last webhook doctor run (doctor/desk.ts).
 */
export type SideRecordName = "credit_report" | "doctor_scorecard";

/** Traffic as a store of one process keeps it: on the tenant, in memory, at once (no await). */
export const LOCAL_TRAFFIC: Pick<TenantStore, "logRequest" | "clearRequestLog" | "quota" | "keepSideRecord" | "sideRecord"> = {
  logRequest(tenant, entry) {
    tenant.requestLog.record(entry);
    return undefined;
  },
  clearRequestLog(tenant) {
    const count = tenant.requestLog.size;
    tenant.requestLog.clear();
    return count;
  },
  quota: () => undefined,
  keepSideRecord: () => undefined,
  sideRecord: () => undefined,
};

/**
 * The merchant was deleted through another process of a shared store: this one forgets it, and the
 * request is answered as for any key that matches no merchant.
 */
export class MerchantGone extends Error {
  constructor(readonly merchantId: string) {
    super(`merchant ${merchantId} no longer exists`);
    this.name = "MerchantGone";
  }
}

/** The work of a change already made in place (a timer fired, an attempt logged): `change(t, DONE)` keeps it. */
export const DONE = (): void => undefined;

/**
 * Keeps changes made outside any request (an attempt logged, a delivery log cut) without waiting: a
 * failure is logged, and the store has undone it. `undefined` in memory, where there is nothing to keep.
 */
export function keepInBackground(store: TenantStore): ((tenant: Tenant) => void) | undefined {
  if (store.kind === "memory") return undefined;
  return (t) => void store.change(t, DONE).catch((err: unknown) => console.error(`[merchant-sandbox] merchant ${t.id}: saving failed:`, err));
}

const HEALTHY: StoreHealth = { ok: true };
const KEPT = Promise.resolve();

/**
 * A store whose merchants no other process changes (memory, a `--data` folder): every merchant is here
 * already and as fresh as it gets, and its traffic lives on the tenant.
 */
export abstract class InProcessTenantStore {
  readonly shared = false;

  resolveKey(): undefined {
    return undefined;
  }

  resolveCheckout(): undefined {
    return undefined;
  }

  fresh(): undefined {
    return undefined;
  }

  readonly logRequest = LOCAL_TRAFFIC.logRequest;
  readonly clearRequestLog = LOCAL_TRAFFIC.clearRequestLog;
  readonly quota = LOCAL_TRAFFIC.quota;
  readonly keepSideRecord = LOCAL_TRAFFIC.keepSideRecord;
  readonly sideRecord = LOCAL_TRAFFIC.sideRecord;
}

/** No `--data`: state lives in the tenants alone, so a change is kept as soon as its work is done. */
export class MemoryTenantStore extends InProcessTenantStore implements TenantStore {
  readonly kind = "memory";

  change<T>(_tenant: Tenant, work: () => T | Promise<T>): Promise<T> {
    // Not async: the work's own promise is handed back as it is, with no extra one around it.
    try {
      return Promise.resolve(work());
    } catch (err) {
      return Promise.reject(err as Error);
    }
  }

  created(): Promise<void> {
    return KEPT;
  }

  removed(): Promise<void> {
    return KEPT;
  }

  health(): StoreHealth {
    return HEALTHY;
  }

  close(): Promise<void> {
    return KEPT;
  }
}
