import { describe, expect, it } from "vitest";
import { createCheckout, payCheckout } from "../../src/domain/checkout.js";
import { deliveryView, emit, EVENT_PAYLOADS, EVENT_TYPES, eventView, testEvent, WebhookEventRecord, type WebhookEvent } from "../../src/domain/events.js";
import { toMinor } from "../../src/domain/money.js";
import { completePayout, createPayout, rejectPayout } from "../../src/domain/payouts.js";
import { receiveTransfer } from "../../src/domain/va-payments.js";
import { busyMerchant, payoutRequest, setup, T0, withAccount } from "./context.js";

/** `data` holds exactly what its type's schema describes: parsing keeps every field and adds none. */
function expectConforms(event: WebhookEvent) {
  expect(EVENT_PAYLOADS[event.type].parse(event.data)).toEqual(event.data);
  expect(WebhookEventRecord.parse(event)).toEqual(event);
}

describe("emit", () => {
  it("stores the event, pending and unattempted, and queues it in the outbox", () => {
    const { ctx, state } = setup();
    const data = { reference: "r", amount: 1, currency: "NGN", virtual_account: "0000000018", payer_name: "A", payer_bank: "B", transaction_id: "TXN_1", status: "successful" } as const;
    const event = emit(ctx, state, "payment.received", "TXN_1", data);
    expect(event).toEqual({
      id: expect.stringMatching(/^EVT_[0-9A-Z]{16}$/),
      type: "payment.received",
      transaction_id: "TXN_1",
      data,
      created_at: T0,
      status: "pending",
      attempts: 0,
      scheduled_attempts: 0,
      next_attempt_at: null,
      error: null,
    });
    expect(state.events.get(event.id)).toBe(event);
    expect(state.outbox).toEqual([event.id]);
  });
});

describe("event payloads", () => {
  it("payment.received is exactly the spec's table", () => {
    const { ctx, state, account } = withAccount();
    const p = receiveTransfer(ctx, state, { account_number: account.account_number, amount: toMinor(1_234.56), narration: "INV-1" });
    const [event] = state.events.values();
    expect(event!.data).toEqual({
      reference: "INV-1",
      amount: 1_234.56,
      currency: "NGN",
      virtual_account: account.account_number,
      payer_name: "OKAFOR CHINEDU EMMANUEL",
      payer_bank: "Guaranty Trust Bank",
      transaction_id: p.transaction_id,
      status: "successful",
    });
    expectConforms(event!);
  });

  it("checkout.completed carries the link, its order_no and the payment time", () => {
    const { ctx, state } = setup();
    const c = createCheckout(ctx, state, { amount: toMinor(500), customer_email: "a@b.co" });
    ctx.now = T0 + 90_000;
    payCheckout(ctx, state, c.reference);
    const [event] = state.events.values();
    expect(event!.data).toEqual({
      reference: c.reference,
      amount: 500,
      currency: "NGN",
      description: null,
      customer_email: "a@b.co",
      customer_name: null,
      account_number: c.account_number,
      paid_at: "2026-01-05T09:01:30.000Z",
      transaction_id: c.transaction_id,
      order_no: c.transaction_id,
      status: "successful",
    });
    expectConforms(event!);
  });

  it("payout.completed and payout.failed carry the payout record under its order_no", () => {
    const { ctx, state } = setup({ balance: 5_000_000 });
    const ok = createPayout(ctx, state, payoutRequest({ reference: "ok", narration: "Rent" }));
    const big = createPayout(ctx, state, payoutRequest({ reference: "big", amount: toMinor(1_000_000) }));
    ctx.now = T0 + 30_000;
    completePayout(ctx, state, "ok");
    rejectPayout(ctx, state, "big");
    const [completed, failed] = state.events.values();
    expect(completed).toMatchObject({ type: "payout.completed", transaction_id: ok.order_no });
    expect(completed!.data).toEqual({
      reference: "ok",
      amount: 5_000,
      fee: 50,
      total_deducted: 5_050,
      net_amount: 5_000,
      currency: "NGN",
      account: "****0018",
      account_name: "EZE FUNMILAYO IBRAHIM",
      bank_name: "Guaranty Trust Bank",
      narration: "Rent",
      created_at: "2026-01-05T09:00:00.000Z",
      processed_at: "2026-01-05T09:00:30.000Z",
      error: null,
      transaction_id: ok.order_no,
      order_no: ok.order_no,
      status: "completed",
    });
    expect(failed).toMatchObject({ type: "payout.failed", transaction_id: big.order_no, data: { status: "failed", error: "Rejected by an administrator", fee: 1_000, total_deducted: 1_001_000 } });
    expectConforms(completed!);
    expectConforms(failed!);
  });

  it("every event a busy merchant emits conforms, and every type is covered", () => {
    const { state } = busyMerchant();
    const types = new Set<string>();
    for (const event of state.events.values()) {
      expectConforms(event);
      types.add(event.type);
    }
    expect(EVENT_TYPES).toEqual(["payment.received", "checkout.completed", "payout.completed", "payout.failed", "webhook.test"]);
    expect([...types].sort()).toEqual(["checkout.completed", "payment.received", "payout.failed"]);
  });

  it("a test event conforms, carries no money, and is stored without being queued (its sender delivers it)", () => {
    const { ctx, state } = setup();
    const event = testEvent(ctx, state);
    expectConforms(event);
    expect(event).toMatchObject({ type: "webhook.test", status: "pending", data: { status: "test", transaction_id: event.transaction_id } });
    expect(event.transaction_id).toMatch(/^TEST_/);
    expect(state.events.get(event.id)).toBe(event);
    expect(state.outbox).toEqual([]);
  });

  it("a payload with a field of the wrong shape is refused by its schema", () => {
    expect(EVENT_PAYLOADS["payout.completed"].safeParse({}).success).toBe(false);
    const { state } = busyMerchant();
    const [event] = state.events.values();
    expect(EVENT_PAYLOADS[event!.type].safeParse({ ...event!.data, status: "pending" }).success).toBe(false);
  });
});

describe("event views", () => {
  it("show times as ISO strings", () => {
    const { state } = busyMerchant();
    const [event] = state.events.values();
    expect(eventView(event!)).toEqual({
      id: event!.id,
      type: event!.type,
      transaction_id: event!.transaction_id,
      status: "held",
      attempts: 0,
      next_attempt_at: null,
      error: null,
      created_at: "2026-01-05T09:00:00.000Z",
      data: event!.data,
    });
    expect(deliveryView(state.deliveries[0]!)).toMatchObject({ sent_at: "2026-01-05T09:00:00.000Z", next_retry_at: null, outcome: "held" });
  });
});
