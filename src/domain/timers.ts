/**
 * Timers as data: `{ at, seq, kind, merchantId, ref }` in a binary min-heap ordered by (at, seq), kept
 * in the tenant's state so it can be persisted and restored. `seq` breaks ties in scheduling order.
 * What a timer does is decided when it fires (timer-dispatch.ts), from the record it names.
 */
import { MAX_CLOCK } from "./bounds.js";
import type { Timer, TimerKind } from "./records.js";
import type { TenantState } from "./state.js";
import type { DomainContext } from "./context.js";
import { timerChanged } from "./changes.js";

export type { Timer, TimerKind } from "./records.js";

const before = (a: Timer, b: Timer) => a.at < b.at || (a.at === b.at && a.seq < b.seq);

export function schedule(ctx: DomainContext, state: TenantState, at: number, kind: TimerKind, ref: string): Timer {
  const timer: Timer = { at, seq: ++state.sequences.timer, kind, merchantId: ctx.config.merchant_id, ref };
  const heap = state.timers;
  heap.push(timer);
  timerChanged(state, timer.seq, timer);
  let i = heap.length - 1;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (!before(heap[i]!, heap[parent]!)) break;
    [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
    i = parent;
  }
  return timer;
}

export function nextTimer(state: TenantState): Timer | undefined {
  return state.timers[0];
}

/**
 * Whether a timer can still fall due. The clock stops at MAX_CLOCK, so a timer after it (a delay
 * started near the end of the range) stays pending for good: kept, so the record it names stays as
 * it is until a lever moves it, but never woken for.
 */
export function canFire(timer: Timer): boolean {
  return timer.at <= MAX_CLOCK;
}

/** Removes and returns the earliest timer due at or before `upTo`. */
export function popDue(state: TenantState, upTo: number): Timer | undefined {
  const heap = state.timers;
  const top = heap[0];
  if (!top || top.at > upTo) return undefined;
  const last = heap.pop()!;
  timerChanged(state, top.seq, null);
  if (heap.length > 0) {
    heap[0] = last;
    siftDown(heap, 0);
  }
  return top;
}

/** Drops the timers of one record (a forced transition made them moot). O(n), and rare. */
export function cancelTimers(state: TenantState, kind: TimerKind, ref: string): void {
  const kept = state.timers.filter((t) => !(t.kind === kind && t.ref === ref));
  if (kept.length === state.timers.length) return;
  for (const t of state.timers) if (t.kind === kind && t.ref === ref) timerChanged(state, t.seq, null);
  state.timers.length = 0;
  for (const t of kept) state.timers.push(t);
  for (let i = (state.timers.length >> 1) - 1; i >= 0; i--) siftDown(state.timers, i);
}

function siftDown(heap: Timer[], i: number): void {
  for (;;) {
    const l = 2 * i + 1;
    const r = l + 1;
    let m = i;
    if (l < heap.length && before(heap[l]!, heap[m]!)) m = l;
    if (r < heap.length && before(heap[r]!, heap[m]!)) m = r;
    if (m === i) return;
    [heap[i], heap[m]] = [heap[m]!, heap[i]!];
    i = m;
  }
}
