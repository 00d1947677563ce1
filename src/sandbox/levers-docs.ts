/**
 * What the OpenAPI document says about the money and KYC levers (wallet funding, the ledger, KYC
 * approval): descriptions and examples (real bodies; see control-docs.ts for the contract they keep).
 */
import { errorExample, type Examples } from "../http/openapi.js";
import { AT, DEMO } from "../http/demo-examples.js";
import { validationError } from "./errors.js";

export const balanceLimit = errorExample(
  "The credit would take the wallet past the sandbox's ceiling",
  "BALANCE_LIMIT_EXCEEDED",
  "This credit would take the wallet past the sandbox's ceiling of NGN 10,000,000,000,000; nothing was credited.",
);

// ---- POST /sandbox/v1/wallet/fund ----------------------------------------------------------------

export const FUND_DESCRIPTION = `
Credits the calling merchant's wallet, the sandbox's shortcut for topping it up before a test of payouts, VTU or
card funding (which get 422 \`INSUFFICIENT_BALANCE\` when the wallet cannot cover them). The credit is one ledger
entry of kind \`wallet_funding\` (see GET /sandbox/v1/wallet/ledger); no webhook is sent, no timer is set and the
clock does not move. Returns the new balance and the entry's \`transaction_id\`.

- \`amount\`: Naira, 0.01 to 100,000,000,000, at most two decimals.
- \`description\` (optional, 1 to 200 characters): the ledger entry's description. Default: \`Wallet funding (sandbox)\`.
- A wallet holds at most NGN 10,000,000,000,000: a credit past it gets 422 \`BALANCE_LIMIT_EXCEEDED\` and nothing
  is credited.

To make money arrive the way a customer's transfer does (with its \`payment.received\` webhook), use
POST /sandbox/v1/virtual-accounts/{account_number}/transfers instead.`.trim();

export const FUND_BODY_EXAMPLES: Examples = {
  topUp: { summary: "Add NGN 50,000 before a payout test", value: { amount: 50000, description: "Top-up for payout tests" } },
  tooManyDecimals: { summary: "An amount with three decimals", value: { amount: 10.555 } },
};

export const FUND_RESPONSE_EXAMPLES: Examples = {
  topUp: {
    summary: "The new balance",
    value: { success: true, data: { balance: 886850, currency: "NGN", updated_at: AT, transaction_id: "TXN_66WQ301SA53A0KGZ" } },
  },
};

export const FUND_ERRORS = {
  422: {
    tooManyDecimals: validationError("Amounts have at most two decimals", "amount", "Must have at most two decimal places."),
    balanceLimitExceeded: balanceLimit,
  },
};

// ---- GET /sandbox/v1/wallet/ledger ---------------------------------------------------------------

export const LEDGER_DESCRIPTION = `
The wallet's ledger, oldest first: every movement of money, append-only (an entry is never changed or removed;
a refund or reversal is a new entry). The wallet balance is the sum of the entries, and no \`balance_after\` is
ever negative. Use it to assert exactly what a flow charged or credited.

- \`entry_id\`: from 1, in order. \`created_at\`: the merchant's sim time.
- \`kind\`: \`wallet_funding\`, \`va_payment\`, \`checkout_payment\`, \`payout\`, \`payout_fee\`, \`payout_reversal\`,
  \`vtu_purchase\`, \`vtu_refund\`, \`card_funding\`, \`card_funding_fee\` or \`card_unload\`.
- \`type\`: \`credit\` or \`debit\`; \`amount\` is in Naira and always positive. \`balance_after\`: the balance after it.
- \`transaction_id\`: the object's identifier (a payout's \`order_no\`, shared by its debit, fee and any reversal; a
  payment's or VTU purchase's \`transaction_id\`).`.trim();

const entry = (entry_id: number, kind: string, type: string, amount: number, balance_after: number, transaction_id: string, description: string) => ({
  entry_id,
  kind,
  type,
  amount,
  balance_after,
  transaction_id,
  description,
  created_at: AT,
});

export const LEDGER_RESPONSE_EXAMPLES: Examples = {
  ledger: {
    summary: "The demo merchant's first entries: opening balance, a transfer in, a payout and its fee",
    value: {
      success: true,
      data: [
        entry(1, "wallet_funding", "credit", 2500000, 2500000, "TXN_WZ92IQRBTB1VTM0L", "Opening balance (sandbox)"),
        entry(2, "va_payment", "credit", 5000, 2505000, "TXN_1TFI4AI7WX9S54YS", `Transfer into ${DEMO.virtualAccount} from OKAFOR CHINEDU EMMANUEL`),
        entry(3, "payout", "debit", 1500000, 1005000, "PO_V4MUVUIU0KL3C47G", "Payout demo-payout-held to Guaranty Trust Bank ****3003"),
        entry(4, "payout_fee", "debit", 1000, 1004000, "PO_V4MUVUIU0KL3C47G", "Payout fee demo-payout-held"),
      ],
    },
  },
};

// ---- POST /sandbox/v1/cardholders/{id}/approve ---------------------------------------------------

export const APPROVE_DESCRIPTION = `
Approves a \`PENDING\` cardholder's KYC now (\`PENDING\` -> \`APPROVED\`), as the card issuer's review would, and
cancels its pending automatic approval. Cards can then be issued for it with POST /api/v1/virtual-cards (before,
that gets 422 \`KYC_NOT_APPROVED\`). No webhook is sent. Answers with the cardholder's fields at the top level, as
GET /api/v1/virtual-cards/cardholders/{id} does.

In the sandbox a new cardholder is approved by itself \`delays.kyc_approval_seconds\` (120 by default) of sim time
after creation, except when its email starts with \`pending+\` or a \`kyc\` outcome rule says \`pending\`: those stay
\`PENDING\` until this lever approves them. Use it to test the "KYC still pending" path, then the issue that follows.

- \`id\`: the \`cardholder_id\`, a positive integer (else 422 on \`id\`). Unknown: 404 \`NOT_FOUND\`.
- A cardholder that is already \`APPROVED\` gets 409 \`INVALID_STATE\`.

Demo merchant: cardholder 2 (\`pending+kemi@example.com\`) is \`PENDING\`, cardholder 1 is \`APPROVED\`.`.trim();

export const APPROVE_PARAM_EXAMPLES: Examples = {
  approvePending: { summary: "The demo's PENDING cardholder", value: 2 },
  notFound: { summary: "No such cardholder", value: 99 },
  invalidState: { summary: "A cardholder already APPROVED", value: 1 },
};

export const APPROVE_RESPONSE_EXAMPLES: Examples = {
  approvePending: {
    summary: "The cardholder, now APPROVED",
    value: { success: true, cardholder_id: 2, full_name: "Kemi Bello", email: "pending+kemi@example.com", phone: null, kyc_status: "APPROVED" },
  },
};

export const APPROVE_ERRORS = {
  404: { notFound: errorExample("No cardholder with this id", "NOT_FOUND", "No cardholder 99.") },
  409: { invalidState: errorExample("Only a PENDING cardholder can be approved", "INVALID_STATE", "Cardholder 1 is APPROVED; only a PENDING cardholder can be approved.") },
  422: { invalidId: validationError("An id that is not a positive integer", "id", "Must be a positive whole number.") },
};
