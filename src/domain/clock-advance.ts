/** Where a clock advance may go: never back, at most MAX_ADVANCE_YEARS per call, never past MAX_CLOCK. */
import { MAX_CLOCK } from "./bounds.js";
import { durationMs } from "./duration.js";
import { fieldError } from "./errors.js";

/** One advance moves the clock at most this far. */
export const MAX_ADVANCE_YEARS = 10;
export const MAX_ADVANCE_MS = MAX_ADVANCE_YEARS * 365 * 86_400_000;
export const CLOCK_END = new Date(MAX_CLOCK).toISOString();
export const TOO_FAR = `At most ${MAX_ADVANCE_YEARS} years at a time.`;
export const BACKWARDS = "The clock never goes backwards: give a time at or after the current sim time.";

/** An advance as asked: a time to go to, a duration ("30s", "2h"), or seconds. */
export interface AdvanceRequest {
  to?: string;
  by?: string;
  seconds?: number;
}

const pastTheEnd = (field: string) => fieldError(field, `The clock cannot go past ${CLOCK_END}.`);

/** Target time of an advance, in ms since epoch, from the clock's `now`. */
export function advanceTarget(now: number, req: AdvanceRequest): number {
  if (req.to !== undefined) {
    const to = Date.parse(req.to);
    if (to < now) throw fieldError("to", BACKWARDS);
    if (to > MAX_CLOCK) throw pastTheEnd("to");
    return to;
  }
  const field = req.by !== undefined ? "by" : "seconds";
  const ms = req.by !== undefined ? durationMs(req.by) : (req.seconds ?? 0) * 1000;
  if (ms > MAX_ADVANCE_MS) throw fieldError(field, TOO_FAR);
  if (now + ms > MAX_CLOCK) throw pastTheEnd(field);
  return now + Math.round(ms);
}
