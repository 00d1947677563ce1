/**
 * The wallet in the control API: credit it, and read its append-only ledger. The ceiling and bounds the
 * text states are the ones the ledger and the request schema enforce; the examples are real bodies.
 */
import { z } from "@hono/zod-openapi";
import { MAX_AMOUNT, MAX_BALANCE_MINOR } from "../../domain/bounds.js";
import { amount, isoTime, text } from "../../domain/fields.js";
import { thousands, toMajor } from "../../domain/money.js";
import { LEDGER_KINDS } from "../../domain/records.js";
import { AT, DEMO, demoNextId } from "../../http/demo-examples.js";
import { body, errorExample, json } from "../../http/openapi.js";
import { routes, Success } from "../../http/route.js";
import { controlErrors, validationError } from "../errors.js";
import { codes } from "../lists.js";

const route = routes({ tags: ["Sandbox"] });

/** The most a wallet holds, as its refusals state it (domain/ledger.ts refuses a credit past it). */
export const BALANCE_CEILING = `NGN ${thousands(toMajor(MAX_BALANCE_MINOR))}`;
export const balanceLimit = errorExample(
  "The credit would take the wallet past the sandbox's ceiling",
  "BALANCE_LIMIT_EXCEEDED",
  `This credit would take the wallet past the sandbox's ceiling of ${BALANCE_CEILING}; nothing was credited.`,
);

const FUND_AMOUNT = { min: 0.01, max: MAX_AMOUNT };
const DESCRIPTION_MAX = 200;

export const fund = route({
  method: "post",
  path: "/wallet/fund",
  operationId: "fundWallet",
  summary: "Credit the wallet (a ledger entry of kind wallet_funding)",
  description: `
Credits the calling merchant's wallet, the sandbox's shortcut for topping it up before a test of payouts, VTU or
card funding (which get 422 \`INSUFFICIENT_BALANCE\` when the wallet cannot cover them). The credit is one ledger
entry of kind \`wallet_funding\` (see GET /sandbox/v1/wallet/ledger); no webhook is sent, no timer is set and the
clock does not move. Returns the new balance and the entry's \`transaction_id\`.

- \`amount\`: Naira, ${FUND_AMOUNT.min} to ${thousands(FUND_AMOUNT.max)}, at most two decimals.
- \`description\` (optional, 1 to ${DESCRIPTION_MAX} characters): the ledger entry's description. Default: \`Wallet funding (sandbox)\`.
- A wallet holds at most ${BALANCE_CEILING}: a credit past it gets 422 \`BALANCE_LIMIT_EXCEEDED\` and nothing
  is credited.

To make money arrive the way a customer's transfer does (with its \`payment.received\` webhook), use
POST /sandbox/v1/virtual-accounts/{account_number}/transfers instead.`.trim(),
  request: body(z.object({ amount: amount(FUND_AMOUNT), description: text(DESCRIPTION_MAX).optional() }).openapi("FundWallet"), {
    topUp: { summary: "Add NGN 50,000 before a payout test", value: { amount: 50000, description: "Top-up for payout tests" } },
    tooManyDecimals: { summary: "An amount with three decimals", value: { amount: 10.555 } },
  }),
  responses: {
    200: json(Success({ data: z.object({ balance: z.number(), currency: z.literal("NGN"), updated_at: isoTime, transaction_id: z.string() }) }), "The new balance", {
      topUp: {
        summary: "The new balance",
        value: { success: true, data: { balance: 886850, currency: "NGN", updated_at: AT, transaction_id: demoNextId("TXN") } },
      },
    }),
    ...controlErrors({
      422: {
        tooManyDecimals: validationError("Amounts have at most two decimals", "amount", "Must have at most two decimal places."),
        balanceLimitExceeded: balanceLimit,
      },
    }),
  },
});

const LedgerEntry = z
  .object({
    entry_id: z.number().int(),
    kind: z.string(),
    type: z.enum(["credit", "debit"]),
    amount: z.number(),
    balance_after: z.number(),
    transaction_id: z.string(),
    description: z.string(),
    created_at: isoTime,
  })
  .openapi("LedgerEntry");

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

export const ledger = route({
  method: "get",
  path: "/wallet/ledger",
  operationId: "listLedgerEntries",
  summary: "The wallet's append-only ledger, oldest first",
  description: `
The wallet's ledger, oldest first: every movement of money, append-only (an entry is never changed or removed;
a refund or reversal is a new entry). The wallet balance is the sum of the entries, and no \`balance_after\` is
ever negative. Use it to assert exactly what a flow charged or credited.

- \`entry_id\`: from 1, in order. \`created_at\`: the merchant's sim time.
- \`kind\`: ${codes(LEDGER_KINDS.slice(0, 6), ", ")},
  ${codes(LEDGER_KINDS.slice(6))}.
- \`type\`: \`credit\` or \`debit\`; \`amount\` is in Naira and always positive. \`balance_after\`: the balance after it.
- \`transaction_id\`: the object's identifier (a payout's \`order_no\`, shared by its debit, fee and any reversal; a
  payment's or VTU purchase's \`transaction_id\`).`.trim(),
  responses: {
    200: json(Success({ data: z.array(LedgerEntry) }), "Every ledger entry", {
      ledger: {
        summary: "The demo merchant's first entries: opening balance, a transfer in, a payout and its fee",
        value: {
          success: true,
          data: [
            entry(1, "wallet_funding", "credit", 2500000, 2500000, "TXN_WZ92IQRBTB1VTM0L", "Opening balance (sandbox)"),
            entry(2, "va_payment", "credit", 5000, 2505000, "TXN_1TFI4AI7WX9S54YS", `Transfer into ${DEMO.virtualAccount} from OKAFOR CHINEDU EMMANUEL`),
            entry(3, "payout", "debit", 1500000, 1005000, "PO_V4MUVUIU0KL3C47G", `Payout ${DEMO.heldPayout} to Guaranty Trust Bank ****3003`),
            entry(4, "payout_fee", "debit", 1000, 1004000, "PO_V4MUVUIU0KL3C47G", `Payout fee ${DEMO.heldPayout}`),
          ],
        },
      },
    }),
    ...controlErrors(),
  },
});
