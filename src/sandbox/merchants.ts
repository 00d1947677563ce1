/**
 * Merchants through the control API: open sign-up (fresh keys, isolated state, manual clock by
 * default) and the caller's own configuration.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { changeSettings, merchantView } from "../domain/merchant.js";
import { balanceOf } from "../domain/ledger.js";
import { toMajor } from "../domain/money.js";
import { body, errors, json, security } from "../http/openapi.js";
import { router } from "../http/validation.js";
import type { ClockDriver } from "../engine/clock-driver.js";
import type { Registry } from "../engine/registry.js";
import type { Tenant } from "../engine/tenant.js";
import { assertWebhookTarget } from "./webhook-target.js";
import { MerchantSettingsSchema, NewMerchantSchema } from "../domain/merchant-settings.js";
import { isoTime } from "../domain/fields.js";

export const Merchant = z
  .object({
    merchant_id: z.string(),
    business_name: z.string(),
    api_key: z.string(),
    api_secret: z.string(),
    webhook_secret: z.string(),
    capabilities: z.object({ payouts: z.boolean(), vtu: z.boolean(), virtual_cards: z.boolean(), checkout: z.boolean() }),
    kyc: z.object({ bvn: z.string().nullable(), nin: z.string().nullable() }),
    ip_allowlist: z.array(z.string()),
    webhook_url: z.string().nullable(),
    webhook_capture: z.object({ fail_first: z.number().int() }).nullable(),
    limits: z.record(z.string(), z.number()),
    card_funding_fee_usd: z.number(),
    usd_ngn_rate: z.number(),
    delays: z.object({ payout_settlement_seconds: z.number(), vtu_settlement_seconds: z.number(), kyc_approval_seconds: z.number() }),
    webhook: z.object({
      signature_algorithm: z.enum(["sha256", "sha512"]),
      signature_encoding: z.enum(["hex", "base64"]),
      timeout_seconds: z.number(),
      retry_schedule_seconds: z.array(z.number()),
    }),
    created_at: isoTime,
    wallet_balance: z.number(),
    clock: z.object({ mode: z.enum(["manual", "realtime"]), speed: z.number(), now: isoTime }),
  })
  .openapi("Merchant");

export function merchantResponse(tenant: Tenant) {
  const clock = tenant.clock.settings();
  return {
    ...merchantView(tenant.config),
    wallet_balance: toMajor(balanceOf(tenant.state)),
    clock: { mode: clock.mode, speed: clock.speed, now: new Date(clock.now!).toISOString() },
  };
}

const create = createRoute({
  method: "post",
  path: "/merchants",
  tags: ["Sandbox"],
  summary: "Create an isolated merchant with fresh keys (no authentication)",
  security: [],
  request: body(NewMerchantSchema.openapi("NewMerchant")),
  responses: { 201: json(z.object({ success: z.literal(true), data: Merchant }), "The merchant and its keys"), ...errors(400, 415, 422) },
});

const read = createRoute({
  method: "get",
  path: "/merchant",
  tags: ["Sandbox"],
  summary: "The calling merchant's configuration",
  security,
  responses: { 200: json(z.object({ success: z.literal(true), data: Merchant }), "The merchant"), ...errors() },
});

const update = createRoute({
  method: "patch",
  path: "/merchant",
  tags: ["Sandbox"],
  summary: "Change the calling merchant's configuration (fields not sent are kept)",
  security,
  request: body(MerchantSettingsSchema.openapi("MerchantSettings")),
  responses: { 200: json(z.object({ success: z.literal(true), data: Merchant }), "The updated merchant"), ...errors(400, 415, 422) },
});

const remove = createRoute({
  method: "delete",
  path: "/merchant",
  tags: ["Sandbox"],
  summary: "Delete the calling merchant: its keys stop working and its state is gone (with --data, its file too)",
  security,
  responses: { 200: json(z.object({ success: z.literal(true), message: z.string() }), "Deleted"), ...errors() },
});

export interface MerchantRouteDeps {
  registry: Registry;
  driver: ClockDriver;
  persist?: (tenant: Tenant) => Promise<void>;
  store?: { remove(merchantId: string): Promise<void> };
  shared: boolean;
}

export function merchantRoutes({ registry, driver, persist, store, shared }: MerchantRouteDeps) {
  return router()
    .openapi(create, async (c) => {
      const input = c.req.valid("json");
      assertWebhookTarget(input.webhook_url, shared);
      const tenant = registry.create(input, { defaultClockMode: "manual" });
      await persist?.(tenant);
      return c.json({ success: true as const, data: merchantResponse(tenant) }, 201);
    })
    .openapi(remove, async (c) => {
      const tenant = c.var.tenant;
      registry.remove(tenant);
      driver.stop(tenant);
      await store?.remove(tenant.id);
      return c.json({ success: true as const, message: `Merchant ${tenant.id} deleted` }, 200);
    })
    .openapi(read, (c) => c.json({ success: true as const, data: merchantResponse(c.var.tenant) }, 200))
    .openapi(update, (c) => {
      const tenant = c.var.tenant;
      const settings = c.req.valid("json");
      assertWebhookTarget(settings.webhook_url, shared);
      const change = changeSettings(tenant.config, tenant.clock.now(), settings);
      tenant.config = change.config;
      if (change.clock) tenant.clock.configure(change.clock);
      return c.json({ success: true as const, data: merchantResponse(tenant) }, 200);
    });
}
