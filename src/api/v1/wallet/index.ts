/** The wallet's handlers. */
import { walletView } from "../../../domain/wallet.js";
import type { Deps } from "../../../http/deps.js";
import { tenantOf, ok } from "../../../http/route.js";
import { router } from "../../../http/validation.js";
import * as op from "./routes.js";

export function walletRoutes(_deps: Deps) {
  return router().openapi(op.balance, (c) => {
    const { ctx, state } = tenantOf(c);
    return c.json(ok(walletView(ctx, state)), 200);
  });
}
