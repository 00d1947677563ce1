/**
 * What each timer kind does when it falls due: one entry point per kind, each named `...WhenDue`,
 * each a no-op when a forced transition got there first. `ctx.now` is the timer's own time, so every
 * timestamp a settlement writes is the moment it was due, however late the clock got there.
 * `webhook.attempt` timers are the webhook dispatcher's (they do I/O): the engine hands them over.
 */
import { approveKycWhenDue } from "./cards.js";
import type { DomainContext } from "./context.js";
import { settlePayoutWhenDue } from "./payouts.js";
import type { Timer, TimerKind } from "./records.js";
import type { TenantState } from "./state.js";
import { runTimelineEntryWhenDue } from "./timeline.js";
import { settleVaPaymentWhenDue } from "./va-payments.js";
import { settleVtuWhenDue } from "./vtu.js";

export type DomainTimerKind = Exclude<TimerKind, "webhook.attempt">;

const WHEN_DUE: Record<DomainTimerKind, (ctx: DomainContext, state: TenantState, ref: string) => unknown> = {
  "payout.settle": (ctx, state, ref) => settlePayoutWhenDue(ctx, state, ref),
  "vtu.settle": (ctx, state, ref) => settleVtuWhenDue(ctx, state, ref),
  "kyc.approve": (_ctx, state, ref) => approveKycWhenDue(state, Number(ref)),
  "timeline.run": (ctx, state, ref) => runTimelineEntryWhenDue(ctx, state, Number(ref)),
  "va_payment.settle": (ctx, state, ref) => settleVaPaymentWhenDue(ctx, state, ref),
};

export function isDomainTimer(timer: Timer): timer is Timer & { kind: DomainTimerKind } {
  return timer.kind !== "webhook.attempt";
}

export function fireTimer(ctx: DomainContext, state: TenantState, timer: Timer & { kind: DomainTimerKind }): void {
  WHEN_DUE[timer.kind](ctx, state, timer.ref);
}
