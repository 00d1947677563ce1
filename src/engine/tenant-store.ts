/**
 * Where merchants' state is kept, as the pipeline, the pages and the clock driver see it: every change
 * to a merchant goes through `change`, which resolves once the change is kept, and every read may first
 * ask for the merchant as the store has it (`fresh`). In memory (no `--data`) there is nothing to keep;
 * the folder store (persistence/file-tenant-store.ts) saves after the work. The interface is in terms
 * of tenants, so http/, webhooks/ and engine/ never see how a store keeps them.
 */
import type { Tenant } from "./tenant.js";

export type StoreHealth = { ok: true } | { ok: false; error: string; since: string };

export interface TenantStore {
  readonly kind: "memory" | "file";
  /**
   * Whether other processes change the same merchants. When not, a change's work runs at once and in
   * place, so background work (webhook attempts) may make it and keep it afterwards.
   */
  readonly shared: boolean;
  /**
   * Before a read: brings the merchant up to what the store holds. `undefined` when there is nothing
   * to wait for (memory and folder stores, always), so a read costs no await.
   */
  fresh(tenant: Tenant): Promise<void> | undefined;
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

/** No `--data`: state lives in the tenants alone, so a change is kept as soon as its work is done. */
export class MemoryTenantStore implements TenantStore {
  readonly kind = "memory";
  readonly shared = false;

  fresh(): undefined {
    return undefined;
  }

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
