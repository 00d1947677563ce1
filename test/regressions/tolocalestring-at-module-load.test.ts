/**
 * Cold start: the checks docs formatted MAX_REPORTED_CREDITS with `toLocaleString` at module
 * load. The first such call sets up ICU's number formatting, ~12 ms of every start (the bounds in
 * schema messages and the other docs use `thousands()` for that reason). The built CLI is started with
 * the locale formatters wrapped to report any call; none may come before the first answer.
 */
import { describe, expect, it } from "vitest";
import { builtCliOutputWith } from "../support/processes.js";

const PRELOAD = `
for (const [owner, name] of [[Number.prototype, "toLocaleString"], [Date.prototype, "toLocaleString"], [Intl, "NumberFormat"]]) {
  const original = owner[name];
  owner[name] = function (...args) {
    process._rawDebug("LOCALE-FORMAT-CALLED " + name + "\\n" + new Error().stack);
    return new.target ? new original(...args) : original.apply(this, args);
  };
}
`;

describe("the built CLI's start", () => {
  it("formats nothing with ICU's locale formatters before its first answer", async () => {
    expect(await builtCliOutputWith(PRELOAD)).not.toContain("LOCALE-FORMAT-CALLED");
  }, 60_000);
});
