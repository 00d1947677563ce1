/**
 * The doctor runs the sandbox makes for its merchants (the control route, the dashboard's button):
 * one at a time per merchant, a few per minute of wall-clock time (a run is a dozen requests to a
 * URL the merchant chose, and sign-up is open), and each merchant's last scorecard, for the
 * dashboard. Traffic, not merchant state: never saved, gone after a restart, like the request log.
 */
import type { Scorecard } from "./run.js";

/** Runs a merchant may start per rolling minute of wall-clock time. */
export const DOCTOR_RUNS_PER_MINUTE = 6;

/** The refusal once a merchant has spent its runs for the minute. */
export const doctorQuotaMessage = (retryAfter: number) => `At most ${DOCTOR_RUNS_PER_MINUTE} webhook doctor runs per minute for one merchant; retry in ${retryAfter} s.`;
const MINUTE = 60_000;

/**
 * At most `perMinute` starts per merchant per rolling minute of wall-clock time (the doctor's runs,
 * test events): work that sends requests to a URL the merchant chose, where sign-up is open.
 */
export class PerMerchantRate {
  private readonly starts = new WeakMap<object, number[]>();

  constructor(
    readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts a start of `merchant` and returns null, or returns the seconds until one is allowed (nothing counted). */
  take(merchant: object): number | null {
    const t = this.now();
    const starts = (this.starts.get(merchant) ?? []).filter((at) => at > t - MINUTE);
    this.starts.set(merchant, starts);
    if (starts.length >= this.perMinute) return Math.max(1, Math.ceil((starts[0]! + MINUTE - t) / 1000));
    starts.push(t);
    return null;
  }
}

export type Admission = { admitted: true; done: (card: Scorecard | null) => void } | { admitted: false; busy: true } | { admitted: false; busy: false; retryAfter: number };

export class DoctorDesk {
  private readonly running = new WeakSet<object>();
  private readonly rate: PerMerchantRate;
  private readonly cards = new WeakMap<object, Scorecard>();

  /** `now`: the wall clock (the registry's, so tests move it by hand). */
  constructor(now: () => number = Date.now) {
    this.rate = new PerMerchantRate(DOCTOR_RUNS_PER_MINUTE, now);
  }

  /** Lets a run of `merchant` start, or says why not; the caller hands `done` the scorecard (or null) when it ends. */
  admit(merchant: object): Admission {
    if (this.running.has(merchant)) return { admitted: false, busy: true };
    const retryAfter = this.rate.take(merchant);
    if (retryAfter !== null) return { admitted: false, busy: false, retryAfter };
    this.running.add(merchant);
    return {
      admitted: true,
      done: (card) => {
        this.running.delete(merchant);
        if (card) this.cards.set(merchant, card);
      },
    };
  }

  isRunning(merchant: object): boolean {
    return this.running.has(merchant);
  }

  /** The merchant's last scorecard, if it ran the doctor since the sandbox started. */
  last(merchant: object): Scorecard | undefined {
    return this.cards.get(merchant);
  }
}
