/**
 * A merchant's own clock. `manual`: time moves only when told (tests, scenarios). `realtime`: sim
 * time follows the wall clock from an anchor, scaled by `speed` (demos). The wall clock is injected,
 * so tests drive realtime mode without sleeping. Time never goes backwards.
 * Timers and `advance` that runs them arrive with the lifecycle work; windows and timestamps already
 * read `now()` from here.
 */
import { MAX_CLOCK } from "../domain/bounds.js";
import type { ClockMode, ClockSettings } from "../domain/records.js";

export type { ClockMode, ClockSettings };


export class Clock {
  private mode: ClockMode;
  private speed: number;
  private anchorSim: number;
  private anchorWall: number;
  private changes = 0;

  constructor(settings: ClockSettings, private readonly wall: () => number) {
    this.mode = settings.mode;
    this.speed = settings.speed;
    this.anchorWall = wall();
    this.anchorSim = settings.now ?? this.anchorWall;
  }

  now(): number {
    if (this.mode === "manual") return this.anchorSim;
    // A fast realtime clock left running stops at the end of the range (dates past it cannot be shown).
    return Math.min(MAX_CLOCK, this.anchorSim + Math.floor((this.wall() - this.anchorWall) * this.speed));
  }

  /** Counts the times the clock was moved, or its mode or speed changed: a wake-up computed before is stale. */
  get revision(): number {
    return this.changes;
  }

  settings(): ClockSettings {
    return { mode: this.mode, speed: this.speed, now: this.now() };
  }

  /** Changes mode or speed from the current instant; a `now` earlier than the current time is refused. */
  configure(next: Partial<ClockSettings>): void {
    const current = this.now();
    if (next.now !== undefined && next.now < current) throw new RangeError("the clock never goes backwards");
    this.anchorSim = next.now ?? current;
    this.anchorWall = this.wall();
    if (next.mode) this.mode = next.mode;
    if (next.speed !== undefined) this.speed = next.speed;
    this.changes += 1;
  }

  /** Puts the clock at a saved setting, earlier times included: only for restoring a whole snapshot. */
  restore(settings: ClockSettings): void {
    this.mode = settings.mode;
    this.speed = settings.speed;
    this.anchorSim = settings.now ?? this.wall();
    this.anchorWall = this.wall();
    this.changes += 1;
  }

  /**
   * Puts the clock where another process left it: `settings.now` was its time at the wall instant
   * `wallAt` (that process's wall clock, read no later than the clock), so a realtime clock has run
   * on since, at its speed.
   */
  restoreAt(settings: ClockSettings, wallAt: number): void {
    this.mode = settings.mode;
    this.speed = settings.speed;
    this.anchorSim = settings.now ?? wallAt;
    // Never before the time it was kept at, even when this process's wall clock is behind the other's:
    // records made from here on must not come before those already made.
    this.anchorWall = Math.min(wallAt, this.wall());
    this.changes += 1;
  }

  /** Moves a clock forward by `ms` (both modes: realtime keeps running from the new point). */
  advanceBy(ms: number): number {
    if (!(ms >= 0)) throw new RangeError("the clock never goes backwards");
    this.configure({ now: this.now() + ms });
    return this.now();
  }
}
