/**
 * The caps on attempts (limits.ts has their values): the general per-minute request cap and the
 * spec's payout attempt caps, per merchant and per client IP, counted in sliding windows. Each cap
 * counts on one clock, and its `retry_after` is true for that clock: the request cap counts wall-clock
 * time (a suite on a manual clock is never stopped by it for good); the payout caps count on the
 * merchant's clock, so a test can advance past them.
 */
import type { ClockMode } from "./records.js";
import type { DomainContext } from "./context.js";
import { MAX_PAYOUT_ADDRESSES } from "./bounds.js";
import { DomainError } from "./errors.js";
import { HOUR } from "./limits.js";
import type { TenantState } from "./state.js";

/** The clock a cap counts on: a merchant's (its mode and speed), or the wall clock. */
export interface CapClock {
  mode: ClockMode;
  speed: number;
}
const WALL_CLOCK: CapClock = { mode: "realtime", speed: 1 };

/**
 * A window is the list of times of admitted attempts, oldest first; an attempt refused for the limit
 * is not recorded, so `retry_after` is exact. Milliseconds (on the window's clock) until the window
 * admits one more, or 0 when it admits now. Drops expired times.
 */
function waitMs(window: number[], now: number, span: number, cap: number): number {
  while (window.length > 0 && window[0]! <= now - span) window.shift();
  if (cap <= 0 || window.length < cap) return 0;
  return window[window.length - cap]! + span - now;
}

/** waitMs in whole seconds, rounded up (at least 1 while the window is full). */
export function waitFor(window: number[], now: number, span: number, cap: number): number {
  const ms = waitMs(window, now, span, cap);
  return ms === 0 ? 0 : Math.max(1, Math.ceil(ms / 1000));
}

/**
 * Real seconds a realtime clock running at `speed` takes to move `simMs`. The clock moves
 * floor(wall ms × speed) (engine/clock.ts), so the answer is checked against that same sum: float
 * rounding must never make a client that waits exactly this long arrive a millisecond early.
 */
export function realSecondsFor(simMs: number, speed: number): number {
  let seconds = Math.max(1, Math.ceil(simMs / speed / 1000));
  while (Math.floor(seconds * 1000 * speed) < simMs) seconds++;
  return seconds;
}

/**
 * How to tell a client to wait `simMs` on `clock`, in the unit that gets it past the wait: real
 * seconds (and a Retry-After header) for the wall and realtime clocks; on a manual clock no amount of
 * waiting helps, so sim seconds, no header, and a hint naming the advance that does.
 */
export function waitAdvice(simMs: number, clock: CapClock): { hint: string; details: { retry_after: number; retry_after_header?: false } } {
  if (clock.mode === "manual") {
    const seconds = Math.max(1, Math.ceil(simMs / 1000));
    return {
      hint: `This account's clock is manual, so waiting does not help: advance the clock by ${seconds} seconds (POST /sandbox/v1/clock/advance) to get past it.`,
      details: { retry_after: seconds, retry_after_header: false },
    };
  }
  const seconds = realSecondsFor(simMs, clock.speed);
  return { hint: `Retry in ${seconds} s.`, details: { retry_after: seconds } };
}

/** The refusal of a full window, its `retry_after` told by waitAdvice. */
function refusal(code: "RATE_LIMITED" | "IP_RATE_LIMITED", message: string, simMs: number, clock: CapClock): DomainError {
  const { hint, details } = waitAdvice(simMs, clock);
  return new DomainError(code, `${message} ${hint}`, details);
}

/** Admits one attempt at `now` (on `clock`) or throws `code` with `retry_after`; nothing is recorded on refusal. */
export function admit(
  window: number[],
  now: number,
  span: number,
  cap: number,
  code: "RATE_LIMITED" | "IP_RATE_LIMITED",
  message: string,
  clock: CapClock = WALL_CLOCK,
): void {
  const wait = waitMs(window, now, span, cap);
  if (wait > 0) throw refusal(code, message, wait, clock);
  if (cap > 0) window.push(now);
}

/**
 * Windows per client address, kept least recently admitted first (a Map keeps the order its keys were
 * set in): an address admitted again moves to the back (keepAddress). So the addresses whose windows
 * have emptied are all at the front, and past a cap the least recent go: a client that claims ever new
 * addresses (X-Forwarded-For, behind --trust-proxy) costs bounded memory and no scan of them all.
 */
export function forgetIdleAddresses(windows: Map<string, number[]>, now: number, span: number): void {
  for (const [address, times] of windows) {
    if (times.length > 0 && times[times.length - 1]! > now - span) return;
    windows.delete(address);
  }
}

/** `address` was just admitted (its window holds the time): to the back, then the least recent past `max` go. */
export function keepAddress(windows: Map<string, number[]>, address: string, window: number[], max: number): void {
  windows.delete(address);
  if (window.length === 0) return;
  windows.set(address, window);
  for (const oldest of windows.keys()) {
    if (windows.size <= max) return;
    windows.delete(oldest);
  }
}

/**
 * Counts one payout attempt against the per-IP cap (the spec's 20 per hour, counted per merchant
 * and IP) and the merchant's hourly cap, on the merchant's clock (`clock`: its live mode and speed).
 * Runs before validation: refused attempts count, as the spec says. An attempt refused by the
 * account cap takes its IP count back. At most MAX_PAYOUT_ADDRESSES addresses are counted at once.
 */
export function admitPayoutAttempt(ctx: DomainContext, state: TenantState, clientIp: string, clock: CapClock): void {
  const { limits } = ctx.config;
  const w = state.windows;
  forgetIdleAddresses(w.payoutAttemptsByIp, ctx.now, HOUR);
  const byIp = w.payoutAttemptsByIp.get(clientIp) ?? [];
  // Refused here, nothing is recorded and the address keeps its place.
  admit(byIp, ctx.now, HOUR, limits.payout_attempts_per_ip_per_hour, "IP_RATE_LIMITED",
    `Too many payout attempts from ${clientIp}: at most ${limits.payout_attempts_per_ip_per_hour} per hour.`, clock);
  try {
    admit(w.payoutAttempts, ctx.now, HOUR, limits.payout_attempts_per_hour, "RATE_LIMITED",
      `Too many payout attempts: at most ${limits.payout_attempts_per_hour} per hour for this account.`, clock);
  } catch (err) {
    if (limits.payout_attempts_per_ip_per_hour > 0) byIp.pop();
    if (byIp.length === 0) w.payoutAttemptsByIp.delete(clientIp);
    throw err;
  }
  keepAddress(w.payoutAttemptsByIp, clientIp, byIp, MAX_PAYOUT_ADDRESSES);
}
