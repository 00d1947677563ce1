import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { describedEntries, describer, keptEntries } from "../../src/domain/ledger.js";
import { createPayout, failPayout } from "../../src/domain/payouts.js";
import { fromSnapshot, parseSnapshot, shownSnapshot, toSnapshot } from "../../src/domain/snapshot.js";
import { client } from "../client.js";
import { harness } from "../helpers.js";
import { receiveTransfer } from "../../src/domain/va-payments.js";
import { toMinor } from "../../src/domain/money.js";
import { payoutRequest, setup, withAccount } from "./context.js";

/** The texts a payout's entries carried when they were kept on the entry: the oracle. */
const storedBefore = (reference: string, bankName: string, accountNumber: string) => [
  `Payout ${reference} to ${bankName} ****${accountNumber.slice(-4)}`,
  `Payout fee ${reference}`,
];

function paidOut(n = 1) {
  const s = setup({ balance: 100_000 });
  const payouts = Array.from({ length: n }, (_, i) => createPayout(s.ctx, s.state, payoutRequest({ reference: `inv-${i}`, amount: 10_000 + i })));
  return { ...s, payouts };
}

const documentOf = ({ ctx, state }: ReturnType<typeof setup>) => shownSnapshot(ctx.config, { mode: "manual", speed: 1, now: ctx.now }, state);

describe("a payout's ledger entries", () => {
  it("keep no description, and show the one made from the payout, as the entry used to keep it", () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z0-9_-]{1,30}$/),
        fc.integer({ min: 10_000, max: 5_000_000 }),
        (reference, amount) => {
          const { ctx, state } = setup({ balance: 100_000 });
          const payout = createPayout(ctx, state, payoutRequest({ reference, amount }));
          const entries = state.ledger.filter((e) => e.transaction_id === payout.order_no);
          expect(entries.map((e) => e.description)).toEqual([undefined, undefined]);
          expect(entries.map(describer(state))).toEqual(storedBefore(reference, payout.bank_name, payout.account_number));
        },
      ),
      { numRuns: 100 },
    );
  });

  it("an inbound transfer's entry keeps none either, and shows the one made from the payment", () => {
    fc.assert(
      fc.property(fc.option(fc.stringMatching(/^[A-Z][A-Za-z .'-]{0,60}$/), { nil: undefined }), fc.integer({ min: 1, max: 1_000_000 }), (payer_name, naira) => {
        const { ctx, state, account } = withAccount();
        const payment = receiveTransfer(ctx, state, { account_number: account.account_number, amount: toMinor(naira), narration: "INV-1", payer_name });
        const entry = state.ledger.at(-1)!;
        expect(entry).toMatchObject({ kind: "va_payment", transaction_id: payment.transaction_id, description: undefined });
        expect(describer(state)(entry)).toBe(`Transfer into ${payment.virtual_account} from ${payment.payer_name}`);
      }),
      { numRuns: 50 },
    );
  });

  it("keep the description of every other entry, a reversal's included", () => {
    const { ctx, state, payouts } = paidOut();
    failPayout(ctx, state, payouts[0]!.reference, "Rejected by an administrator");
    const kept = state.ledger.filter((e) => e.kind !== "payout" && e.kind !== "payout_fee");
    expect(kept.map((e) => e.kind)).toEqual(["wallet_funding", "payout_reversal"]);
    expect(kept.every((e) => typeof e.description === "string")).toBe(true);
  });

  it("are written out whole in the snapshot the API shows, and kept without their texts", () => {
    const s = paidOut(3);
    const shown = documentOf(s);
    const describe = describer(s.state);
    expect(shown.state.ledger.map((e) => e.description)).toEqual(s.state.ledger.map(describe));
    expect(shown.state.ledger.every((e) => typeof e.description === "string")).toBe(true);
    expect(toSnapshot(s.ctx.config, { mode: "manual", speed: 1, now: s.ctx.now }, s.state).state.ledger.filter((e) => e.description === undefined)).toHaveLength(6);
  });

  it("load from a document that has their descriptions (the snapshot API's, or a file written before) without keeping them", () => {
    const s = paidOut(2);
    const shown = JSON.parse(JSON.stringify(documentOf(s)));
    const parsed = parseSnapshot(shown);
    if ("error" in parsed) expect.fail(parsed.error);
    const { state } = fromSnapshot(parsed.snapshot);
    expect(state.ledger.filter((e) => e.description !== undefined).map((e) => e.kind)).toEqual(["wallet_funding"]);
    expect(JSON.parse(JSON.stringify(documentOf({ ctx: s.ctx, state })))).toEqual(shown);
  });

  it("keep a description that differs from the payout's text (a file edited by hand) as it is", () => {
    const { state } = paidOut();
    const edited = state.ledger.map((e) => (e.kind === "payout" ? { ...e, description: "Rent for March" } : e));
    const kept = keptEntries(describedEntries(edited, state), state);
    expect(kept.map((e) => e.description)).toEqual(["Wallet funding (sandbox)", "Rent for March", undefined]);
  });

  it("without a description, are refused when their payout is not in the document", () => {
    const s = paidOut();
    const doc = JSON.parse(JSON.stringify(toSnapshot(s.ctx.config, { mode: "manual", speed: 1, now: s.ctx.now }, s.state)));
    const withoutPayout = { ...doc, state: { ...doc.state, payouts: [], timers: [], windows: { ...doc.state.windows, payout_volume: { entries: [], dayStart: 0, hourStart: 0, daySum: 0, hourSum: 0 } } } };
    expect(parseSnapshot(withoutPayout)).toMatchObject({ path: "state.ledger.1.description", error: expect.stringContaining(`no payout has order_no ${s.payouts[0]!.order_no}`) });
    const funding = { ...doc, state: { ...doc.state, ledger: doc.state.ledger.map((e: { kind: string }) => (e.kind === "wallet_funding" ? { ...e, description: undefined } : e)) } };
    expect(parseSnapshot(JSON.parse(JSON.stringify(funding)))).toMatchObject({ path: "state.ledger.0.description", error: "is needed for an entry of kind wallet_funding" });
  });

  it("without a description, an inbound transfer's entry is refused when its payment is not in the document", () => {
    const { ctx, state, account } = withAccount();
    const payment = receiveTransfer(ctx, state, { account_number: account.account_number, amount: toMinor(500), narration: "INV-9" });
    const doc = JSON.parse(JSON.stringify(toSnapshot(ctx.config, { mode: "manual", speed: 1, now: ctx.now }, state)));
    doc.state.va_payments = [];
    doc.state.events = [];
    doc.state.outbox = [];
    expect(parseSnapshot(doc)).toMatchObject({ path: "state.ledger.0.description", error: `is needed: no payment of va_payments has ${payment.transaction_id}` });
  });

  it("name one payout: two payouts with one order_no are refused", () => {
    const s = paidOut(2);
    const doc = JSON.parse(JSON.stringify(documentOf(s)));
    doc.state.payouts[1].order_no = doc.state.payouts[0].order_no;
    expect(parseSnapshot(doc)).toMatchObject({ path: "state.payouts.1.order_no", error: `duplicate order_no ${doc.state.payouts[0].order_no}` });
  });

  it("read through the API as before: GET /sandbox/v1/wallet/ledger", async () => {
    const c = client(await harness().merchant({ wallet_balance: 10_000 }));
    const res = await c.call("POST", "/api/v1/payout/transfer", { body: { amount: 1_500, bank_code: "058", account_number: "0000000018", account_name: "EZE FUNMILAYO IBRAHIM", bank_name: "Guaranty Trust Bank", reference: "rent-march" } });
    expect(res.status).toBe(201);
    expect((await c.ledger()).slice(1).map((e: { description: string }) => e.description)).toEqual(storedBefore("rent-march", "Guaranty Trust Bank", "0000000018"));
  });
});

