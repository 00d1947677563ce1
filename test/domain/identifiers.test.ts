import { describe, expect, it } from "vitest";
import { isPlausibleNuban, makeNuban, nubanCheckDigit } from "../../src/domain/nuban.js";
import { brandPrefix, isLuhnValid, luhnCheckDigit, makePan, maskPan } from "../../src/domain/pan.js";
import { toMajor, toMinor, hasAtMostTwoDecimals } from "../../src/domain/money.js";
import { createIds } from "../../src/engine/ids.js";
import { accountHolderName } from "../../src/domain/names.js";
import { makeContext } from "./context.js";

describe("NUBAN", () => {
  it("computes the CBN check digit (worked example: GTBank 058, serial 000000001)", () => {
    // 0*3+5*7+8*3 + 0*3+0*7+0*3+0*3+0*7+0*3+0*3+0*7+1*3 = 35+24+3 = 62 -> (10 - 2) % 10 = 8
    expect(nubanCheckDigit("058", "000000001")).toBe(8);
    expect(makeNuban("058", "000000001")).toBe("0000000018");
  });

  it("checks the digit for 3-digit codes and only the format for longer ones", () => {
    expect(isPlausibleNuban("058", "0000000018")).toBe(true);
    expect(isPlausibleNuban("058", "0000000019")).toBe(false);
    expect(isPlausibleNuban("058", "000000018")).toBe(false);
    expect(isPlausibleNuban("999992", "8031234567")).toBe(true);
    expect(isPlausibleNuban("999992", "803123456a")).toBe(false);
  });

  it("needs exactly a 3-digit code and a 9-digit serial to compute a digit", () => {
    expect(() => nubanCheckDigit("58", "000000001")).toThrow("nubanCheckDigit needs a 3-digit bank code and a 9-digit serial");
    expect(() => nubanCheckDigit("058", "00000001")).toThrow();
    expect(() => nubanCheckDigit("058", "00000000a")).toThrow();
    expect(isPlausibleNuban("058", "00000000018")).toBe(false);
  });

  it("every serial gets exactly one valid check digit", () => {
    const { ids } = makeContext({ seed: "nuban" });
    for (let i = 0; i < 50; i++) {
      const serial = ids.digits(9);
      const valid = Array.from({ length: 10 }, (_, d) => isPlausibleNuban("044", `${serial}${d}`));
      expect(valid.filter(Boolean)).toHaveLength(1);
      expect(valid.indexOf(true)).toBe(nubanCheckDigit("044", serial));
    }
  });
});

describe("PAN", () => {
  it("makes Luhn-valid PANs with the brand's prefix", () => {
    const { ids } = makeContext({ seed: "pan" });
    for (let i = 0; i < 50; i++) {
      const visa = makePan("VISA", ids.digits(15), ids.int(5));
      const mc = makePan("MASTERCARD", ids.digits(15), ids.int(5));
      expect(visa).toMatch(/^4\d{15}$/);
      expect(mc).toMatch(/^5[1-5]\d{14}$/);
      expect(isLuhnValid(visa)).toBe(true);
      expect(isLuhnValid(mc)).toBe(true);
    }
    expect(isLuhnValid("4111111111111111")).toBe(true);
    expect(isLuhnValid("4111111111111112")).toBe(false);
  });

  it("masks the middle digits in four groups", () => {
    expect(maskPan("4111111111111111")).toBe("4111 11** **** 1111");
  });

  it("computes the Luhn digit of a partial number; Mastercard prefixes run 51 to 55", () => {
    expect(luhnCheckDigit("411111111111111")).toBe(1);
    expect(luhnCheckDigit("7992739871")).toBe(3); // the textbook example 79927398713
    expect([0, 1, 2, 3, 4, 5].map((pick) => brandPrefix("MASTERCARD", pick))).toEqual(["51", "52", "53", "54", "55", "51"]);
    expect(brandPrefix("VISA", 3)).toBe("4");
    expect(isLuhnValid("79927398713")).toBe(false); // 11 digits: too short for a card
    expect(isLuhnValid("4111-1111-1111-1111")).toBe(false);
  });

  it("refuses too little material for a PAN", () => {
    expect(() => makePan("VISA", "1234", 0)).toThrow("makePan needs at least 15 digits of material");
    expect(makePan("VISA", "12345678901234567890", 0)).toHaveLength(16);
  });
});

describe("money", () => {
  it("converts between major and minor units exactly for two decimals", () => {
    expect(toMinor(150.55)).toBe(15_055);
    expect(toMinor(0.1 + 0.2)).toBe(30);
    expect(toMajor(15_055)).toBe(150.55);
    expect(hasAtMostTwoDecimals(1.01)).toBe(true);
    expect(hasAtMostTwoDecimals(1.001)).toBe(false);
    expect(hasAtMostTwoDecimals(Number.NaN)).toBe(false);
    expect(hasAtMostTwoDecimals(Infinity)).toBe(false);
  });
});

describe("identifiers", () => {
  it("a seed makes the identifier stream repeatable; no seed does not", () => {
    const draw = (ids: ReturnType<typeof createIds>) => [ids.id("TXN"), ids.digits(9), ids.hex(16), ids.alnum(24), ids.int(1000)];
    expect(draw(createIds("s1"))).toEqual(draw(createIds("s1")));
    expect(draw(createIds("s1"))).not.toEqual(draw(createIds("s2")));
    expect(draw(createIds())).not.toEqual(draw(createIds()));
    expect(createIds("x").id("PO")).toMatch(/^PO_[0-9A-Z]{16}$/);
  });

  it("resolved account names are deterministic", () => {
    expect(accountHolderName("058", "0000000018")).toBe(accountHolderName("058", "0000000018"));
    expect(accountHolderName("058", "0000000018")).not.toBe(accountHolderName("044", "0000000018"));
  });

  it("resolved account names are SURNAME FIRST [MIDDLE] in capitals, the middle left out when it repeats the first", () => {
    const { ids } = makeContext({ seed: "names" });
    const names = Array.from({ length: 300 }, () => accountHolderName("058", ids.digits(10)));
    for (const name of names) {
      expect(name).toMatch(/^[A-Z]+ [A-Z]+( [A-Z]+)?$/);
      const [, first, middle] = name.split(" ");
      expect(middle).not.toBe(first);
    }
    expect(names.some((n) => n.split(" ").length === 3)).toBe(true);
    expect(names.some((n) => n.split(" ").length === 2)).toBe(true);
    expect(new Set(names).size).toBeGreaterThan(250);
  });
});
