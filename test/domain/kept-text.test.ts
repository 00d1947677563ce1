import fc from "fast-check";
import { expect, it } from "vitest";
import { keptText } from "../../src/domain/kept-text.js";

it("keptText is the template literal's text", () => {
  fc.assert(
    fc.property(fc.string(), fc.oneof(fc.string(), fc.integer(), fc.double()), fc.string(), (a, b, c) => {
      expect(keptText`${a}`).toBe(`${a}`);
      expect(keptText`Payout ${a} to ${b} ****${c}.`).toBe(`Payout ${a} to ${b} ****${c}.`);
      expect(keptText`no values`).toBe("no values");
    }),
  );
});
