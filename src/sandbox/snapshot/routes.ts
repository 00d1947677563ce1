/**
 * The snapshot's contract: export and restore a merchant's whole state as one JSON document (the format
 * of `--data` files). The example is a real snapshot, made by the rules that make merchants and documents.
 */
import { z } from "@hono/zod-openapi";
import { newMerchantConfig } from "../../domain/merchant.js";
import { SNAPSHOT_FORMAT, SnapshotSchema, toSnapshot } from "../../domain/snapshot.js";
import { emptyState } from "../../domain/state.js";
import { megabytes, SNAPSHOT_LIMIT_BYTES } from "../../http/body-limit.js";
import { AT } from "../../http/demo-examples.js";
import { errorExample, json } from "../../http/openapi.js";
import { routes, Success } from "../../http/route.js";
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
    ledger: [
      {
        entry_id: 1,
        at: CREATED,
        kind: "wallet_funding",
        amount: OPENING,
        balance_after: OPENING,
        transaction_id: "TXN_21DBLN3AMMKM9U6U",
        description: "Opening balance (sandbox)",
      },
    ],
  },
);

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
      snapshot: { summary: "A merchant just signed up with NGN 50,000 (one ledger entry)", value: { success: true, data: SMALL_SNAPSHOT } },
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
