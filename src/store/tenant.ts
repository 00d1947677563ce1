import type { Catalog } from "../domain/catalog.js";
import type { DomainContext } from "../domain/context.js";
import { Clock } from "../engine/clock.js";
import type { Ids } from "../domain/context.js";
import type { MerchantConfig } from "../domain/records.js";
import type { TenantState } from "../domain/state.js";

/** One merchant's runtime: config, state, its own clock and its own identifier source. */
export interface Tenant {
  readonly id: string;
  config: MerchantConfig;
  state: TenantState;
  readonly clock: Clock;
  readonly ids: Ids;
  /** The shared, read-only product catalogue (banks, VTU products). */
  readonly catalog: Catalog;
  /** Reserves a sandbox-wide identifier for this merchant (see DomainContext.claim). */
  readonly claim: DomainContext["claim"];
}

/** What a domain function needs from a tenant, read once per operation: `now` is fixed for its duration. */
export function contextOf(tenant: Tenant): DomainContext {
  return { now: tenant.clock.now(), ids: tenant.ids, config: tenant.config, catalog: tenant.catalog, claim: tenant.claim };
}
