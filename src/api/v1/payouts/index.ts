/** The payouts' handlers. */
import { toMinor } from "../../../domain/money.js";
import { bankList, verifyAccount } from "../../../domain/name-enquiry.js";
import { createPayout, payoutStatusView, payoutView, readPayoutStatus } from "../../../domain/payouts.js";
import type { Deps } from "../../../http/deps.js";
import { tenantOf, ok } from "../../../http/route.js";
import { router } from "../../../http/validation.js";
import * as op from "./routes.js";

export function payoutRoutes(_deps: Deps) {
  return router()
    .openapi(op.banks, (c) => c.json(ok(bankList(tenantOf(c).ctx)), 200))
    .openapi(op.verify, (c) => {
      const { ctx, state } = tenantOf(c);
      const { bank_code, account_number } = c.req.valid("json");
      return c.json(ok(verifyAccount(ctx, state, bank_code, account_number)), 200);
    })
    .openapi(op.transfer, (c) => {
      const { ctx, state } = tenantOf(c);
      const { amount, bank_code, account_number, account_name, bank_name, reference, narration } = c.req.valid("json");
      const payout = createPayout(ctx, state, { amount: toMinor(amount), bank_code, account_number, account_name, bank_name, reference, narration, client_ip: c.get("clientIp") });
      const message = payout.status === "pending_approval" ? op.MESSAGES.held : op.MESSAGES.processing;
      return c.json(ok(payoutView(payout), message), 201);
    })
    .openapi(op.status, (c) => {
      const { ctx, state } = tenantOf(c);
      const { payout, counted } = readPayoutStatus(ctx, state, c.req.valid("query").reference);
      if (counted) c.set("stateChanged", true);
      return c.json(ok(payoutStatusView(payout)), 200);
    });
}
