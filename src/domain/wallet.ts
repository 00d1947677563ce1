import type { TenantState } from "./state.js";
import type { DomainContext } from "./context.js";
import { iso } from "./context.js";
import { balanceOf, lastMovementAt, post } from "./ledger.js";
import { toMajor, type Minor } from "./money.js";

/** Credits the wallet from outside (sandbox funding, opening balance): one ledger entry. */
export function fundWallet(ctx: DomainContext, state: TenantState, amount: Minor, description = "Wallet funding (sandbox)") {
  const transaction_id = ctx.ids.id("TXN");
  const [entry] = post(state, ctx.now, [{ kind: "wallet_funding", amount, transaction_id, description }]);
  return entry!;
}

/** Balance response. `updated_at` is the time of the last ledger movement, or the merchant's creation. */
export function walletView(ctx: DomainContext, state: TenantState) {
  return {
    balance: toMajor(balanceOf(state)),
    currency: "NGN" as const,
    updated_at: iso(lastMovementAt(state) ?? ctx.config.created_at),
  };
}
