import { describe, expect, it } from "vitest";
import { fromSnapshot, parseSnapshot, SNAPSHOT_FORMAT, toSnapshot, type Snapshot } from "../../src/domain/snapshot.js";
import { emptyState } from "../../src/domain/state.js";
import { popDue } from "../../src/domain/timers.js";
import { busyMerchant, setup, T0 } from "./context.js";

/** The busy merchant as the JSON a `--data` file or GET /snapshot holds. */
function document(): Snapshot {
  const { ctx, state } = busyMerchant();
  return JSON.parse(JSON.stringify(toSnapshot(ctx.config, { mode: "manual", speed: 1, now: ctx.now }, state)));
}

describe("toSnapshot and fromSnapshot", () => {
  it("round-trip a merchant that used every part of the domain, through JSON and validation", () => {
    const doc = document();
    expect(doc.format).toBe(SNAPSHOT_FORMAT);
    for (const [key, value] of Object.entries(doc.state)) if (Array.isArray(value)) expect(value.length, key).toBeGreaterThan(0);
    const parsed = parseSnapshot(doc);
    if (!("snapshot" in parsed)) throw new Error(`${parsed.path}: ${parsed.error}`);
    const { config, clock, state } = fromSnapshot(parsed.snapshot);
    expect(clock).toEqual({ mode: "manual", speed: 1, now: T0 });
    expect(JSON.parse(JSON.stringify(toSnapshot(config, clock, state)))).toEqual(doc);
  });

  it("round-trip a new merchant's empty state", () => {
    const { ctx, state } = setup();
    const doc = toSnapshot(ctx.config, { mode: "manual", speed: 1, now: ctx.now }, state);
    const parsed = parseSnapshot(JSON.parse(JSON.stringify(doc)));
    expect("snapshot" in parsed && fromSnapshot(parsed.snapshot).state).toEqual(emptyState());
  });

  it("rebuilds the live indexes", () => {
    const { ctx, state: live } = busyMerchant();
    const { state } = fromSnapshot(toSnapshot(ctx.config, { mode: "manual", speed: 1, now: ctx.now }, live));
    expect(state.virtualAccountsByReference).toEqual(live.virtualAccountsByReference);
    expect(state.checkoutsByAccount).toEqual(live.checkoutsByAccount);
    expect(state.cardholdersByEmail).toEqual(live.cardholdersByEmail);
    expect(state.vaPayments).toEqual(live.vaPayments);
    expect(state.vaPaymentsByReference).toEqual(live.vaPaymentsByReference);
    expect(state.cardTransactions).toEqual(live.cardTransactions);
    expect(state.cardTransactions.get(2)).toEqual([]); // a card without transactions still has its list
    expect(state.windows.payoutAttemptsByIp).toEqual(live.windows.payoutAttemptsByIp);
    expect(state).toEqual(live);
  });

  it("gives the timers the merchant's own id", () => {
    const doc = document();
    doc.state.timers = doc.state.timers.map((t) => ({ ...t, merchantId: "mch_someone_else" }));
    const { state } = fromSnapshot(doc);
    expect(new Set(state.timers.map((t) => t.merchantId))).toEqual(new Set([doc.merchant.merchant_id]));
  });

  it("drops an older document's per-minute request window (sim times, meaningless on the wall clock the cap now counts) and writes none", () => {
    const doc = document() as unknown as { state: { windows: Record<string, unknown> } };
    expect(doc.state.windows).not.toHaveProperty("minute");
    doc.state.windows.minute = [T0 - 1_000, T0]; // as files written before held it
    const parsed = parseSnapshot(doc);
    if (!("snapshot" in parsed)) throw new Error(`${parsed.path}: ${parsed.error}`);
    expect(parsed.snapshot.state.windows).not.toHaveProperty("minute");
    expect(fromSnapshot(parsed.snapshot).state.windows).not.toHaveProperty("minute");
  });

  it("fills the defaults of fields older documents lack", () => {
    const doc = document() as unknown as { state: Record<string, unknown> & { sequences: Record<string, unknown> } };
    delete doc.state.timeline;
    delete doc.state.incidents;
    delete doc.state.sequences.captured;
    const parsed = parseSnapshot(doc);
    expect("snapshot" in parsed && parsed.snapshot.state).toMatchObject({ timeline: [], incidents: [], sequences: { captured: 0 } });
  });

  it("loads payments saved before transfers could arrive pending: no plan, and grouped by narration", () => {
    const doc = document();
    const first = doc.state.va_payments[0]!; // the success one: files before held no other kind
    const later = { ...first, transaction_id: "TXN_LATER", reference: "INV-2", created_at: T0 + 5_000 };
    const again = { ...first, transaction_id: "TXN_AGAIN", created_at: T0 + 9_000 };
    // Grouped by narration, as files before kept them (INV-1 twice, then INV-2), and without a plan.
    (doc.state as { va_payments: unknown[] }).va_payments = [first, again, later].map(({ plan: _plan, ...old }) => old);
    doc.state.timers = doc.state.timers.filter((t) => t.kind !== "va_payment.settle");
    const parsed = parseSnapshot(doc);
    if (!("snapshot" in parsed)) throw new Error(`${parsed.path}: ${parsed.error}`);
    const { state } = fromSnapshot(parsed.snapshot);
    expect([...state.vaPayments.values()].map((p) => [p.transaction_id, p.plan])).toEqual([
      [first.transaction_id, null],
      ["TXN_LATER", null],
      ["TXN_AGAIN", null],
    ]);
    expect(state.vaPaymentsByReference.get("INV-1")!.map((p) => p.transaction_id)).toEqual([first.transaction_id, "TXN_AGAIN"]);
  });
});

describe("integrity checks", () => {
  /** Breaks a valid document and returns the first refusal's path and message. */
  const refusal = (breakIt: (doc: Snapshot) => void) => {
    const doc = document();
    breakIt(doc);
    const result = parseSnapshot(doc);
    if ("snapshot" in result) throw new Error("the broken document was accepted");
    return result;
  };
  const twice = <T>(list: T[], i = 0) => list.push(structuredClone(list[i]!));

  it("the busy document itself passes", () => {
    expect("snapshot" in parseSnapshot(document())).toBe(true);
  });

  it("a record outside its own bounds is refused with its path", () => {
    expect(refusal((d) => (d.format = "v0" as typeof d.format)).path).toBe("format");
    expect(refusal((d) => (d.state.ledger[0]!.balance_after = -1)).path).toBe("state.ledger.0.balance_after");
    expect(refusal((d) => (d.clock.now = Date.UTC(9999, 0, 1))).path).toBe("clock.now");
  });

  it("the ledger chain: numbered from 1, each balance the running total", () => {
    expect(refusal((d) => (d.state.ledger[1]!.entry_id = 7))).toEqual({ path: "state.ledger.1.entry_id", error: "must be 2 (entries are numbered in order from 1)" });
    const bad = refusal((d) => (d.state.ledger[1]!.balance_after += 1));
    expect(bad.path).toBe("state.ledger.1.balance_after");
    expect(bad.error).toMatch(/^must be \d+, the running total of the amounts$/);
  });

  it("unique keys", () => {
    const cases: Array<[(d: Snapshot) => void, string]> = [
      [(d) => twice(d.state.virtual_accounts), "state.virtual_accounts.1.account_number"],
      [(d) => (d.state.checkouts[1]!.reference = d.state.checkouts[0]!.reference), "state.checkouts.1.reference"],
      [(d) => (d.state.checkouts[1]!.account_number = d.state.checkouts[0]!.account_number), "state.checkouts.1.account_number"],
      [(d) => (d.state.checkouts[0]!.account_number = d.state.virtual_accounts[0]!.account_number), "state.checkouts.0.account_number"],
      [(d) => twice(d.state.payouts), "state.payouts.3.reference"],
      [(d) => twice(d.state.vtu), "state.vtu.3.reference"],
      [(d) => (d.state.cardholders[1]!.email = "ADA@example.com"), "state.cardholders.1.email"],
      [(d) => (d.state.cardholders[1]!.cardholder_id = 1), "state.cardholders.1.cardholder_id"],
      [(d) => (d.state.cards[1]!.card_id = 1), "state.cards.1.card_id"],
      [(d) => twice(d.state.events), "state.events.3.id"],
      [(d) => twice(d.state.outcome_rules), "state.outcome_rules.1.id"],
      [(d) => twice(d.state.va_payments), "state.va_payments.2.transaction_id"],
    ];
    for (const [breakIt, path] of cases) expect(refusal(breakIt).path).toBe(path);
    expect(refusal((d) => twice(d.state.payouts)).error).toBe("duplicate reference po-processing");
    expect(refusal((d) => (d.state.checkouts[0]!.account_number = d.state.virtual_accounts[0]!.account_number)).error).toBe("is already a virtual account's number");
  });

  it("sequences never behind the ids in use", () => {
    const cases: Array<[keyof Snapshot["state"]["sequences"], number, string]> = [
      ["cardholder", 1, "must be at least 2, the highest cardholder number in use"],
      ["card", 1, "must be at least 2, the highest card number in use"],
      ["rule", 0, "must be at least 1, the highest rule number in use"], // rule_2 was used up by its one use
    ];
    for (const [name, value, error] of cases) expect(refusal((d) => (d.state.sequences[name] = value)), name).toEqual({ path: `state.sequences.${name}`, error });
    const timer = refusal((d) => (d.state.sequences.timer = 0));
    expect(timer.path).toBe("state.sequences.timer");
  });

  it("no dangling references", () => {
    const cases: Array<[(d: Snapshot) => void, string, string]> = [
      [(d) => (d.state.va_payments[0]!.virtual_account = "1234567890"), "state.va_payments.0.virtual_account", "names no virtual account"],
      [(d) => (d.state.cards[0]!.cardholder_id = 9), "state.cards.0.cardholder_id", "names no cardholder"],
      [(d) => (d.state.card_transactions[0]!.card_id = 9), "state.card_transactions.0.card_id", "names no card"],
      [(d) => d.state.outbox.push("EVT_GONE"), "state.outbox.2", "names no event"],
      [(d) => d.state.held_events.push("EVT_GONE"), "state.held_events.1", "names no event"],
      [(d) => (d.state.timeline[0]!.index = 1), "state.timeline.0.index", "must be 0"],
    ];
    for (const [breakIt, path, error] of cases) expect(refusal(breakIt)).toEqual({ path, error });
  });

  it("a pending or processing payment says how it ends", () => {
    expect(refusal((d) => (d.state.va_payments[1]!.plan = null))).toEqual({ path: "state.va_payments.1.plan", error: "is needed: a processing payment must say how it ends" });
  });

  it("the volume window: ordered starts and exact sums", () => {
    expect(refusal((d) => (d.state.windows.payout_volume.hourStart = 99))).toEqual({
      path: "state.windows.payout_volume",
      error: "window starts must satisfy dayStart <= hourStart <= the number of entries",
    });
    expect(refusal((d) => (d.state.windows.payout_volume.dayStart = 1)).path).toBe("state.windows.payout_volume");
    expect(refusal((d) => (d.state.windows.payout_volume.daySum += 1))).toEqual({
      path: "state.windows.payout_volume.daySum",
      error: "must be the sum of the counted entries in the day window",
    });
    expect(refusal((d) => (d.state.windows.payout_volume.hourSum -= 1)).path).toBe("state.windows.payout_volume.hourSum");
    expect(refusal((d) => (d.state.windows.payout_volume.entries[2]!.counted = true)).path).toBe("state.windows.payout_volume.daySum");
  });

  // Fails today: fromSnapshot takes the timers array as the heap itself and nothing checks its order,
  // so a due timer below a later root is never popped (popDue looks at the root only).
  it("timers listed in any order load as a heap: the due ones pop first (or the document is refused)", () => {
    const doc = document();
    const inOrder = [...doc.state.timers].sort((a, b) => a.at - b.at || a.seq - b.seq);
    expect(inOrder.map((t) => [t.kind, t.at - T0])).toEqual([
      ["payout.settle", 30_000],
      ["vtu.settle", 60_000],
      ["timeline.run", 60_000],
      ["va_payment.settle", 300_000],
    ]);
    doc.state.timers = [...inOrder].reverse(); // a valid listing, just not the heap's own order
    const parsed = parseSnapshot(doc);
    if (!("snapshot" in parsed)) {
      expect(parsed.path).toMatch(/^state\.timers/);
      return;
    }
    const { state } = fromSnapshot(parsed.snapshot);
    // The payout's settlement is due at T0 + 30 s: it must come out of the heap then.
    expect(popDue(state, T0 + 30_000)).toEqual(inOrder[0]);
    expect([popDue(state, T0 + 60_000), popDue(state, T0 + 60_000)]).toEqual(inOrder.slice(1, 3));
  });
});
