import type { MiddlewareHandler } from "hono";
import type { Capability } from "../domain/records.js";
import type { AppEnv } from "./env.js";
import { ApiError } from "./errors.js";

const LABEL: Record<Capability, string> = {
  payouts: "Payouts",
  vtu: "VTU",
  virtual_cards: "Virtual cards",
  checkout: "Collect payments (checkout)",
};

/** Refuses every endpoint of a capability the merchant does not have. Payouts use their own code. */
export const requireCapability = (capability: Capability): MiddlewareHandler<AppEnv> =>
  async function requireCapability(c, next) {
    if (!c.var.tenant.config.capabilities[capability]) {
      const code = capability === "payouts" ? "PAYOUT_DISABLED" : "SERVICE_NOT_ENABLED";
      throw new ApiError(code, `${LABEL[capability]} is not enabled on this account.`);
    }
    await next();
  };
