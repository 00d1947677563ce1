import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assertDestinationNames, comparedBankNames, comparedNames, MEMO_ENTRIES, namesHolder, normaliseName, sameBankName } from "../../src/domain/name-check.js";
import { accountHolderName } from "../../src/domain/names.js";
import { GTB_ACCOUNT, makeContext, thrown } from "./context.js";

describe("normaliseName", () => {
  it("ignores case, accents, spacing and punctuation", () => {
    expect(normaliseName("  Ọlá-Adébáyọ̀,  o'Neil ")).toBe("OLA ADEBAYO O NEIL");
    expect(normaliseName("OPay (Paycom)")).toBe("OPAY PAYCOM");
    expect(normaliseName("...")).toBe("");
  });

  it("gives plain ASCII names (its shortcut) exactly what the full Unicode normalisation gives", () => {
    const full = (text: string) => text.normalize("NFKD").replace(/\p{M}+/gu, "").toUpperCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
    const word = fc.stringMatching(/^[A-Za-z0-9]{1,12}$/);
    const plain = fc.array(word, { minLength: 1, maxLength: 5 }).map((words) => words.join(" "));
    const near = fc.tuple(plain, fc.constantFrom(" ", "  ", "-", "é", "ß", "ﬁ", "İ", "\t", "")).map(([p, extra]) => `${p}${extra}`);
    fc.assert(fc.property(fc.oneof(plain, near, fc.string({ unit: "grapheme" })), (text) => normaliseName(text) === full(text)), { numRuns: 2_000 });
  });
});

describe("namesHolder", () => {
  const HOLDER = "EZE SEGUN FOLAKE";

  it("accepts the holder's name in any case, spacing, punctuation and word order", () => {
    for (const given of ["EZE SEGUN FOLAKE", "eze segun folake", "  Eze   Segun\tFolake ", "Folake Segun Eze", "Eze, Segun-Folake", "SEGUN FOLAKE EZE."]) {
      expect(namesHolder(given, HOLDER), given).toBe(true);
    }
  });

  it("accepts two or more of the holder's names (a middle name left out), never one", () => {
    expect(namesHolder("Segun Eze", HOLDER)).toBe(true);
    expect(namesHolder("Folake Eze", HOLDER)).toBe(true);
    expect(namesHolder("Eze", HOLDER)).toBe(false);
    expect(namesHolder("", HOLDER)).toBe(false);
    // A two-word holder needs both words.
    expect(namesHolder("ALIYU BABAJIDE", "ALIYU BABAJIDE")).toBe(true);
    expect(namesHolder("Aliyu", "ALIYU BABAJIDE")).toBe(false);
  });

  it("refuses any word the holder's name lacks, and a word used more often than the holder has it", () => {
    expect(namesHolder("JOHN DOE", HOLDER)).toBe(false);
    expect(namesHolder("EZE SEGUN FOLAKE JOHN", HOLDER)).toBe(false);
    expect(namesHolder("EZE SEGUN FOLA", HOLDER)).toBe(false); // no prefixes or initials
    expect(namesHolder("EZE S FOLAKE", HOLDER)).toBe(false);
    expect(namesHolder("EZE EZE", HOLDER)).toBe(false);
    expect(namesHolder("EZESEGUN FOLAKE", HOLDER)).toBe(false);
  });
});

describe("sameBankName", () => {
  it("is the bank list's name whatever the case, spacing and punctuation, in its own word order", () => {
    expect(sameBankName("Guaranty Trust Bank", "Guaranty Trust Bank")).toBe(true);
    expect(sameBankName(" guaranty  TRUST bank ", "Guaranty Trust Bank")).toBe(true);
    expect(sameBankName("OPay Paycom", "OPay (Paycom)")).toBe(true);
    expect(sameBankName("GTBank", "Guaranty Trust Bank")).toBe(false);
    expect(sameBankName("Trust Guaranty Bank", "Guaranty Trust Bank")).toBe(false);
    expect(sameBankName("Access Bank", "Guaranty Trust Bank")).toBe(false);
  });
});

describe("assertDestinationNames", () => {
  const ctx = makeContext();
  const holder = accountHolderName("058", GTB_ACCOUNT);
  const dest = { bank_code: "058", account_number: GTB_ACCOUNT, account_name: holder, bank_name: "Guaranty Trust Bank" };

  it("passes the bank list's name and the name enquiry's", () => {
    expect(holder).toBe("EZE FUNMILAYO IBRAHIM");
    expect(() => assertDestinationNames(ctx, dest)).not.toThrow();
  });

  it("BANK_NAME_MISMATCH names the bank list's name; it is checked before the account name", () => {
    const err = thrown(() => assertDestinationNames(ctx, { ...dest, bank_name: "Access Bank", account_name: "JOHN DOE" }));
    expect(err.code).toBe("BANK_NAME_MISMATCH");
    expect(err.message).toBe('bank_name "Access Bank" is not the name of bank 058: the bank list (GET /api/v1/payout/banks) names it "Guaranty Trust Bank".');
  });

  it("ACCOUNT_NAME_MISMATCH names what name enquiry returns", () => {
    const err = thrown(() => assertDestinationNames(ctx, { ...dest, account_name: "JOHN DOE" }));
    expect(err.code).toBe("ACCOUNT_NAME_MISMATCH");
    expect(err.message).toBe(
      `account_name "JOHN DOE" does not match the holder of account ${GTB_ACCOUNT} at Guaranty Trust Bank: name enquiry (POST /api/v1/payout/verify-account) returns "EZE FUNMILAYO IBRAHIM".`,
    );
  });

  it("skips the account name of a test account name enquiry never resolves (ending 0000), but not its bank name", () => {
    expect(() => assertDestinationNames(ctx, { ...dest, account_number: "1234560000", account_name: "ANYBODY AT ALL" })).not.toThrow();
    expect(thrown(() => assertDestinationNames(ctx, { ...dest, account_number: "1234560000", bank_name: "GTBank" })).code).toBe("BANK_NAME_MISMATCH");
    // The other test accounts resolve, so their names are checked.
    expect(thrown(() => assertDestinationNames(ctx, { ...dest, account_number: "1234560001", account_name: "JOHN DOE" })).code).toBe("ACCOUNT_NAME_MISMATCH");
  });
});

describe("the remembered comparisons", () => {
  const name = fc.oneof(fc.constantFrom("EZE SEGUN FOLAKE", "Segun Eze", "eze", "Guaranty Trust Bank", "GUARANTY-TRUST bank", "Ọlá Adébáyọ̀"), fc.string({ maxLength: 12 }));
  it("answer as the comparison itself, asked again and again, past the memo's bound", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(name, name), { minLength: 1, maxLength: 50 }), (pairs) => {
        for (const [given, known] of [...pairs, ...pairs]) {
          expect(namesHolder(given, known)).toBe(comparedNames(given, known));
          expect(sameBankName(given, known)).toBe(comparedBankNames(given, known));
        }
      }),
      { numRuns: 300 },
    );
    // Past the bound it starts again, still right.
    for (let i = 0; i < MEMO_ENTRIES + 10; i++) expect(namesHolder(`EZE ${i}`, "EZE SEGUN")).toBe(false);
    expect(namesHolder("Segun Eze", "EZE SEGUN")).toBe(true);
  });
});
