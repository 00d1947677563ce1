/** The wallet levers' handlers: a credit through the domain's own funding, and the ledger as it stands. */
import { describer, ledgerEntryView } from "../../domain/ledger.js";
import { toMinor } from "../../domain/money.js";
import { fundWallet, walletView } from "../../domain/wallet.js";
import type { Deps } from "../../http/deps.js";
import { tenantOf, ok } from "../../http/route.js";
import { router } from "../../http/validation.js";
import * as op from "./routes.js";

export function walletControlRoutes(_deps: Deps) {
  return router()
    .openapi(op.fund, (c) => {
      const { ctx, state } = tenantOf(c);
      const input = c.req.valid("json");
      const entry = fundWallet(ctx, state, toMinor(input.amount), input.description);
      return c.json(ok({ ...walletView(ctx, state), transaction_id: entry.transaction_id }), 200);
    })
    .openapi(op.ledger, (c) => {
      const { state } = tenantOf(c);
      const describe = describer(state);
      return c.json(ok(state.ledger.map((e) => ledgerEntryView(e, describe))), 200);
    });
}
