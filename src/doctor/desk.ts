/**
 * The doctor runs the sandbox makes for its merchants (the control route, the dashboard's button):
 * one at a time per merchant, a few per minute of wall-clock time (a run is a dozen requests to a
 * URL the merchant chose, and sign-up is open), and each merchant's last scorecard, for the
 * dashboard. Traffic, not merchant state: never saved, gone after a restart, like the request log.
 */
import type { Scorecard } from "./run.js";

/** Runs a merchant may start per rolling minute of wall-clock time. */
export const DOCTOR_RUNS_PER_MINUTE = 6;
const MINUTE = 60_000;

export type Admission = { admitted: true; done: (card: Scorecard | null) => void } | { admitted: false; busy: true } | { admitted: false; busy: false; retryAfter: number };

export class DoctorDesk {
  private readonly running = new WeakSet<object>();
  private readonly starts = new WeakMap<object, number[]>();
  private readonly cards = new WeakMap<object, Scorecard>();

  /** `now`: the wall clock (the registry's, so tests move it by hand). */
  constructor(private readonly now: () => number = Date.now) {}

  /** Lets a run of `merchant` start, or says why not; the caller hands `done` the scorecard (or null) when it ends. */
  admit(merchant: object): Admission {
    if (this.running.has(merchant)) return { admitted: false, busy: true };
    const t = this.now();
    const starts = (this.starts.get(merchant) ?? []).filter((at) => at > t - MINUTE);
    this.starts.set(merchant, starts);
    if (starts.length >= DOCTOR_RUNS_PER_MINUTE) {
      return { admitted: false, busy: false, retryAfter: Math.max(1, Math.ceil((starts[0]! + MINUTE - t) / 1000)) };
    }
    starts.push(t);
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
