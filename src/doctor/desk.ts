/**
 * The doctor runs the sandbox makes for its merchants (the control route, the dashboard's button):
 * one at a time per merchant, a few per minute of wall-clock time (a run is a dozen requests to a
 * URL the merchant chose, and sign-up is open), and each merchant's last scorecard, for the
 * dashboard. Traffic, not merchant state: never saved, gone after a restart, like the request log;
 * a shared store keeps the scorecard where every process reads it back (a side record).
 */
import type { Scorecard } from "./run.js";

/** A merchant, as far as the desk needs one. */
type Merchant = { readonly id: string };

/** Where a shared store keeps the scorecards (TenantStore's side records, the same calls). */
export interface ScorecardStore {
  keepSideRecord(merchant: Merchant, name: "doctor_scorecard", value: Scorecard): Promise<void> | undefined;
  sideRecord(merchant: Merchant, name: "doctor_scorecard"): unknown;
}

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

/** `done` resolves once the scorecard is kept where every process reads it (at once, undefined, when that is here). */
export type Admission =
  | { admitted: true; done: (card: Scorecard | null) => Promise<void> | undefined }
  | { admitted: false; busy: true }
  | { admitted: false; busy: false; retryAfter: number };

export class DoctorDesk {
  private readonly running = new WeakSet<object>();
  private readonly rate: PerMerchantRate;
  private readonly cards = new WeakMap<object, Scorecard>();

  /** `now`: the wall clock (the registry's, so tests move it by hand); `store`: where a shared store keeps scorecards. */
  constructor(
    now: () => number = Date.now,
    private readonly store?: ScorecardStore,
  ) {
    this.rate = new PerMerchantRate(DOCTOR_RUNS_PER_MINUTE, now);
  }

  /** Lets a run of `merchant` start, or says why not; the caller hands `done` the scorecard (or null) when it ends. */
  admit(merchant: Merchant): Admission {
    if (this.running.has(merchant)) return { admitted: false, busy: true };
    const retryAfter = this.rate.take(merchant);
    if (retryAfter !== null) return { admitted: false, busy: false, retryAfter };
    this.running.add(merchant);
    return {
      admitted: true,
      done: (card) => {
        this.running.delete(merchant);
        if (!card) return undefined;
        this.cards.set(merchant, card);
        return this.store
          ?.keepSideRecord(merchant, "doctor_scorecard", card)
          ?.catch((err: unknown) => console.error(`[merchant-sandbox] merchant ${merchant.id}: keeping the doctor's scorecard failed:`, err));
      },
    };
  }

  isRunning(merchant: object): boolean {
    return this.running.has(merchant);
  }

  /** The merchant's last scorecard, if it ran the doctor since the sandbox started (a shared store's copy first: any process's run). */
  last(merchant: Merchant): Scorecard | undefined {
    return (this.store?.sideRecord(merchant, "doctor_scorecard") as Scorecard | undefined) ?? this.cards.get(merchant);
  }
}
