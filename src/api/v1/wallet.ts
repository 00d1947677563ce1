import { createRoute, z } from "@hono/zod-openapi";
import { walletView } from "../../domain/wallet.js";
import { errors, json, security } from "../../http/openapi.js";
import { router } from "../../http/validation.js";
import { contextOf } from "../../engine/tenant.js";
import { isoTime } from "../../domain/fields.js";
import { BALANCE_DESCRIPTION, BALANCE_EXAMPLES } from "./wallet-docs.js";

const WalletBalance = z
  .object({
    balance: z.number().openapi({ description: "Available balance in Naira" }),
    currency: z.literal("NGN"),
    updated_at: isoTime.openapi({ description: "Time of the last wallet movement (ISO 8601 UTC)" }),
  })
  .openapi("WalletBalance");

const balance = createRoute({
  method: "get",
  path: "/balance",
  tags: ["Wallet"],
  operationId: "getWalletBalance",
  summary: "Wallet balance",
  description: BALANCE_DESCRIPTION,
  security,
  responses: { 200: json(z.object({ success: z.literal(true), data: WalletBalance }), "The wallet balance", BALANCE_EXAMPLES), ...errors() },
});

export function walletRoutes() {
  return router().openapi(balance, (c) => {
    const tenant = c.get("tenant");
    return c.json({ success: true as const, data: walletView(contextOf(tenant), tenant.state) }, 200);
  });
}
