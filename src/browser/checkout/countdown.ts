/**
 * The live countdown to the link's expiry, on the merchant's clock: a manual clock stands still until
 * advanced (each poll brings its time), a realtime one runs at its speed between polls.
 */
import { setText } from "./dom.js";
import type { LinkState } from "./link-state.js";

export class Countdown {
  #remaining = 0;
  #syncedAt = 0;
  #mode: LinkState["clock_mode"] = "manual";
  #speed = 1;

  /** Takes the clock from a state the server sent. */
  sync(state: LinkState, wallNow: number): void {
    this.#remaining = Date.parse(state.expires_at) - Date.parse(state.now);
    this.#syncedAt = wallNow;
    this.#mode = state.clock_mode;
    this.#speed = state.clock_speed;
    // The note is the server's (pending view only); the script only says when it applies.
    const note = document.getElementById("clock-note");
    if (note) note.hidden = this.#mode !== "manual";
  }

  /** Milliseconds left at wall time `wallNow`, never below zero. */
  left(wallNow: number): number {
    const run = this.#mode === "realtime" ? (wallNow - this.#syncedAt) * this.#speed : 0;
    return Math.max(0, this.#remaining - run);
  }

  /** Shows the time left in #countdown (only the pending view has one); returns the milliseconds left. */
  render(wallNow: number): number {
    const left = this.left(wallNow);
    const el = document.getElementById("countdown");
    if (el) setText(el, mmss(left));
    return left;
  }
}

const mmss = (ms: number): string => {
  const s = Math.floor(ms / 1000);
  return `${String(Math.floor(s / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
};
