/** The wallet's contract: each operation whole, as the OpenAPI document publishes it. */
import { z } from "@hono/zod-openapi";
import { isoTime } from "../../../domain/fields.js";
import { AT, DEMO_BALANCE } from "../../../http/demo-examples.js";
import { errors, json } from "../../../http/openapi.js";
import { routes, Success } from "../../../http/route.js";

const route = routes({ tags: ["Wallet"] });

const WalletBalance = z
  .object({
    balance: z.number().openapi({ description: "Available balance in Naira" }),
    currency: z.literal("NGN"),
    updated_at: isoTime.openapi({ description: "Time of the last wallet movement (ISO 8601 UTC)" }),
  })
  .openapi("WalletBalance");

export const balance = route({
  method: "get",
  path: "/balance",
  operationId: "getWalletBalance",
  summary: "Wallet balance",
  description: `
The merchant wallet's available balance, in Naira (a number with at most two decimals: kobo).

Every operation moves money against this one wallet:

- **Credits:** a transfer into a virtual account and a paid payment link credit it as soon as they clear.
- **Debits, at once:** a payout debits \`amount + fee\` (its \`total_deducted\`) when it is created, even while it is
  \`processing\` or held as \`pending_approval\`; VTU purchases and card funding are debited when they are made.
- **Refunds:** a failed (or rejected) payout returns its \`total_deducted\`; a failed VTU purchase is refunded automatically.
- A debit the balance cannot cover is refused with 422 \`INSUFFICIENT_BALANCE\`, and nothing is debited.

\`updated_at\` is the time of the last wallet movement, or of the merchant's creation when there was none.

In the sandbox, top the wallet up with \`POST /sandbox/v1/wallet/fund\` and list every movement with \`GET /sandbox/v1/wallet/ledger\`.
`.trim(),
  responses: {
    200: json(Success({ data: WalletBalance }), "The wallet balance", {
      balance: {
        summary: "The demo merchant's balance after its sample activity",
        value: { success: true, data: { balance: DEMO_BALANCE, currency: "NGN", updated_at: AT } },
      },
    }),
    ...errors(),
  },
});
