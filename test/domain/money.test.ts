import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { thousands } from "../../src/domain/money.js";

// thousands() stands in for toLocaleString("en-US") in schema messages and docs (whose first call
// costs the cold start ICU's set-up): the text must stay the same.
describe("thousands", () => {
  it("writes a number as toLocaleString('en-US') does", () => {
    for (const n of [0, 0.01, 1, 999, 1000, 1234.5, 100_000, 1e6, 1e10, 1e11, 99_999_999_999.99, -1500]) {
      expect(thousands(n)).toBe(n.toLocaleString("en-US"));
    }
  });

  it("agrees with toLocaleString('en-US') on amounts in kobo made major", () => {
    fc.assert(fc.property(fc.integer({ min: -1e13, max: 1e13 }), (kobo) => thousands(kobo / 100) === (kobo / 100).toLocaleString("en-US")));
  });
});
