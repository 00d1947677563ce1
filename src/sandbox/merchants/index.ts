/** The merchant's handlers: sign-up (isolated state, fresh keys), its configuration, delete and reset. */
import { balanceOf } from "../../domain/ledger.js";
import { changeSettings, merchantView, resetState } from "../../domain/merchant.js";
import { toMajor, toMinor } from "../../domain/money.js";
import type { Tenant } from "../../engine/tenant.js";
import type { Deps } from "../../http/deps.js";
import { tenantOf, ok, okFields } from "../../http/route.js";
import { router } from "../../http/validation.js";
import { assertWebhookTarget } from "../webhook-target.js";
import * as op from "./routes.js";

/** The merchant as the control API shows it: its config, its balance in Naira and its clock. */
function merchantResponse(tenant: Tenant) {
  const clock = tenant.clock.settings();
  return {
    ...merchantView(tenant.config),
    wallet_balance: toMajor(balanceOf(tenant.state)),
    clock: { mode: clock.mode, speed: clock.speed, now: new Date(clock.now!).toISOString() },
  };
}

export function merchantRoutes({ registry, driver, store, shared }: Deps) {
  return router()
    .openapi(op.create, async (c) => {
      const input = c.req.valid("json");
      assertWebhookTarget(input.webhook_url, shared);
      const tenant = registry.create(input, { defaultClockMode: op.SIGN_UP_CLOCK });
      await store.created([tenant]);
      return c.json(ok(merchantResponse(tenant)), 201);
    })
    .openapi(op.remove, async (c) => {
      const { tenant } = tenantOf(c);
      registry.remove(tenant);
      driver.stop(tenant);
      await store.removed(tenant);
      return c.json(okFields({ message: `Merchant ${tenant.id} deleted` }), 200);
    })
    .openapi(op.read, (c) => c.json(ok(merchantResponse(tenantOf(c).tenant)), 200))
    .openapi(op.update, (c) => {
      const { tenant } = tenantOf(c);
      const settings = c.req.valid("json");
      assertWebhookTarget(settings.webhook_url, shared);
      const change = changeSettings(tenant.config, tenant.clock.now(), settings);
      tenant.config = change.config;
      if (change.clock) tenant.clock.configure(change.clock);
      return c.json(ok(merchantResponse(tenant)), 200);
    })
    .openapi(op.reset, (c) => {
      const { tenant, ctx } = tenantOf(c);
      const opening = toMinor(c.req.valid("json").wallet_balance ?? 0);
      registry.resetState(tenant, resetState(ctx, opening));
      driver.stop(tenant);
      return c.json(ok(merchantResponse(tenant)), 200);
    });
}
