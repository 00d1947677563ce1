/** The VTU handlers: price the product, buy it (debit first, then the planned outcome), or read the catalogue. */
import type { Context } from "hono";
import type { DomainContext } from "../../../domain/context.js";
import { toMinor } from "../../../domain/money.js";
import {
  priceAirtime,
  priceCable,
  priceData,
  priceElectricity,
  priceExam,
  purchase,
  purchaseResultView,
  readVtuStatus,
  vtuRecordView,
  type PricedPurchase,
} from "../../../domain/vtu.js";
import type { Deps } from "../../../http/deps.js";
import type { AppEnv } from "../../../http/env.js";
import { tenantOf, ok } from "../../../http/route.js";
import { router } from "../../../http/validation.js";
import * as op from "./routes.js";

/** Prices the product, debits, applies the planned outcome, and answers with the purchase result. */
function buy(c: Context<AppEnv>, price: (ctx: DomainContext) => PricedPurchase) {
  const { ctx, state } = tenantOf(c);
  return c.json(purchaseResultView(purchase(ctx, state, price(ctx))), 200);
}

export function vtuRoutes(_deps: Deps) {
  return router()
    .openapi(op.airtime, (c) => {
      const input = c.req.valid("json");
      return buy(c, () => priceAirtime({ ...input, amount: toMinor(input.amount) }));
    })
    .openapi(op.data, (c) => {
      const input = c.req.valid("json");
      return buy(c, (ctx) => priceData(ctx, input));
    })
    .openapi(op.cable, (c) => {
      const input = c.req.valid("json");
      return buy(c, (ctx) => priceCable(ctx, input));
    })
    .openapi(op.electricity, (c) => {
      const input = c.req.valid("json");
      return buy(c, (ctx) => priceElectricity(ctx, { ...input, amount: toMinor(input.amount) }));
    })
    .openapi(op.exam, (c) => {
      const input = c.req.valid("json");
      return buy(c, (ctx) => priceExam(ctx, input));
    })
    .openapi(op.dataPlans, (c) => {
      const { network } = c.req.valid("query");
      return c.json(ok(tenantOf(c).tenant.catalog.dataPlans.filter((p) => !network || p.network === network)), 200);
    })
    .openapi(op.cablePlans, (c) => {
      const { provider_name } = c.req.valid("query");
      return c.json(ok(tenantOf(c).tenant.catalog.cablePlans.filter((p) => !provider_name || p.provider_name === provider_name)), 200);
    })
    .openapi(op.discos, (c) => c.json(ok(tenantOf(c).tenant.catalog.discos), 200))
    .openapi(op.examTypes, (c) => c.json(ok(tenantOf(c).tenant.catalog.examTypes), 200))
    .openapi(op.status, (c) => {
      const { ctx, state } = tenantOf(c);
      const { record, counted } = readVtuStatus(ctx, state, c.req.valid("query").reference);
      if (counted) c.set("stateChanged", true); // a read that counts towards settling is a change to save
      return c.json(vtuRecordView(record), 200);
    });
}
