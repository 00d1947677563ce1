import type { Capability } from "../domain/records.js";
import { ApiError } from "./errors.js";
import { checking } from "./validation.js";

/** Each capability as the subject of "... is not enabled on this account." */
const LABEL: Record<Capability, string> = {
  payouts: "The payouts service",
  vtu: "The VTU service",
  virtual_cards: "The virtual cards service",
  checkout: "The collect payments (checkout) service",
};

/** Refuses every endpoint of a capability the merchant does not have. Payouts use their own code. */
export const requireCapability = (capability: Capability) =>
  checking("requireCapability", (c) => {
    if (!c.get("tenant").config.capabilities[capability]) {
      const code = capability === "payouts" ? "PAYOUT_DISABLED" : "SERVICE_NOT_ENABLED";
      throw new ApiError(code, `${LABEL[capability]} is not enabled on this account.`);
    }
  });
