/**
 * The caps on attempts (limits.ts has their values): the general per-minute request cap and the
 * spec's payout attempt caps, per merchant and per client IP, counted in sliding windows.
 */
import type { DomainContext } from "./context.js";
import { DomainError } from "./errors.js";
import { HOUR } from "./limits.js";
import type { TenantState } from "./state.js";

/**
 * A window is the list of times of admitted attempts, oldest first; an attempt refused for the limit
 * is not recorded, so `retry_after` is exact. Seconds until the window admits one more, or 0 when it
 * admits now. Drops expired times.
 */
export function waitFor(window: number[], now: number, span: number, cap: number): number {
  while (window.length > 0 && window[0]! <= now - span) window.shift();
  if (cap <= 0 || window.length < cap) return 0;
  return Math.max(1, Math.ceil((window[window.length - cap]! + span - now) / 1000));
}

/** Admits one attempt or throws `code` with `retry_after`; nothing is recorded on refusal. */
export function admit(window: number[], now: number, span: number, cap: number, code: "RATE_LIMITED" | "IP_RATE_LIMITED", message: string): void {
  const wait = waitFor(window, now, span, cap);
  if (wait > 0) throw new DomainError(code, message, { retry_after: wait });
  if (cap > 0) window.push(now);
}

/**
 * Counts one payout attempt against the per-IP cap (the spec's 20 per hour, counted per merchant
 * and IP) and the merchant's hourly cap, on the merchant's clock. Runs before validation: refused
 * attempts count, as the spec says. An attempt refused by the account cap takes its IP count back.
 */
export function admitPayoutAttempt(ctx: DomainContext, state: TenantState, clientIp: string): void {
  const { limits } = ctx.config;
  const w = state.windows;
  const byIp = w.payoutAttemptsByIp.get(clientIp) ?? [];
  admit(byIp, ctx.now, HOUR, limits.payout_attempts_per_ip_per_hour, "IP_RATE_LIMITED",
    `Too many payout attempts from ${clientIp}: at most ${limits.payout_attempts_per_ip_per_hour} per hour.`);
  try {
    admit(w.payoutAttempts, ctx.now, HOUR, limits.payout_attempts_per_hour, "RATE_LIMITED",
      `Too many payout attempts: at most ${limits.payout_attempts_per_hour} per hour for this account.`);
  } catch (err) {
    if (limits.payout_attempts_per_ip_per_hour > 0) byIp.pop();
    throw err;
  } finally {
    // Only addresses with attempts in the last hour are kept, so the map does not grow with every IP seen.
    if (byIp.length > 0) w.payoutAttemptsByIp.set(clientIp, byIp);
    else w.payoutAttemptsByIp.delete(clientIp);
    if (w.payoutAttemptsByIp.size > 1_000) {
      for (const [ip, times] of w.payoutAttemptsByIp) if (waitFor(times, ctx.now, HOUR, 1) === 0 && times.length === 0) w.payoutAttemptsByIp.delete(ip);
    }
  }
}
