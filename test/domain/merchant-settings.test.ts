import { describe, expect, it } from "vitest";
import { MAX_CLOCK } from "../../src/domain/bounds.js";
import { amount, digits, email, httpUrl, ipAddress, normaliseIp, phone, text } from "../../src/domain/fields.js";
import { MerchantSettingsSchema, NewMerchantSchema } from "../../src/domain/merchant-settings.js";
import { MerchantConfigRecord } from "../../src/domain/records.js";
import { makeContext } from "./context.js";

describe("merchant settings bounds", () => {
  const refusedAt = (settings: unknown) => {
    const result = MerchantSettingsSchema.safeParse(settings);
    return result.success ? null : result.error.issues.map((i) => i.path.join("."));
  };

  it("refuses each setting outside its bounds, naming it", () => {
    const cases: Array<[unknown, string]> = [
      [{ business_name: "  " }, "business_name"],
      [{ business_name: "x".repeat(101) }, "business_name"],
      [{ limits: { payout_min: -1 } }, "limits.payout_min"],
      [{ limits: { payout_max: 1.001 } }, "limits.payout_max"],
      [{ limits: { payout_max: 100_000_000_000.01 } }, "limits.payout_max"],
      [{ limits: { payout_attempts_per_hour: 1.5 } }, "limits.payout_attempts_per_hour"],
      [{ limits: { requests_per_minute: 1_000_001 } }, "limits.requests_per_minute"],
      [{ limits: { payout_fee: 1 } }, "limits"],
      [{ kyc: { bvn: "1234567890" } }, "kyc.bvn"],
      [{ ip_allowlist: ["10.0.0.300"] }, "ip_allowlist.0"],
      [{ ip_allowlist: Array(101).fill("10.0.0.1") }, "ip_allowlist"],
      [{ webhook_url: "ftp://a.example" }, "webhook_url"],
      [{ webhook_capture: { fail_first: 101 } }, "webhook_capture.fail_first"],
      [{ card_funding_fee_usd: 1_000.01 }, "card_funding_fee_usd"],
      [{ usd_ngn_rate: 1_600.00001 }, "usd_ngn_rate"],
      [{ usd_ngn_rate: 0 }, "usd_ngn_rate"],
      [{ usd_ngn_rate: 100_000.0001 }, "usd_ngn_rate"],
      [{ delays: { kyc_approval_seconds: 365 * 86_400 + 1 } }, "delays.kyc_approval_seconds"],
      [{ webhook: { timeout_seconds: 61 } }, "webhook.timeout_seconds"],
      [{ webhook: { timeout_seconds: 0 } }, "webhook.timeout_seconds"],
      [{ webhook: { retry_schedule_seconds: Array(21).fill(1) } }, "webhook.retry_schedule_seconds"],
      [{ webhook: { retry_schedule_seconds: [7 * 86_400 + 1] } }, "webhook.retry_schedule_seconds.0"],
      [{ clock: { speed: 100_001 } }, "clock.speed"],
      [{ clock: { now: "1969-12-31T23:59:59Z" } }, "clock.now"],
      [{ clock: { now: "9999-01-01T00:00:00Z" } }, "clock.now"],
      [{ wallet_balance: 1 }, ""],
    ];
    for (const [settings, path] of cases) expect(refusedAt(settings), JSON.stringify(settings)).toEqual([path]);
    expect(NewMerchantSchema.safeParse({ wallet_balance: -1 }).success).toBe(false);
  });

  it("every setting at its bounds makes a config the record schema accepts", () => {
    const extreme = MerchantSettingsSchema.parse({
      business_name: " " + "x".repeat(100) + " ",
      limits: { payout_min: 100_000_000_000, payout_max: 0, payout_attempts_per_hour: 1_000_000, requests_per_minute: 0 },
      kyc: { bvn: "12345678901", nin: null },
      ip_allowlist: ["::FFFF:127.0.0.1", "2001:DB8::1"],
      webhook_capture: {},
      card_funding_fee_usd: 1_000,
      usd_ngn_rate: 99_999.9999,
      delays: { payout_settlement_seconds: 365 * 86_400 },
      webhook: { timeout_seconds: 60, retry_schedule_seconds: Array(20).fill(7 * 86_400) },
      clock: { speed: 100_000, now: new Date(MAX_CLOCK).toISOString() },
    });
    expect(extreme.ip_allowlist).toEqual(["127.0.0.1", "2001:db8::1"]);
    expect(extreme.webhook_capture).toEqual({ fail_first: 0 });
    const config = makeContext({ settings: extreme }).config;
    expect(config.business_name).toHaveLength(100);
    expect(MerchantConfigRecord.safeParse(config).success).toBe(true);
  });
});

describe("field rules", () => {
  const messages = (schema: { safeParse(v: unknown): { success: boolean; error?: { issues: Array<{ message: string }> } } }, value: unknown) =>
    schema.safeParse(value).error?.issues.map((i) => i.message) ?? [];

  it("amounts: finite, at most two decimals, within bounds, in the currency named", () => {
    const naira = amount({ min: 100, max: 1_000 });
    expect(messages(naira, 100)).toEqual([]);
    expect(messages(naira, 1_000)).toEqual([]);
    expect(messages(naira, 99.99)).toEqual(["Must be at least 100 Naira."]);
    expect(messages(naira, 1_000.01)).toEqual(["Must be at most 1,000 Naira."]);
    expect(messages(naira, 100.001)).toEqual(["Must have at most two decimal places."]);
    expect(messages(naira, "100")).toEqual(["Must be a number."]);
    expect(messages(amount({ min: 1, currency: "USD" }), 0)).toEqual(["Must be at least 1 USD."]);
    expect(messages(amount(), 100_000_000_000)).toEqual([]); // MAX_AMOUNT, exact at two decimals
    expect(messages(amount(), 99_999_999_999.99)).toEqual([]);
  });

  it("phones: Nigerian mobiles in 0, 234 and +234 forms, trimmed", () => {
    for (const ok of ["08031234567", "2348031234567", "+2347011234567", " 09012345678 "]) expect(phone.safeParse(ok).success, ok).toBe(true);
    for (const bad of ["0803123456", "08231234567", "+08031234567", "8031234567", "080312345678"]) expect(phone.safeParse(bad).success, bad).toBe(false);
    expect(phone.parse(" 08031234567 ")).toBe("08031234567");
  });

  it("digits, text, email and http(s) URLs", () => {
    expect(messages(digits(11), "1234567890")).toEqual(["Must be exactly 11 digits."]);
    expect(messages(digits(11), "12345678901")).toEqual([]);
    expect(text(3).parse("  ab ")).toBe("ab");
    expect(messages(text(3), "   ")).toEqual(["Must not be empty."]);
    expect(messages(text(3), "abcd")).toEqual(["Must be at most 3 characters."]);
    expect(messages(email, "not-an-email")).toEqual(["Must be a valid email address."]);
    expect(httpUrl.safeParse("https://a.example/h?x=1").success).toBe(true);
    for (const bad of ["ftp://a.example", "javascript:alert(1)", "/relative", `https://a.example/${"x".repeat(2_000)}`]) expect(httpUrl.safeParse(bad).success, bad.slice(0, 30)).toBe(false);
  });

  it("IP addresses are normalised, so an allowlist entry written either way matches", () => {
    expect(ipAddress.parse("::ffff:127.0.0.1")).toBe("127.0.0.1");
    expect(ipAddress.parse("2001:0DB8:0000:0000:0000:0000:0000:0001")).toBe("2001:db8::1");
    expect(ipAddress.safeParse("256.0.0.1").success).toBe(false);
    expect([normaliseIp(" 10.0.0.1 "), normaliseIp("::FFFF:0A00:0001"), normaliseIp("::1"), normaliseIp("not:an:ip:")]).toEqual(["10.0.0.1", "10.0.0.1", "::1", "not:an:ip:"]);
  });
});
