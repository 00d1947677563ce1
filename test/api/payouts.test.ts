/**
 * Payouts under /api/v1/payout: the bank list, account verification (its magic numbers and
 * verify_account outcome rules), the transfer (fee, references, review threshold, balance, amount
 * limits, attempt caps, validation), the status record, and the lifecycle on the merchant's clock:
 * settlement and its magic accounts, approval, the payout levers and payout outcome rules.
 */
import { describe, expect, it } from "vitest";
import banks from "../../fixtures/banks.json" with { type: "json" };
import { at, client, expectInvalid, type TestClient } from "../client.js";
import { expectError, expectLedgerConsistent, harness, makeNuban, START } from "../helpers.js";

const GTB = "058";
const ACCOUNT = makeNuban(GTB, "012345678");
const OTHER_ACCOUNT = makeNuban(GTB, "087654321");
const TRANSFER = "/api/v1/payout/transfer";
/** ACCOUNT with its check digit moved on by one: a wrong NUBAN at GTB. */
const WRONG_DIGIT = ACCOUNT.slice(0, 9) + String((Number(ACCOUNT[9]) + 1) % 10);

const verify = (c: TestClient, account_number: string, bank_code = GTB) =>
  c.call("POST", "/api/v1/payout/verify-account", { body: { bank_code, account_number } });
const payoutLever = (c: TestClient, reference: string, action: string, body?: unknown) =>
  c.call("POST", `/sandbox/v1/payouts/${reference}/${action}`, { body });

describe("GET /api/v1/payout/banks", () => {
  it("lists the fixture's banks as bank_code + bank_name, fintechs included", async () => {
    const c = client(await harness().merchant());
    const res = await c.call("GET", "/api/v1/payout/banks");
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toEqual(banks.map((b) => ({ bank_code: b.bank_code, bank_name: b.bank_name })));
    expect(res.body.data.length).toBeGreaterThanOrEqual(40);
    const names = res.body.data.map((b: { bank_name: string }) => b.bank_name).join("|");
    for (const fintech of ["OPay", "PalmPay", "Moniepoint", "Kuda"]) expect(names).toContain(fintech);
    expect(res.body.data).toContainEqual({ bank_code: "058", bank_name: "Guaranty Trust Bank" });
  });
});

describe("POST /api/v1/payout/verify-account", () => {
  it("resolves a valid NUBAN to a deterministic name", async () => {
    const h = harness();
    const c = client(await h.merchant());
    const res = await verify(c, ACCOUNT);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: { account_number: ACCOUNT, account_name: expect.stringMatching(/^[A-Z]+( [A-Z]+){1,2}$/), bank_code: GTB },
    });
    const again = await verify(client(await harness().merchant()), ACCOUNT);
    expect(again.body.data.account_name).toBe(res.body.data.account_name);
  });

  it("INVALID_ACCOUNT (422) when the check digit is wrong for a 3-digit bank code", async () => {
    const c = client(await harness().merchant());
    expectError(await verify(c, WRONG_DIGIT), 422, "INVALID_ACCOUNT");
  });

  it("checks only the 10-digit format for longer (fintech) bank codes", async () => {
    const c = client(await harness().merchant());
    const res = await verify(c, "8031234567", "999992");
    expect(res.status).toBe(200);
    expect(res.body.data.bank_code).toBe("999992");
  });

  it("VALIDATION_ERROR names each bad field", async () => {
    const c = client(await harness().merchant());
    expectInvalid(await verify(c, "12345", "12"), ["account_number", "bank_code"]);
    const unknownBank = await verify(c, ACCOUNT, "777");
    expect(expectError(unknownBank, 422, "VALIDATION_ERROR").errors).toHaveProperty("bank_code");
  });
});

describe("verify_account outcomes", () => {
  it("a not_found rule for account X makes X answer 422 INVALID_ACCOUNT while other accounts verify", async () => {
    const h = harness();
    const c = client(await h.merchant());
    const other = client(await h.merchant());
    expect((await verify(c, ACCOUNT)).status).toBe(200);
    await c.rule({ target: "verify_account", outcome: "not_found", match: { account_number: ACCOUNT } });
    expectError(await verify(c, ACCOUNT), 422, "INVALID_ACCOUNT");
    // Without times the rule stays until deleted.
    expectError(await verify(c, ACCOUNT), 422, "INVALID_ACCOUNT");
    const ok = await verify(c, OTHER_ACCOUNT);
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ account_number: OTHER_ACCOUNT, bank_code: GTB });
    // Rules belong to one merchant.
    expect((await verify(other, ACCOUNT)).status).toBe(200);
    // Deleting the rule lets X verify again.
    expect((await c.call("DELETE", "/sandbox/v1/outcomes")).status).toBe(200);
    const again = await verify(c, ACCOUNT);
    expect(again.status).toBe(200);
    expect(again.body.data.account_number).toBe(ACCOUNT);
  });

  it("the magic account number ending 0000 never verifies, while the magic 0001 skips the check digit and verifies", async () => {
    const c = client(await harness().merchant());
    // Neither is a valid NUBAN at GTB: only the magic suffix decides.
    expect(makeNuban(GTB, "012345000")).not.toBe("0123450000");
    expect(makeNuban(GTB, "012345000")).not.toBe("0123450001");
    expectError(await verify(c, "0123450000"), 422, "INVALID_ACCOUNT");
    expectError(await verify(c, "0123450000"), 422, "INVALID_ACCOUNT");
    const magicOk = await verify(c, "0123450001");
    expect(magicOk.status, JSON.stringify(magicOk.body)).toBe(200);
    expect(magicOk.body.data).toMatchObject({ account_number: "0123450001", bank_code: GTB });
  });
});

describe("POST /api/v1/payout/transfer", () => {
  it("201 with the payout record; amount + fee debited at once as two ledger entries", async () => {
    const c = client(await harness().merchant({ wallet_balance: 100_000 }));
    const res = await c.payout({ reference: "inv-42", account_number: ACCOUNT, account_name: "Segun Eze", narration: "Invoice 42" });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      message: expect.any(String),
      data: {
        reference: "inv-42",
        amount: 5_000,
        fee: 50,
        total_deducted: 5_050,
        net_amount: 5_000,
        order_no: expect.stringMatching(/^PO_[0-9A-Z]{16}$/),
        transaction_id: res.body.data.order_no,
        status: "processing",
        account: `****${ACCOUNT.slice(-4)}`,
        account_name: "Segun Eze", // as sent: two of EZE SEGUN FOLAKE's names
        bank_name: "Guaranty Trust Bank",
        narration: "Invoice 42",
        created_at: at(0),
      },
    });
    expect(res.body.data).not.toHaveProperty("processed_at");
    expect(res.body.data).not.toHaveProperty("source");
    expect(res.body.data).not.toHaveProperty("error");
    expect(await c.balance()).toBe(100_000 - 5_050);
    const entries = c.tenant.state.ledger.slice(-2).map((e) => [e.kind, e.amount, e.transaction_id]);
    expect(entries).toEqual([
      ["payout", -500_000, res.body.data.order_no],
      ["payout_fee", -5_000, res.body.data.order_no],
    ]);
    expectLedgerConsistent(c.tenant);
  });

  it.each([
    [100, 1],
    [150.55, 1.51],
    [99_999, 999.99],
    [100_000, 1_000],
    [2_500_000, 1_000],
  ])("fee for %d Naira is %d (1 percent, capped at 1,000)", async (amount, fee) => {
    const c = client(await harness().merchant({ wallet_balance: 5_000_000, limits: { payout_review_threshold: 10_000_000 } }));
    const res = await c.payout({ amount });
    expect(res.status).toBe(201);
    expect(res.body.data.fee).toBe(fee);
    expect(res.body.data.total_deducted).toBe(Math.round((amount + fee) * 100) / 100);
    expect(await c.balance()).toBe(Math.round((5_000_000 - amount - fee) * 100) / 100);
  });

  it("generates a unique reference when none is sent", async () => {
    const c = client(await harness().merchant());
    const a = await c.payout();
    const b = await c.payout();
    expect(a.body.data.reference).toMatch(/^PAYOUT_[0-9A-Z]{16}$/);
    expect(b.body.data.reference).not.toBe(a.body.data.reference);
    expect(b.body.data.order_no).not.toBe(a.body.data.order_no);
  });

  it("DUPLICATE_REFERENCE (409) for a reused reference, nothing debited; its data is the existing payout as the status endpoint shows it", async () => {
    const c = client(await harness().merchant());
    expect((await c.payout({ reference: "dup-1" })).status).toBe(201);
    const before = await c.balance();
    const dup = expectError(await c.payout({ reference: "dup-1", amount: 9_000 }), 409, "DUPLICATE_REFERENCE") as { message: string; data?: unknown };
    expect(dup.message).toBe("A payout with reference dup-1 already exists: data is that payout, as GET /api/v1/payout/status shows it.");
    expect(dup.data).toEqual(await c.payoutStatus("dup-1"));
    expect(dup.data).toMatchObject({ amount: 5_000, status: "processing", processed_at: null });
    expect(await c.balance()).toBe(before);
    expect(c.tenant.state.payouts.size).toBe(1);
    // The record as it stands when the retry comes: settled since.
    await c.advance("30s");
    const later = expectError(await c.payout({ reference: "dup-1" }), 409, "DUPLICATE_REFERENCE") as { data?: unknown };
    expect(later.data).toEqual(await c.payoutStatus("dup-1"));
    expect(later.data).toMatchObject({ status: "completed", processed_at: at(30) });
  });

  it("no other error carries data", async () => {
    const c = client(await harness().merchant({ wallet_balance: 10 }));
    expect(expectError(await c.payout(), 422, "INSUFFICIENT_BALANCE")).not.toHaveProperty("data");
    expect(expectError(await c.call("POST", "/api/v1/virtual-account/create", { body: {} }), 422, "VALIDATION_ERROR")).not.toHaveProperty("data");
  });

  it("the names must be the destination's: ACCOUNT_NAME_MISMATCH and BANK_NAME_MISMATCH (422) name what name enquiry and the bank list say; nothing debited, recorded or counted", async () => {
    const c = client(await harness().merchant({ wallet_balance: 100_000, limits: { payout_hourly_amount: 5_000 } }));
    const holder = (await verify(c, ACCOUNT)).body.data.account_name as string;
    expect(holder).toBe("EZE SEGUN FOLAKE");
    const wrongName = expectError(await c.payout({ reference: "n-1", account_number: ACCOUNT, account_name: "JOHN DOE" }), 422, "ACCOUNT_NAME_MISMATCH");
    expect(wrongName.message).toBe(
      `account_name "JOHN DOE" does not match the holder of account ${ACCOUNT} at Guaranty Trust Bank: name enquiry (POST /api/v1/payout/verify-account) returns "EZE SEGUN FOLAKE".`,
    );
    const wrongBank = expectError(await c.payout({ reference: "n-1", account_number: ACCOUNT, bank_name: "Access Bank" }), 422, "BANK_NAME_MISMATCH");
    expect(wrongBank.message).toContain('the bank list (GET /api/v1/payout/banks) names it "Guaranty Trust Bank"');
    expectError(await c.payout({ reference: "n-1", account_number: ACCOUNT, bank_name: "GTBank" }), 422, "BANK_NAME_MISMATCH");
    expect(await c.balance()).toBe(100_000);
    expect(c.tenant.state.payouts.size).toBe(0);
    expectError(await c.call("GET", "/api/v1/payout/status?reference=n-1"), 404, "NOT_FOUND");
    // No volume was used: the hourly limit still admits its whole amount.
    expect((await c.payout({ reference: "n-1", account_number: ACCOUNT, account_name: holder })).status).toBe(201);
  });

  it("names match whatever the case, spacing, punctuation and order, and with a name left out; the bank name whatever its case and spacing", async () => {
    const c = client(await harness().merchant({ limits: { payout_attempts_per_ip_per_hour: 0 } }));
    for (const account_name of ["eze segun folake", "  Folake   Segun-Eze ", "Segun Eze", "EZE, FOLAKE"]) {
      expect((await c.payout({ account_number: ACCOUNT, account_name })).status, account_name).toBe(201);
    }
    for (const bank_name of ["guaranty trust bank", "  GUARANTY  TRUST BANK  "]) {
      expect((await c.payout({ account_number: ACCOUNT, bank_name })).status, bank_name).toBe(201);
    }
    // A fintech's name as the bank list writes it, punctuation aside.
    expect((await c.payout({ bank_code: "999992", account_number: "8031234567", bank_name: "OPay Paycom" })).status).toBe(201);
    for (const account_name of ["EZE", "EZE SEGUN FOLAKE ADA", "EZE S. FOLAKE"]) {
      expectError(await c.payout({ account_number: ACCOUNT, account_name }), 422, "ACCOUNT_NAME_MISMATCH");
    }
  });

  it("the destination is checked first: the account number, then the bank name, then the account name, then the reference, amounts and balance", async () => {
    const c = client(await harness().merchant({ wallet_balance: 10_000 }));
    expect((await c.payout({ reference: "taken", account_number: ACCOUNT, amount: 100 })).status).toBe(201);
    // A used reference, an amount over the maximum and over the balance, and both names wrong.
    const everythingWrong = { reference: "taken", amount: 50_000_000, account_name: "JOHN DOE", bank_name: "Access Bank" };
    expectError(await c.payout({ ...everythingWrong, account_number: WRONG_DIGIT }), 422, "INVALID_ACCOUNT");
    expectError(await c.payout({ ...everythingWrong, account_number: ACCOUNT }), 422, "BANK_NAME_MISMATCH");
    expectError(await c.payout({ ...everythingWrong, account_number: ACCOUNT, bank_name: "Guaranty Trust Bank" }), 422, "ACCOUNT_NAME_MISMATCH");
    expectError(await c.payout({ ...everythingWrong, account_number: ACCOUNT, bank_name: "Guaranty Trust Bank", account_name: "EZE SEGUN FOLAKE" }), 409, "DUPLICATE_REFERENCE");
  });

  it("a test account name enquiry never resolves (ending 0000) takes any account name, and still fails at settlement", async () => {
    const c = client(await harness().merchant());
    const res = await c.payout({ reference: "gone", account_number: "1234560000", account_name: "ADA OBI" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await c.advance("30s");
    expect(await c.payoutStatus("gone")).toMatchObject({ status: "failed", error: "Beneficiary account not found" });
  });

  it("references are unique per merchant, not across merchants", async () => {
    const h = harness();
    const a = client(await h.merchant());
    const b = client(await h.merchant());
    expect((await a.payout({ reference: "shared" })).status).toBe(201);
    expect((await b.payout({ reference: "shared" })).status).toBe(201);
  });

  it("amounts at or above the review threshold are held as pending_approval (still debited)", async () => {
    const c = client(await harness().merchant({ wallet_balance: 100_000, limits: { payout_review_threshold: 20_000 } }));
    const below = await c.payout({ amount: 19_999.99 });
    const atThreshold = await c.payout({ amount: 20_000 });
    expect(below.body.data.status).toBe("processing");
    expect(atThreshold.body.data.status).toBe("pending_approval");
    expect(below.body.data.fee).toBe(200); // 1% of 19,999.99 is 199.9999, rounded to the kobo
    expect(await c.balance()).toBe(59_600.01);
    expectLedgerConsistent(c.tenant);
  });

  it("INSUFFICIENT_BALANCE (422) when amount + fee exceeds the wallet; nothing debited or recorded", async () => {
    const c = client(await harness().merchant({ wallet_balance: 5_049.99 }));
    expectError(await c.payout({ amount: 5_000, reference: "too-much" }), 422, "INSUFFICIENT_BALANCE");
    expect(await c.balance()).toBe(5_049.99);
    expect(c.tenant.state.payouts.size).toBe(0);
    expectError(await c.call("GET", "/api/v1/payout/status?reference=too-much"), 404, "NOT_FOUND");
    // Exactly enough is fine.
    expect((await c.payout({ amount: 4_999.99 })).status).toBe(201);
    expect(await c.balance()).toBe(0);
    expectLedgerConsistent(c.tenant);
  });

  it("per-merchant minimum and maximum per transaction", async () => {
    const c = client(await harness().merchant({ limits: { payout_min: 1_000, payout_max: 50_000 } }));
    expectError(await c.payout({ amount: 999.99 }), 422, "AMOUNT_BELOW_MINIMUM");
    expectError(await c.payout({ amount: 50_000.01 }), 422, "AMOUNT_ABOVE_MAXIMUM");
    expect((await c.payout({ amount: 1_000 })).status).toBe(201);
    expect((await c.payout({ amount: 50_000 })).status).toBe(201);
    expect(c.tenant.state.payouts.size).toBe(2);
  });

  it("hourly and daily amount limits over rolling windows of the merchant's clock", async () => {
    const c = client(await harness().merchant({ limits: { payout_hourly_amount: 10_000, payout_daily_amount: 25_000 } }));
    expect((await c.payout({ amount: 6_000 })).status).toBe(201);
    expectError(await c.payout({ amount: 4_000.01 }), 422, "HOURLY_LIMIT_EXCEEDED");
    expect((await c.payout({ amount: 4_000 })).status).toBe(201);
    await c.advance("1h");
    expect((await c.payout({ amount: 10_000 })).status).toBe(201);
    await c.advance("1h");
    expectError(await c.payout({ amount: 5_000.01 }), 422, "DAILY_LIMIT_EXCEEDED");
    expect((await c.payout({ amount: 5_000 })).status).toBe(201);
    await c.advance("22h");
    // The first two payouts (at START) have left the 24-hour window.
    expect((await c.payout({ amount: 10_000 })).status).toBe(201);
    expectLedgerConsistent(c.tenant);
  });

  it("RATE_LIMITED (429) with retry_after once the merchant's hourly attempt cap is reached", async () => {
    const c = client(await harness().merchant({ limits: { payout_attempts_per_hour: 3, payout_attempts_per_ip_per_hour: 0 } }));
    expect((await c.payout()).status).toBe(201);
    await c.advance("10m");
    expectError(await c.call("POST", TRANSFER, { body: { amount: -1 } }), 422, "VALIDATION_ERROR"); // refused attempts count too
    expect((await c.payout()).status).toBe(201);
    const limited = await c.payout({}, { ip: "10.0.0.2" });
    const body = expectError(limited, 429, "RATE_LIMITED");
    expect(body.retry_after).toBe(50 * 60);
    // A manual clock: sim seconds, no Retry-After header (real waiting never frees it), and the way past it.
    expect(limited.headers.get("retry-after")).toBeNull();
    expect(body.message).toBe(
      "Too many payout attempts: at most 3 per hour for this account. This account's clock is manual, so waiting does not help: " +
        "advance the clock by 3000 seconds (POST /sandbox/v1/clock/advance) to get past it.",
    );
    expect(c.tenant.state.payouts.size).toBe(2);
    await c.advance(body.retry_after! - 1);
    expectError(await c.payout(), 429, "RATE_LIMITED");
    await c.advance(1);
    expect((await c.payout()).status).toBe(201);
  });

  it("IP_RATE_LIMITED (429) after 20 attempts per hour from one IP, counted per merchant and IP", async () => {
    const h = harness();
    const c = client(await h.merchant({ limits: { payout_attempts_per_hour: 0 } }));
    const other = client(await h.merchant());
    const ip = "203.0.113.9";
    for (let i = 0; i < 20; i++) {
      const res = i % 2 ? await c.payout({}, { ip }) : await c.call("POST", TRANSFER, { body: { amount: "bad" }, ip });
      expect(res.status).toBe(i % 2 ? 201 : 422);
    }
    const limited = await c.payout({}, { ip });
    const body = expectError(limited, 429, "IP_RATE_LIMITED");
    expect(body.retry_after).toBe(3600);
    expect(body.message).toContain("advance the clock by 3600 seconds");
    expect(limited.headers.get("retry-after")).toBeNull();
    // Another IP of the same merchant, and another merchant from the same IP, are unaffected.
    expect((await c.payout({}, { ip: "203.0.113.10" })).status).toBe(201);
    expect((await other.payout({}, { ip })).status).toBe(201);
    // Other payout endpoints are not attempts.
    expect((await c.call("GET", "/api/v1/payout/banks", { ip })).status).toBe(200);
    await c.advance("1h");
    expect((await c.payout({}, { ip })).status).toBe(201);
  });

  // On a realtime clock the caps still count on the merchant's clock, but retry_after (and Retry-After) is
  // in real seconds, ceil(sim seconds / speed): a client that sleeps exactly that long gets in.
  for (const [cap, limits] of [
    ["RATE_LIMITED", { payout_attempts_per_hour: 2, payout_attempts_per_ip_per_hour: 0 }],
    ["IP_RATE_LIMITED", { payout_attempts_per_hour: 0, payout_attempts_per_ip_per_hour: 2 }],
  ] as const) {
    it(`${cap} on a realtime clock at speed 60: Retry-After is real seconds, and waiting exactly that long gets in`, async () => {
      const h = harness();
      const c = client(await h.merchant({ limits, clock: { mode: "realtime", speed: 60 } }));
      // Refused attempts count too, and leave no settlement timers behind.
      expectError(await c.call("POST", TRANSFER, { body: { amount: -1 } }), 422, "VALIDATION_ERROR");
      h.wall.now += 10_000; // 10 sim minutes
      expectError(await c.call("POST", TRANSFER, { body: { amount: -1 } }), 422, "VALIDATION_ERROR");
      h.wall.now += 5_000;
      const limited = await c.payout();
      const body = expectError(limited, 429, cap);
      expect(body.retry_after).toBe(45); // 45 sim minutes left of the first attempt's hour, at 60x
      expect(limited.headers.get("retry-after")).toBe("45");
      expect(body.message).toMatch(/ Retry in 45 s\.$/);
      h.wall.now += 44_000;
      expectError(await c.payout(), 429, cap);
      h.wall.now += 1_000;
      expect((await c.payout()).status).toBe(201);
    });
  }

  it("a request refused by the merchant cap does not use up the IP's allowance", async () => {
    const c = client(await harness().merchant({ limits: { payout_attempts_per_hour: 1, payout_attempts_per_ip_per_hour: 2 } }));
    expect((await c.payout({}, { ip: "198.51.100.1" })).status).toBe(201);
    expectError(await c.payout({}, { ip: "198.51.100.1" }), 429, "RATE_LIMITED");
    expect(c.tenant.state.windows.payoutAttemptsByIp.get("198.51.100.1")).toHaveLength(1);
  });

  it("validates every field and names each bad one", async () => {
    const c = client(await harness().merchant());
    const res = await c.call("POST", TRANSFER, {
      body: { amount: 0, bank_code: "x", account_number: "123", account_name: "", bank_name: 5, reference: "has space" },
    });
    expectInvalid(res, ["account_name", "account_number", "amount", "bank_code", "bank_name", "reference"]);
    const missing = expectError(await c.call("POST", TRANSFER, { body: {} }), 422, "VALIDATION_ERROR");
    expect(missing.errors!.amount).toEqual(["The amount field is required."]);
    const decimals = expectError(await c.payout({ amount: 100.001 }), 422, "VALIDATION_ERROR");
    expect(decimals.errors!.amount).toEqual(["Must have at most two decimal places."]);
    // The same bad account number gets the same code from the transfer as from verify-account.
    const badDigit = expectError(await c.payout({ account_number: WRONG_DIGIT }), 422, "INVALID_ACCOUNT");
    const verified = expectError(await c.call("POST", "/api/v1/payout/verify-account", { body: { bank_code: "058", account_number: WRONG_DIGIT } }), 422, "INVALID_ACCOUNT");
    expect(badDigit.message).toBe(verified.message);
    expect(c.tenant.state.payouts.size).toBe(0);
  });
});

describe("GET /api/v1/payout/status", () => {
  it("returns the full record with processed_at, source and error", async () => {
    const c = client(await harness().merchant());
    const created = await c.payout({ reference: "st-1" });
    const res = await c.call("GET", "/api/v1/payout/status?reference=st-1");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { ...created.body.data, processed_at: null, source: "api", error: null } });
  });

  it("404 NOT_FOUND for an unknown reference, 422 without one", async () => {
    const c = client(await harness().merchant());
    expectError(await c.call("GET", "/api/v1/payout/status?reference=nope"), 404, "NOT_FOUND");
    expectError(await c.call("GET", "/api/v1/payout/status"), 422, "VALIDATION_ERROR");
  });
});

describe("payout settlement on the clock", () => {
  it("processing -> completed after the settlement delay, stamped at the due time", async () => {
    const c = client(await harness().merchant({ wallet_balance: 50_000 }));
    expect((await c.payout({ reference: "ok", amount: 10_000 })).body.data.status).toBe("processing");
    await c.advance(29);
    expect(await c.payoutStatus("ok")).toMatchObject({ status: "processing", processed_at: null, error: null });
    await c.advance(3_600); // well past the due time
    expect(await c.payoutStatus("ok")).toMatchObject({ status: "completed", processed_at: at(30), source: "api", error: null });
    expect(await c.balance()).toBe(50_000 - 10_100);
    expectLedgerConsistent(c.tenant);
  });

  it("the merchant's delays.payout_settlement_seconds sets the delay", async () => {
    const c = client(await harness().merchant({ delays: { payout_settlement_seconds: 600 } }));
    await c.processingPayout({ reference: "slow" });
    await c.advance(599);
    expect((await c.payoutStatus("slow")).status).toBe("processing");
    await c.advance(1);
    expect(await c.payoutStatus("slow")).toMatchObject({ status: "completed", processed_at: at(600) });
  });

  it("account ending 0001 fails at settlement: amount + fee returned as one reversal entry, error set", async () => {
    const c = client(await harness().merchant({ wallet_balance: 50_000 }));
    const created = await c.payout({ reference: "bad", amount: 10_000, account_number: "0123450001" });
    expect(created.status).toBe(201);
    expect(await c.balance()).toBe(39_900);
    await c.advance(30);
    expect(await c.payoutStatus("bad")).toMatchObject({
      status: "failed",
      processed_at: at(30),
      error: "Transfer failed at the beneficiary bank",
    });
    expect(await c.balance()).toBe(50_000);
    const reversal = c.tenant.state.ledger.at(-1)!;
    expect(reversal).toMatchObject({ kind: "payout_reversal", amount: 1_010_000, transaction_id: created.body.data.order_no, at: START + 30_000 });
    expectLedgerConsistent(c.tenant);
  });

  it("account ending 0000 fails as not found; ending 0002 stays processing until forced", async () => {
    const c = client(await harness().merchant());
    await c.processingPayout({ reference: "nf", account_number: "0123450000" });
    await c.processingPayout({ reference: "hold", account_number: "0123450002" });
    await c.advance("1d");
    expect(await c.payoutStatus("nf")).toMatchObject({ status: "failed", error: "Beneficiary account not found" });
    expect(await c.payoutStatus("hold")).toMatchObject({ status: "processing", processed_at: null });
    expect((await c.clock()).pending_timers).toBe(0);
    const done = await payoutLever(c, "hold", "complete");
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({ reference: "hold", status: "completed", processed_at: at(86_400) });
    expectLedgerConsistent(c.tenant);
  });
});

describe("payouts held for approval", () => {
  const held = { limits: { payout_review_threshold: 10_000 }, wallet_balance: 100_000 };

  it("pending_approval has no settlement timer; approve -> processing -> completed after the delay from approval", async () => {
    const c = client(await harness().merchant(held));
    expect((await c.payout({ reference: "big", amount: 10_000 })).body.data.status).toBe("pending_approval");
    await c.advance(3_600);
    expect((await c.payoutStatus("big")).status).toBe("pending_approval");
    expect(await c.balance()).toBe(100_000 - 10_100); // reserved at creation
    const approved = await payoutLever(c, "big", "approve");
    expect(approved.body.data).toMatchObject({ status: "processing", processed_at: null });
    await c.advance(30);
    expect(await c.payoutStatus("big")).toMatchObject({ status: "completed", processed_at: at(3_600 + 30) });
    expectLedgerConsistent(c.tenant);
  });

  it("reject -> failed with the funds returned and a reason", async () => {
    const c = client(await harness().merchant(held));
    await c.payout({ reference: "r1", amount: 10_000 });
    await c.payout({ reference: "r2", amount: 10_000 });
    const rejected = await payoutLever(c, "r1", "reject");
    expect(rejected.body.data).toMatchObject({ status: "failed", error: "Rejected by an administrator", processed_at: at(0) });
    const custom = await payoutLever(c, "r2", "reject", { reason: "Suspicious beneficiary" });
    expect(custom.body.data.error).toBe("Suspicious beneficiary");
    expect(await c.balance()).toBe(100_000);
    expectLedgerConsistent(c.tenant);
  });
});

describe("forcing payouts and invalid transitions", () => {
  it("fail lever on a processing payout returns the funds and cancels its timer", async () => {
    const c = client(await harness().merchant({ wallet_balance: 20_000 }));
    await c.processingPayout({ reference: "f1", amount: 10_000 });
    expect((await c.clock()).pending_timers).toBe(1);
    const failed = await payoutLever(c, "f1", "fail", { reason: "Bank timeout" });
    expect(failed.body.data).toMatchObject({ status: "failed", error: "Bank timeout" });
    expect((await c.clock()).pending_timers).toBe(0);
    expect(await c.balance()).toBe(20_000);
    await c.advance(60);
    expect((await c.payoutStatus("f1")).status).toBe("failed");
    expect(c.tenant.state.ledger.filter((e) => e.kind === "payout_reversal")).toHaveLength(1);
    expectLedgerConsistent(c.tenant);
  });

  it("every transition the state does not allow is 409 INVALID_STATE naming the current state", async () => {
    const c = client(await harness().merchant({ limits: { payout_review_threshold: 50_000 } }));
    await c.payout({ reference: "done", amount: 10_000 });
    await payoutLever(c, "done", "complete");
    await c.payout({ reference: "held", amount: 60_000 });
    await c.payout({ reference: "proc", amount: 10_000 });
    for (const [ref, action, state] of [
      ["done", "approve", "completed"],
      ["done", "complete", "completed"],
      ["done", "fail", "completed"],
      ["done", "reject", "completed"],
      ["held", "complete", "pending_approval"],
      ["held", "fail", "pending_approval"],
      ["proc", "approve", "processing"],
      ["proc", "reject", "processing"],
    ] as const) {
      const body = expectError(await payoutLever(c, ref, action), 409, "INVALID_STATE");
      expect(body.message).toContain(state);
    }
    await payoutLever(c, "proc", "fail");
    expect(expectError(await payoutLever(c, "proc", "complete"), 409, "INVALID_STATE").message).toContain("failed");
    expectError(await payoutLever(c, "nope", "approve"), 404, "NOT_FOUND");
    expectLedgerConsistent(c.tenant);
  });
});

describe("payout outcome rules", () => {
  it("failed with delay_seconds, matched by reference, consumed by times", async () => {
    const c = client(await harness().merchant());
    await c.rule({ target: "payout", match: { reference: "doomed" }, outcome: "failed", delay_seconds: 120, times: 1 });
    await c.processingPayout({ reference: "fine" });
    await c.processingPayout({ reference: "doomed" });
    await c.advance(119);
    expect((await c.payoutStatus("fine")).status).toBe("completed");
    expect((await c.payoutStatus("doomed")).status).toBe("processing");
    await c.advance(1);
    expect(await c.payoutStatus("doomed")).toMatchObject({ status: "failed", processed_at: at(120) });
    expect(await c.rules()).toEqual([]);
  });

  it("processing holds until forced; the newest matching rule wins; completed overrides a magic account", async () => {
    const c = client(await harness().merchant());
    await c.rule({ target: "payout", outcome: "processing" });
    await c.rule({ target: "payout", match: { account_number: "0123450001" }, outcome: "completed" });
    await c.processingPayout({ reference: "magic", account_number: "0123450001" });
    await c.processingPayout({ reference: "held" });
    await c.advance("1d");
    expect((await c.payoutStatus("magic")).status).toBe("completed");
    expect((await c.payoutStatus("held")).status).toBe("processing");
  });

  it("a failed payout no longer counts toward the hourly amount limit", async () => {
    const c = client(await harness().merchant({ limits: { payout_hourly_amount: 15_000 } }));
    await c.processingPayout({ reference: "a", amount: 10_000, account_number: "0123450001" });
    expectError(await c.payout({ reference: "b", amount: 10_000 }), 422, "HOURLY_LIMIT_EXCEEDED");
    await c.advance(30); // "a" fails and gives its amount back
    expect((await c.payout({ reference: "b", amount: 10_000 })).status).toBe(201);
  });
});
