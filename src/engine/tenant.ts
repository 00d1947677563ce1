import type { Catalog } from "../domain/catalog.js";
import type { DomainContext } from "../domain/context.js";
import { Clock } from "./clock.js";
import type { DeliveryLogBytes } from "./log-budget.js";
import type { Ids } from "../domain/context.js";
import type { ClockSettings, MerchantConfig } from "../domain/records.js";
import { toSnapshot, type Snapshot } from "../domain/snapshot.js";
import type { RequestLog } from "../domain/request-log.js";
import type { CreditReport } from "../domain/checks.js";
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
  /**
   * Wall-clock times of the requests admitted in the last minute (the general request cap). Traffic
   * to this process, not merchant state: never saved, kept across reset and snapshot PUT, empty after
   * a restart (see README "Sandbox choices").
   */
  readonly requestTimes: number[];
  /** Its /api/v1 requests and their answers (domain/request-log.ts): traffic too, kept like requestTimes. */
  readonly requestLog: RequestLog;
  /** Its webhook delivery log (`state.deliveries`) as the sandbox-wide log budget counts it: told of every delivery logged. */
  readonly deliveryLogBytes: DeliveryLogBytes;
  /** The payments the merchant says it credited (PUT /sandbox/v1/checks/credits), for the integration checks: kept like the log. */
  creditReport: CreditReport | null;
}

/** The merchant as one document (a `--data` file, GET /sandbox/v1/snapshot). */
export function snapshotOf(tenant: Tenant): Snapshot {
  return toSnapshot(tenant.config, tenant.clock.settings(), tenant.state);
}

/** The merchant's parts, live (not copied): what the `--data` store diffs against what it last wrote. */
export function liveOf(tenant: Tenant): { config: MerchantConfig; clock: ClockSettings; state: TenantState } {
  return { config: tenant.config, clock: tenant.clock.settings(), state: tenant.state };
}

/** What a domain function needs from a tenant, read once per operation: `now` is fixed for its duration. */
export function contextOf(tenant: Tenant): DomainContext {
  const { mode, speed } = tenant.clock.settings();
  return { now: tenant.clock.now(), ids: tenant.ids, config: tenant.config, catalog: tenant.catalog, claim: tenant.claim, clock: { mode, speed } };
}
