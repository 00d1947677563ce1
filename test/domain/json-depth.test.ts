import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH } from "../../src/domain/bounds.js";
import { nestsDeeperThan } from "../../src/domain/json-depth.js";
import { toSnapshot } from "../../src/domain/snapshot.js";
import { busyMerchant } from "./context.js";

/** The depth of the deepest object or array in `value` (0 for a primitive). */
const depthOf = (value: unknown) => {
  let max = 0;
  while (nestsDeeperThan(value, max)) max++;
  return max;
};

describe("nestsDeeperThan", () => {
  it("counts objects and arrays, not primitives", () => {
    expect([nestsDeeperThan("x", 0), nestsDeeperThan(null, 0), nestsDeeperThan(7, 0)]).toEqual([false, false, false]);
    expect([nestsDeeperThan({}, 0), nestsDeeperThan({}, 1)]).toEqual([true, false]);
    expect([nestsDeeperThan({ a: [{ b: 1 }] }, 2), nestsDeeperThan({ a: [{ b: 1 }] }, 3)]).toEqual([true, false]);
    expect(depthOf([[[]], [[[["deepest"]]]], {}])).toBe(5);
  });

  it("finds the deep branch among shallow ones", () => {
    const wide = Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`k${i}`, i === 500 ? { x: { y: {} } } : i]));
    expect(depthOf(wide)).toBe(4);
  });

  it("takes a document nested 100,000 levels without overflowing the stack", () => {
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(nestsDeeperThan(deep, MAX_JSON_DEPTH)).toBe(true);
  });

  it("a busy merchant's snapshot nests well within the limit", () => {
    const { ctx, state } = busyMerchant();
    const doc = JSON.parse(JSON.stringify(toSnapshot(ctx.config, { mode: "manual", speed: 1, now: ctx.now }, state)));
    expect(depthOf(doc)).toBe(6); // state.windows.payout_volume.entries[i], state.vtu[i].pins[j]
    expect(nestsDeeperThan(doc, MAX_JSON_DEPTH)).toBe(false);
  });
});
