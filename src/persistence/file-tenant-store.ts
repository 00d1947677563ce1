/**
 * `--data DIR`: the tenant store over the folder store (store/file-store.ts). A change is saved after
 * its work, and the response waits for the save. A save that fails is undone: the merchant goes back
 * to its last good files (its realtime wake-up re-armed), or out of the registry if it never had any.
 */
import type { Snapshot } from "../domain/snapshot.js";
import type { ClockDriver } from "../engine/clock-driver.js";
import type { Registry } from "../engine/registry.js";
import { InProcessTenantStore, type StoreHealth, type TenantStore } from "../engine/tenant-store.js";
import { liveOf, snapshotOf, type Tenant } from "../engine/tenant.js";
import { FileStore, type FileStoreOptions, type StoreIO } from "../store/file-store.js";

export class FileTenantStore extends InProcessTenantStore implements TenantStore {
  readonly kind = "file";
  readonly files: FileStore;
  private driver: Pick<ClockDriver, "arm" | "stop"> | undefined;

  /** `io` alone (tests) or the folder store's options. */
  constructor(
    dir: string,
    private readonly registry: Registry,
    io?: StoreIO | Omit<FileStoreOptions, "revert">,
  ) {
    super();
    const options = io && "write" in io ? { io } : (io ?? {});
    this.files = new FileStore(dir, { ...options, revert: (merchantId, saved) => this.revert(merchantId, saved) });
  }

  /** The clock driver, once the runtime exists (it saves through this store): an undone save re-arms it. */
  attach(driver: Pick<ClockDriver, "arm" | "stop">): void {
    this.driver = driver;
  }

  /** The merchants saved in the folder, each taken as written so that its next save appends only what changed. */
  async restore(): Promise<Tenant[]> {
    const tenants: Tenant[] = [];
    for (const snapshot of await this.files.loadAll()) {
      const tenant = this.registry.restore(snapshot);
      this.files.adopt(tenant.id, () => liveOf(tenant));
      tenants.push(tenant);
    }
    return tenants;
  }

  async change<T>(tenant: Tenant, work: () => T | Promise<T>): Promise<T> {
    const result = await work();
    if (this.registry.get(tenant.id) === tenant) await this.save(tenant);
    return result;
  }

  async created(tenants: Tenant[]): Promise<void> {
    await Promise.all(tenants.map((t) => this.save(t)));
  }

  removed(tenant: Tenant): Promise<void> {
    return this.files.remove(tenant.id);
  }

  health(): StoreHealth {
    return this.files.health();
  }

  close(): Promise<void> {
    return this.files.close();
  }

  private save(t: Tenant): Promise<void> {
    return this.files.persist(t.id, () => snapshotOf(t), () => liveOf(t));
  }

  private revert(merchantId: string, saved: Snapshot | null): void {
    const t = this.registry.get(merchantId);
    if (!t) return;
    if (saved) {
      this.registry.reload(t, saved);
      this.driver?.arm(t);
    } else {
      this.registry.remove(t);
      this.driver?.stop(t);
    }
  }
}
