/**
 * What each timer kind does when it fires. `ctx.now` is the timer's own time, so every timestamp a
 * settlement writes is the moment it was due, however late the clock got there.
 */
import type { TenantState } from "./state.js";
import { approveKycByPlan } from "./cards.js";
import type { DomainContext } from "./context.js";
import { settlePayout } from "./payouts.js";
import { runTimelineEntry } from "./timeline.js";
import type { Timer } from "./timers.js";
import { settleVtuByPlan } from "./vtu.js";

export function fireTimer(ctx: DomainContext, state: TenantState, timer: Timer): void {
  switch (timer.kind) {
    case "payout.settle":
      settlePayout(ctx, state, timer.ref);
      return;
    case "vtu.settle":
      settleVtuByPlan(ctx, state, timer.ref);
      return;
    case "kyc.approve":
      approveKycByPlan(state, Number(timer.ref));
      return;
    case "timeline.run":
      runTimelineEntry(ctx, state, Number(timer.ref));
      return;
    case "webhook.attempt":
      return; // delivered by the webhook dispatcher, which does the HTTP
  }
}
