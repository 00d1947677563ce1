/**
 * What the OpenAPI document says about snapshots: descriptions and examples. The example snapshot is
 * a real one: GET /sandbox/v1/snapshot of a merchant just signed up with NGN 50,000 (see
 * control-docs.ts for the contract the examples keep).
 */
import { errorExample, type Examples } from "../http/openapi.js";
import { validationError } from "./errors.js";

const CREATED = 1772442000000; // 2026-03-02T09:00:00.000Z

/** A small merchant, as GET /sandbox/v1/snapshot returned it: settings, a manual clock, one ledger entry. */
const SMALL_SNAPSHOT = {
  format: "merchant-sandbox/v1",
  merchant: {
    merchant_id: "mch_dwnMUWEzGGPy5t",
    api_key: "pk_test_qougX4vNOhv20iQcq5F6dfPk",
    api_secret: "sk_test_kwe8cuIYeB4rxRjONymHzuXm7GjQL07B",
    webhook_secret: "whsec_bYzr6euVnnrXbA4F5Pj0PDhBtoCBDS4m",
    business_name: "Ada's Kitchen",
    capabilities: { payouts: true, vtu: true, virtual_cards: true, checkout: true },
    kyc: { bvn: null, nin: null },
    ip_allowlist: [],
    webhook_url: null,
    webhook_capture: { fail_first: 0 },
    limits: {
      payout_min: 10000,
      payout_max: 500000000,
      payout_hourly_amount: 2000000000,
      payout_daily_amount: 10000000000,
      payout_attempts_per_hour: 100,
      payout_attempts_per_ip_per_hour: 20,
      payout_review_threshold: 100000000,
      requests_per_minute: 1000,
    },
    card_funding_fee: 100,
    usd_ngn_rate: 1600,
    clock: { mode: "manual", speed: 1 },
    delays: { payout_settlement_seconds: 30, vtu_settlement_seconds: 60, kyc_approval_seconds: 120 },
    webhook: { signature_algorithm: "sha256", signature_encoding: "hex", timeout_seconds: 10, retry_schedule_seconds: [60, 300, 1800, 7200, 21600, 86400] },
    created_at: CREATED,
    scenario_origin: null,
  },
  clock: { mode: "manual", speed: 1, now: CREATED },
  state: {
    ledger: [
      {
        entry_id: 1,
        at: CREATED,
        kind: "wallet_funding",
        amount: 5000000,
        balance_after: 5000000,
        transaction_id: "TXN_21DBLN3AMMKM9U6U",
        description: "Opening balance (sandbox)",
      },
    ],
    virtual_accounts: [],
    va_payments: [],
    checkouts: [],
    payouts: [],
    vtu: [],
    cardholders: [],
    cards: [],
    card_transactions: [],
    sequences: { cardholder: 0, card: 0, timer: 0, rule: 0, captured: 0 },
    timers: [],
    outcome_rules: [],
    events: [],
    outbox: [],
    held_events: [],
    deliveries: [],
    timeline: [],
    incidents: [],
    windows: {
      payout_attempts: [],
      payout_attempts_by_ip: [],
      payout_volume: { entries: [], dayStart: 0, hourStart: 0, daySum: 0, hourSum: 0 },
    },
  },
};

const FORMAT = `
The document (\`format: "merchant-sandbox/v1"\`, the format of \`--data\` files) has \`merchant\` (its settings and
keys), \`clock\` (\`mode\`, \`speed\`, \`now\`) and \`state\`: the ledger, every object, the events and webhook
deliveries, the outcome rules, the pending timers, the scenario timeline, the incidents and the payout limit windows (on the
merchant's clock; the per-minute request count runs on the wall clock and is not saved, and a \`windows.minute\` from
an older file is ignored).
It is the sandbox's storage format, not the API's: amounts are integers in minor units (kobo; cents for cards),
times are milliseconds since the epoch, and the merchant's Naira limits are in kobo too.`.trim();

// ---- GET /sandbox/v1/snapshot --------------------------------------------------------------------

export const READ_DESCRIPTION = `
Exports the calling merchant as one JSON document: everything needed to restore it with PUT
/sandbox/v1/snapshot, into this merchant or another. Use it to save a prepared state once and start many tests
from it, or to attach the exact state to a bug report.

${FORMAT}

The snapshot holds the merchant's keys and webhook secret: keep it as private as the keys.`.trim();

export const READ_RESPONSE_EXAMPLES: Examples = {
  snapshot: { summary: "A merchant just signed up with NGN 50,000 (one ledger entry)", value: { success: true, data: SMALL_SNAPSHOT } },
};

// ---- PUT /sandbox/v1/snapshot --------------------------------------------------------------------

export const RESTORE_DESCRIPTION = `
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
snapshot into another only once the first is deleted or reset. The body may be up to 5 MB (\`--snapshot-limit-mb\`;
413 \`PAYLOAD_TOO_LARGE\` beyond). With \`--shared\`, a \`webhook_url\` naming a loopback or private address is refused
(422 on \`merchant.webhook_url\`).

${FORMAT}

**On the demo merchant** (as /docs "try it" calls it), the example replaces the demo's sample activity with the
small merchant's state (\`Ada's Kitchen\`, NGN 50,000, a manual clock at 2026-03-02T09:00:00Z). The demo's own
state comes back when the demo merchant is created again (at the next start without \`--data\`, or once it is
deleted with DELETE /sandbox/v1/merchant).`.trim();

export const RESTORE_BODY_EXAMPLES: Examples = {
  restore: { summary: "The data of GET /sandbox/v1/snapshot for a small merchant", value: SMALL_SNAPSHOT },
  brokenLedger: {
    summary: "A ledger entry whose balance_after does not add up",
    value: { ...SMALL_SNAPSHOT, state: { ...SMALL_SNAPSHOT.state, ledger: [{ ...SMALL_SNAPSHOT.state.ledger[0]!, balance_after: 4000000 }] } },
  },
};

export const RESTORE_RESPONSE_EXAMPLES: Examples = {
  restore: { summary: "Restored", value: { success: true, message: "Snapshot restored" } },
};

export const RESTORE_ERRORS = {
  413: {
    payloadTooLarge: errorExample("A snapshot over --snapshot-limit-mb", "PAYLOAD_TOO_LARGE", "The request body is larger than 5 MB (--snapshot-limit-mb)."),
  },
  422: {
    brokenLedger: validationError("The ledger does not add up", "state.ledger.0.balance_after", "must be 5000000, the running total of the amounts"),
    notASnapshot: errorExample("Not a snapshot (here an empty object)", "VALIDATION_ERROR", "The given data was invalid.", {
      errors: {
        format: ['Invalid input: expected "merchant-sandbox/v1"'],
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
};
