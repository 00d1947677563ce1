/**
 * The snapshot's contract: export and restore a merchant's whole state as one JSON document (the format
 * of `--data` files). The examples are real snapshots (GET's the demo merchant's, its lists cut to their
 * first record; PUT's a small merchant's), made by the rules that make merchants and documents.
 */
import { z } from "@hono/zod-openapi";
import { CARD_VALIDITY_YEARS } from "../../domain/cards.js";
import { newMerchantConfig } from "../../domain/merchant.js";
import { SNAPSHOT_FORMAT, SnapshotSchema, toSnapshot, type Snapshot } from "../../domain/snapshot.js";
import { emptyState } from "../../domain/state.js";
import { CAPTURE_URL, CAPTURED } from "../../domain/webhook-policy.js";
import { megabytes, SNAPSHOT_LIMIT_BYTES } from "../../http/body-limit.js";
import { AT, DEMO, DEMO_CONFIG, DEMO_HELD_PAYOUT, DEMO_PAYMENT_RECEIVED, DEMO_PAYMENTS, demoCheckoutRecord, SAMPLE } from "../../http/demo-examples.js";
import { errorExample, json } from "../../http/openapi.js";
import { routes, Success } from "../../http/route.js";
import { USER_AGENT } from "../../webhooks/dispatcher.js";
import { controlErrors, validationError } from "../errors.js";

const route = routes({ tags: ["Sandbox"] });

const Snapshot = SnapshotSchema.openapi("Snapshot");

/** What GET returns, PUT takes: the snapshot itself, or GET's whole `{ success, data }` body. */
const SnapshotBody = z.preprocess(
  (v) => (v !== null && typeof v === "object" && !("format" in v) && "data" in v ? (v as { data: unknown }).data : v),
  Snapshot,
);

const CREATED = Date.parse(AT);
const OPENING = 5000000;

/** A merchant's first ledger entry: its opening balance, in kobo. */
const openingEntry = (amount: number, transaction_id: string) => ({
  entry_id: 1,
  at: CREATED,
  kind: "wallet_funding" as const,
  amount,
  balance_after: amount,
  transaction_id,
  description: "Opening balance (sandbox)",
});

/** A merchant just signed up (default settings, a manual clock) with NGN 50,000, as GET /sandbox/v1/snapshot returned it. */
const SMALL_MERCHANT = newMerchantConfig(
  {
    merchant_id: "mch_dwnMUWEzGGPy5t",
    api_key: "pk_test_qougX4vNOhv20iQcq5F6dfPk",
    api_secret: "sk_test_kwe8cuIYeB4rxRjONymHzuXm7GjQL07B",
    webhook_secret: "whsec_bYzr6euVnnrXbA4F5Pj0PDhBtoCBDS4m",
  },
  { business_name: "Ada's Kitchen", webhook_capture: { fail_first: 0 } },
  "manual",
  CREATED,
);
const SMALL_SNAPSHOT = toSnapshot(
  SMALL_MERCHANT,
  { ...SMALL_MERCHANT.clock, now: CREATED },
  {
    ...emptyState(),
    ledger: [openingEntry(OPENING, "TXN_21DBLN3AMMKM9U6U")],
  },
);

const checkout = demoCheckoutRecord("pending");
const { reference, payer_name, payer_bank, transaction_id } = DEMO_PAYMENTS.cleared;
const NONCE = "2ff4fd3185f655010087054ee5706522";
const SIGNATURE = "d91fa49c520c38986001eb97cd379a2e990f807e7bc787a4f5af71d124e7692a";
const HELD = DEMO_HELD_PAYOUT;

/**
 * The demo merchant after its sample activity (fixtures/demo-activity.json), as GET /sandbox/v1/snapshot
 * returns it, each list cut to its first record: the settings and clock by the rules that make them, the
 * records as the activity made them (amounts in kobo, times in ms).
 */
const DEMO_BASE = toSnapshot(DEMO_CONFIG, { ...DEMO_CONFIG.clock, now: CREATED }, emptyState());
const DEMO_SNAPSHOT: Snapshot = {
  ...DEMO_BASE,
  state: {
    ...DEMO_BASE.state,
    ledger: [openingEntry(250000000, "TXN_WZ92IQRBTB1VTM0L")],
    virtual_accounts: [
      {
        account_number: DEMO.virtualAccount,
        account_name: "Mama Put Foods Ltd-Ada Obi",
        bank_name: checkout.bank_name,
        customer_type: "individual",
        customer_name: "Ada Obi",
        customer_email: SAMPLE.email,
        reference: SAMPLE.virtualAccountReference,
        status: "Enabled",
        created_at: CREATED,
        identity: { type: "bvn", value: DEMO_CONFIG.kyc.bvn!, source: "customer" },
      },
    ],
    va_payments: [
      { reference, amount: 500000, currency: "NGN", status: "success", payer_name, payer_bank, virtual_account: DEMO.virtualAccount, transaction_id, created_at: CREATED, plan: null },
    ],
    checkouts: [
      {
        reference: checkout.reference,
        transaction_id: checkout.transaction_id,
        amount: 1250000,
        description: checkout.description,
        status: "pending",
        customer_email: checkout.customer_email,
        customer_name: null,
        redirect_url: null,
        paid_at: null,
        account_number: checkout.account_number,
        account_name: checkout.account_name,
        bank_name: checkout.bank_name,
        created_at: CREATED,
        expires_at: Date.parse(checkout.expires_at),
      },
    ],
    payouts: [
      {
        reference: HELD.reference,
        order_no: HELD.order_no,
        amount: 150000000,
        fee: 100000,
        total_deducted: 150100000,
        status: "pending_approval",
        bank_code: "058",
        bank_name: HELD.bank_name,
        account_number: "1002003003",
        account_name: HELD.account_name,
        narration: HELD.narration,
        source: "api",
        client_ip: "127.0.0.1",
        created_at: CREATED,
        processed_at: null,
        error: null,
        plan: { outcome: "completed", delay_ms: 30000, error: null, queries: null },
      },
    ],
    vtu: [
      {
        reference: DEMO.vtu,
        transaction_id: "TXN_N408IIWLSHCFE7TA",
        service: "airtime",
        amount: 50000,
        status: "processing",
        message: "Transaction is processing; poll the status endpoint for the final outcome.",
        description: "MTN VTU airtime of NGN 500.00 to 08055555555",
        token: null,
        pins: null,
        issues: null,
        created_at: CREATED,
        settled_at: null,
        details: { network: "mtn", phone: "08055555555", airtime_type: "VTU" },
        plan: { then: "hold", delay_ms: 60000, queries: null },
      },
    ],
    cardholders: [
      { cardholder_id: 1, first_name: "Ada", last_name: "Obi", full_name: "Ada Obi", email: SAMPLE.email, phone: "08031234567", kyc_status: "APPROVED", created_at: CREATED },
    ],
    cards: [
      {
        card_id: 1,
        cardholder_id: 1,
        brand: "VISA",
        pan: "4322487251412336",
        masked_pan: "4322 48** **** 2336",
        expiry_month: new Date(AT).getUTCMonth() + 1,
        expiry_year: new Date(AT).getUTCFullYear() + CARD_VALIDITY_YEARS,
        currency: "USD",
        balance: 10000,
        status: "active",
        label: SAMPLE.cardLabels[0],
        created_at: CREATED,
      },
    ],
    card_transactions: [
      {
        transaction_id: "TXN_IEFKR5ZGCF1RYSW5",
        card_id: 1,
        type: "funding",
        status: "success",
        amount: 10000,
        balance_after: 10000,
        description: "Card funding",
        merchant_name: null,
        decline_reason: null,
        created_at: CREATED,
      },
    ],
    sequences: { cardholder: 2, card: 3, timer: 2, rule: 1, captured: 1 },
    // The pending transfer settles a day later (its settle_after_seconds in the sample activity).
    timers: [{ at: CREATED + 86_400_000, seq: 2, kind: "va_payment.settle", merchantId: DEMO.merchantId, ref: DEMO.pendingPayment }],
    outcome_rules: [
      { id: DEMO.rule, target: "payout", match: { reference: SAMPLE.failingReference }, outcome: "failed", delay_seconds: null, times: null, window_seconds: null, queries: null, created_at: CREATED },
    ],
    events: [
      {
        id: DEMO.event,
        type: "payment.received",
        transaction_id,
        data: DEMO_PAYMENT_RECEIVED,
        created_at: CREATED,
        status: "delivered",
        attempts: 1,
        scheduled_attempts: 1,
        next_attempt_at: null,
        error: null,
      },
    ],
    deliveries: [
      {
        id: "DLV_4SFAJMJXPP2INF8B",
        event_id: DEMO.event,
        event_type: "payment.received",
        trigger: "initial",
        url: CAPTURE_URL,
        sent_at: CREATED,
        nonce: NONCE,
        request_headers: { "content-type": "application/json", "user-agent": USER_AGENT, "x-webhook-signature": SIGNATURE },
        request_body: JSON.stringify({ event: "payment.received", nonce: NONCE, sent_at: AT, data: DEMO_PAYMENT_RECEIVED }),
        ...CAPTURED,
        fault: null,
        next_retry_at: null,
        outcome: "delivered",
      },
    ],
    windows: {
      payout_attempts: [CREATED, CREATED],
      payout_attempts_by_ip: [{ ip: "127.0.0.1", times: [CREATED, CREATED] }],
      payout_volume: {
        entries: [
          { at: CREATED, reference: DEMO.heldPayout, amount: 150000000, counted: true },
          { at: CREATED, reference: DEMO.processingPayout, amount: 500000, counted: true },
        ],
        dayStart: 0,
        hourStart: 0,
        daySum: 150500000,
        hourSum: 150500000,
      },
    },
  },
};

const FORMAT = `
The document (\`format: "${SNAPSHOT_FORMAT}"\`, the format of \`--data\` files) has \`merchant\` (its settings and
keys), \`clock\` (\`mode\`, \`speed\`, \`now\`) and \`state\`: the ledger, every object, the events and webhook
deliveries, the outcome rules, the pending timers, the scenario timeline, the incidents and the payout limit windows (on the
merchant's clock; the per-minute request count runs on the wall clock and is not saved, and a \`windows.minute\` from
an older file is ignored).
It is the sandbox's storage format, not the API's: amounts are integers in minor units (kobo; cents for cards),
times are milliseconds since the epoch, and the merchant's Naira limits are in kobo too.`.trim();

export const read = route({
  method: "get",
  path: "/snapshot",
  operationId: "exportSnapshot",
  summary: "Export the merchant: settings, clock and every object, event and pending timer",
  description: `
Exports the calling merchant as one JSON document: everything needed to restore it with PUT
/sandbox/v1/snapshot, into this merchant or another. Use it to save a prepared state once and start many tests
from it, or to attach the exact state to a bug report.

${FORMAT}

The snapshot holds the merchant's keys and webhook secret: keep it as private as the keys.`.trim(),
  responses: {
    200: json(Success({ data: Snapshot }), "The snapshot", {
      snapshot: { summary: "The demo merchant after its sample activity (each list cut to its first record)", value: { success: true, data: DEMO_SNAPSHOT } },
    }),
    ...controlErrors(),
  },
});

const SNAPSHOT_LIMIT = megabytes(SNAPSHOT_LIMIT_BYTES);

export const restore = route({
  method: "put",
  path: "/snapshot",
  operationId: "importSnapshot",
  summary: "Replace the merchant's state, settings and clock with a snapshot (the caller's keys are kept)",
  description: `
Replaces the calling merchant's settings, state and clock with a snapshot from GET /sandbox/v1/snapshot (of this
merchant or of another) or a \`--data\` file. The body is GET's \`data\`, or GET's whole body as it came
(\`{ "success": true, "data": ... }\`).

- The caller keeps its own \`merchant_id\`, keys and webhook secret: those in the snapshot are ignored.
- Everything else is replaced: the settings, the wallet and its ledger, every object, the events and deliveries,
  the outcome rules and the pending timers, which then fire on the merchant's clock as they would have.
- The clock takes the snapshot's mode, speed and time, even an earlier time (the whole state goes back with it).

The whole document is checked as a \`--data\` file is: the bounds of every record, ledger running totals that add
up, unique keys, sequences ahead of the ids they hand out. An invalid snapshot gets 422 \`VALIDATION_ERROR\` naming
the path, and nothing changes. Account numbers and payment-link references are unique sandbox-wide: a snapshot
holding one that another merchant of this sandbox holds is refused (422 on \`state\`), so restore a merchant's
snapshot into another only once the first is deleted or reset. The body may be up to ${SNAPSHOT_LIMIT} (\`--snapshot-limit-mb\`;
413 \`PAYLOAD_TOO_LARGE\` beyond). With \`--shared\`, a \`webhook_url\` naming a loopback or private address is refused
(422 on \`merchant.webhook_url\`).

${FORMAT}

**On the demo merchant** (as /docs "try it" calls it), the example replaces the demo's sample activity with the
small merchant's state (\`Ada's Kitchen\`, NGN 50,000, a manual clock at 2026-03-02T09:00:00Z). The demo's own
state comes back when the demo merchant is created again (at the next start without \`--data\`, or once it is
deleted with DELETE /sandbox/v1/merchant).`.trim(),
  request: {
    body: {
      required: true,
      description: "The snapshot: the `data` of GET /sandbox/v1/snapshot, or that response's whole body as it came.",
      content: {
        "application/json": {
          schema: SnapshotBody,
          examples: {
            restore: { summary: "The data of GET /sandbox/v1/snapshot for a small merchant", value: SMALL_SNAPSHOT },
            brokenLedger: {
              summary: "A ledger entry whose balance_after does not add up",
              value: { ...SMALL_SNAPSHOT, state: { ...SMALL_SNAPSHOT.state, ledger: [{ ...SMALL_SNAPSHOT.state.ledger[0]!, balance_after: 4000000 }] } },
            },
          },
        },
      },
    },
  },
  responses: {
    200: json(Success({ message: z.string() }), "Restored", { restore: { summary: "Restored", value: { success: true, message: "Snapshot restored" } } }),
    ...controlErrors({
      413: {
        payloadTooLarge: errorExample("A snapshot over --snapshot-limit-mb", "PAYLOAD_TOO_LARGE", `The request body is larger than ${SNAPSHOT_LIMIT} (--snapshot-limit-mb).`),
      },
      422: {
        brokenLedger: validationError("The ledger does not add up", "state.ledger.0.balance_after", `must be ${OPENING}, the running total of the amounts`),
        notASnapshot: errorExample("Not a snapshot (here an empty object)", "VALIDATION_ERROR", "The given data was invalid.", {
          errors: {
            format: [`Invalid input: expected "${SNAPSHOT_FORMAT}"`],
            merchant: ["The merchant field is required."],
            clock: ["The clock field is required."],
            state: ["The state field is required."],
          },
        }),
        identifierTaken: validationError(
          "An account number or link reference another merchant holds",
          "state",
          "The snapshot holds account 5721596598, which another merchant of this sandbox holds; identifiers are unique sandbox-wide.",
        ),
      },
    }),
  },
});
