import { describe, expect, it } from "vitest";
import { isPlausibleNuban, makeNuban, nubanCheckDigit } from "../../src/domain/nuban.js";
import { isLuhnValid, makePan, maskPan } from "../../src/domain/pan.js";
import { payoutFee } from "../../src/domain/limits.js";
import { toMajor, toMinor, hasAtMostTwoDecimals } from "../../src/domain/money.js";
import { createIds } from "../../src/engine/ids.js";
import { accountHolderName } from "../../src/domain/names.js";

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
});

describe("PAN", () => {
  it("makes Luhn-valid PANs with the brand's prefix", () => {
    const ids = createIds("pan");
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

  it("payout fee is 1% rounded to the kobo, capped at 1,000 Naira", () => {
    expect(payoutFee(toMinor(5_000))).toBe(toMinor(50));
    expect(payoutFee(toMinor(100_000))).toBe(toMinor(1_000));
    expect(payoutFee(toMinor(100_000.01))).toBe(toMinor(1_000));
    expect(payoutFee(toMinor(150.55))).toBe(toMinor(1.51));
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
});
