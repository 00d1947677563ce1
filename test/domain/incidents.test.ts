import { describe, expect, it } from "vitest";
import { MAX_INCIDENTS } from "../../src/domain/bounds.js";
import { recordIncident } from "../../src/domain/incidents.js";
import { setup, T0 } from "./context.js";

describe("recordIncident", () => {
  it("records where and what, an Error with its name", () => {
    const { state } = setup();
    expect(recordIncident(state, T0, "timer payout.settle p1", new TypeError("x is undefined"))).toEqual({ at: T0, where: "timer payout.settle p1", error: "TypeError: x is undefined" });
    expect(recordIncident(state, T0 + 1, "webhook", "socket hang up").error).toBe("socket hang up");
    expect(state.incidents).toHaveLength(2);
  });

  it("cuts long texts to the record's bounds", () => {
    const { state } = setup();
    const incident = recordIncident(state, T0, "w".repeat(300), new Error("e".repeat(2_000)));
    expect([incident.where.length, incident.error.length]).toEqual([200, 1_000]);
  });

  it("keeps the newest 100", () => {
    const { state } = setup();
    for (let i = 0; i < MAX_INCIDENTS + 5; i++) recordIncident(state, T0 + i, `i${i}`, "e");
    expect(state.incidents).toHaveLength(100);
    expect(state.incidents[0]!.where).toBe("i5");
    expect(state.incidents.at(-1)!.where).toBe("i104");
  });
});
