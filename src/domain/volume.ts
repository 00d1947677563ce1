/**
 * Payout volume over the rolling hour and day, kept as running sums over a time-ordered list (the
 * merchant's clock never goes back), so checking a limit costs O(1) amortised instead of a scan of
 * every recent payout. A failed payout gives its amount back to both windows.
 */
import type { Minor } from "./money.js";
import type { VolumeWindow } from "./records.js";
import { DomainError } from "./errors.js";
import { DAY, HOUR } from "./limits.js";
import { toMajor } from "./money.js";

export type { VolumeWindow } from "./records.js";

export const emptyVolume = (): VolumeWindow => ({ entries: [], dayStart: 0, hourStart: 0, daySum: 0, hourSum: 0 });

function slide(w: VolumeWindow, now: number): void {
  const { entries } = w;
  while (w.dayStart < entries.length && entries[w.dayStart]!.at <= now - DAY) {
    const e = entries[w.dayStart++]!;
    if (e.counted) w.daySum -= e.amount;
  }
  // No jump of hourStart to dayStart: the entries between them are older than a day, so older than
  // an hour, and the loop below takes each out of hourSum (skipping them left their amounts counted).
  while (w.hourStart < entries.length && entries[w.hourStart]!.at <= now - HOUR) {
    const e = entries[w.hourStart++]!;
    if (e.counted) w.hourSum -= e.amount;
  }
  // Drop what has left the day window once it is most of the list (amortised O(1)).
  if (w.dayStart > 1024 && w.dayStart * 2 > entries.length) {
    entries.splice(0, w.dayStart);
    w.hourStart -= w.dayStart;
    w.dayStart = 0;
  }
}

export function volumeUsed(w: VolumeWindow, now: number): { hour: Minor; day: Minor } {
  slide(w, now);
  return { hour: w.hourSum, day: w.daySum };
}

export function recordVolume(w: VolumeWindow, now: number, reference: string, amount: Minor): void {
  slide(w, now);
  w.entries.push({ at: now, reference, amount, counted: true });
  w.daySum += amount;
  w.hourSum += amount;
}

/**
 * A failed payout no longer counts toward either window (searched from the newest: failures are recent).
 * True when an entry was replaced (the `--data` store must be told: domain/changes.ts `listEdited`).
 */
export function releaseVolume(w: VolumeWindow, reference: string): boolean {
  for (let i = w.entries.length - 1; i >= w.dayStart; i--) {
    const e = w.entries[i]!;
    if (e.reference !== reference) continue;
    if (e.counted) {
      // A new entry (the `--data` store compares entries by identity), and the caller marks the list edited.
      w.entries[i] = { ...e, counted: false };
      w.daySum -= e.amount;
      if (i >= w.hourStart) w.hourSum -= e.amount;
      return true;
    }
    return false;
  }
  return false;
}

/** Refuses a payout that would take the rolling hour or day over its limit (failed payouts do not count). */
export function assertVolume(w: VolumeWindow, now: number, amount: Minor, limits: { payout_hourly_amount: Minor; payout_daily_amount: Minor }): void {
  const used = volumeUsed(w, now);
  for (const [label, code, cap, spent] of [
    ["hourly", "HOURLY_LIMIT_EXCEEDED", limits.payout_hourly_amount, used.hour],
    ["daily", "DAILY_LIMIT_EXCEEDED", limits.payout_daily_amount, used.day],
  ] as const) {
    if (spent + amount > cap) {
      throw new DomainError(code, `This payout would exceed the ${label} payout limit of NGN ${toMajor(cap).toFixed(2)} (NGN ${toMajor(spent).toFixed(2)} used).`);
    }
  }
}
