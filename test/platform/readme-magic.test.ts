/**
 * The README's "Magic values" table lists exactly the domain's magic tables (src/domain/outcomes.ts),
 * with the numbers those tables enforce: an entry added, removed or retimed in the domain fails here
 * until the README says so.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { HOUR } from "../../src/domain/limits.js";
import { CARD_FUND_MAGIC, KYC_MAGIC, LATE_FAILURE_MS, magicPhone, PAYOUT_MAGIC, SLOW_RESPONSE_SECONDS, VTU_MAGIC_DIGIT } from "../../src/domain/outcomes.js";

const readme = readFileSync("README.md", "utf8");
const section = readme.slice(readme.indexOf("## Magic values"), readme.indexOf("## Sandbox choices"));
const rows = section.split("\n").filter((line) => line.startsWith("| ") && !line.startsWith("| State machine"));
const ordinal = (n: number) => `${n}${n === 1 ? "st" : n === 2 ? "nd" : n === 3 ? "rd" : "th"}`;

describe("the README's magic values", () => {
  it("list every payout ending of PAYOUT_MAGIC, and no other", () => {
    const listed = rows.filter((r) => r.startsWith("| Payout |")).flatMap((r) => [...r.matchAll(/ending `(\d{4})`/g)].map((m) => m[1]));
    expect(listed.sort()).toEqual(Object.keys(PAYOUT_MAGIC).sort());
  });

  it("state each payout ending's timing as the table enforces it", () => {
    const row = (ending: string) => rows.find((r) => r.includes(`ending \`${ending}\``))!;
    for (const [ending, magic] of Object.entries(PAYOUT_MAGIC)) {
      if (magic.queries) expect(row(ending), ending).toContain(`${ordinal(magic.queries)} `);
      if (magic.delay_ms) expect(row(ending), ending).toMatch(new RegExp(`\\b${magic.delay_ms / HOUR} hours`));
      if (magic.response === "slow_response") expect(row(ending), ending).toContain(`${SLOW_RESPONSE_SECONDS} s`);
    }
    expect(LATE_FAILURE_MS % HOUR, "a whole number of hours, as the README words it").toBe(0);
  });

  it("list every VTU phone of VTU_MAGIC_DIGIT, and the repeated digits it forces", () => {
    const phones = rows.filter((r) => r.startsWith("| VTU")).flatMap((r) => [...r.matchAll(/`(080\d{8})`/g)].map((m) => m[1]));
    const digits = Object.entries(VTU_MAGIC_DIGIT).filter(([, m]) => m.plan !== null).map(([d]) => d);
    expect(phones.sort()).toEqual(digits.map(magicPhone).sort());
    expect(section).toContain(`one repeated digit \`${digits[0]}\`–\`${digits.at(-1)}\``);
  });

  it("list the KYC and card-funding magic values, and no other", () => {
    const prefixes = [...section.matchAll(/email starting `([^`]+)`/g)].map((m) => m[1]);
    expect(prefixes.sort()).toEqual(Object.keys(KYC_MAGIC).sort());
    const amounts = [...section.matchAll(/amount exactly `([\d.]+)` USD/g)].map((m) => m[1]);
    expect(amounts.sort()).toEqual(Object.keys(CARD_FUND_MAGIC).map((cents) => (Number(cents) / 100).toFixed(2)).sort());
  });
});
