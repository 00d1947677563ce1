/**
 * Webhook attempts of a shared store survive the process that started them: the plan of an attempt
 * is kept with a lease before it is sent, and the lease goes with its record. An attempt whose lease
 * ran out (its process died, or lost the database, while it was in flight) is sent again, the very
 * same request, by whichever process takes it over: at least once.
 */
import type { PlannedAttempt } from "../domain/webhook-policy.js";
import type { Tenant } from "./tenant.js";

export interface AttemptLeases {
  /** Inside the plan's change: keeps the plan, leased to this process for `ms`. */
  take(tenant: Tenant, attempt: PlannedAttempt, ms: number): Promise<void>;
  /** Inside the record's change: gives the lease back; false when another process took the attempt over (it records it). */
  release(tenant: Tenant, attemptId: string): Promise<boolean>;
}

/** Beyond an attempt's own timeout, how long its lease lasts: the time to record its answer. */
export const LEASE_MARGIN_MS = 5_000;
