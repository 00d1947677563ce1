/**
 * Sliding-window rate limits over the merchant's clock. A window is the list of times of admitted
 * attempts, oldest first; an attempt refused for the limit is not recorded, so `retry_after` is exact.
 */
import { DomainError } from "./errors.js";

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** Seconds until the window admits one more, or 0 when it admits now. Drops expired times. */
export function waitFor(window: number[], now: number, span: number, cap: number): number {
  while (window.length > 0 && window[0]! <= now - span) window.shift();
  if (cap <= 0 || window.length < cap) return 0;
  return Math.max(1, Math.ceil((window[window.length - cap]! + span - now) / 1000));
}

/** Admits one attempt or throws `code` with `retry_after`; nothing is recorded on refusal. */
export function admit(
  window: number[],
  now: number,
  span: number,
  cap: number,
  code: "RATE_LIMITED" | "IP_RATE_LIMITED",
  message: string,
): void {
  const wait = waitFor(window, now, span, cap);
  if (wait > 0) throw new DomainError(code, message, { retry_after: wait });
  if (cap > 0) window.push(now);
}
