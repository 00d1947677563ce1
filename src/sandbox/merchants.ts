/**
 * Merchants through the control API: open sign-up (fresh keys, isolated state, manual clock by
 * default) and the caller's own configuration.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { changeSettings, merchantView } from "../domain/merchant.js";
import { balanceOf } from "../domain/ledger.js";
import { toMajor } from "../domain/money.js";
import { body, json, security } from "../http/openapi.js";
import { router } from "../http/validation.js";
import type { ClockDriver } from "../engine/clock-driver.js";
import type { Registry } from "../engine/registry.js";
import type { Tenant } from "../engine/tenant.js";
import { assertWebhookTarget } from "./webhook-target.js";
import { MerchantSettingsSchema, NewMerchantSchema } from "../domain/merchant-settings.js";
import { isoTime } from "../domain/fields.js";
import { controlErrors, openErrors } from "./errors.js";
import * as docs from "./merchants-docs.js";

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

const MerchantResponse = z.object({ success: z.literal(true), data: Merchant });

const create = createRoute({
  method: "post",
  path: "/merchants",
  tags: ["Sandbox"],
  operationId: "createMerchant",
  summary: "Create an isolated merchant with fresh keys (no authentication)",
  description: docs.CREATE_DESCRIPTION,
  security: [],
  request: body(NewMerchantSchema.openapi("NewMerchant"), docs.CREATE_BODY_EXAMPLES),
  responses: {
    201: json(MerchantResponse, "The merchant and its keys", docs.CREATE_RESPONSE_EXAMPLES),
    ...openErrors("sign-ups", docs.CREATE_ERRORS),
  },
});

const read = createRoute({
  method: "get",
  path: "/merchant",
  tags: ["Sandbox"],
  operationId: "getMerchant",
  summary: "The calling merchant's configuration",
  description: docs.READ_DESCRIPTION,
  security,
  responses: { 200: json(MerchantResponse, "The merchant", docs.READ_RESPONSE_EXAMPLES), ...controlErrors() },
});

const update = createRoute({
  method: "patch",
  path: "/merchant",
  tags: ["Sandbox"],
  operationId: "updateMerchant",
  summary: "Change the calling merchant's settings (fields not sent are kept)",
  description: docs.UPDATE_DESCRIPTION,
  security,
  request: body(MerchantSettingsSchema.openapi("MerchantSettings"), docs.UPDATE_BODY_EXAMPLES),
  responses: {
    200: json(MerchantResponse, "The updated merchant", docs.UPDATE_RESPONSE_EXAMPLES),
    ...controlErrors(docs.UPDATE_ERRORS),
  },
});

const remove = createRoute({
  method: "delete",
  path: "/merchant",
  tags: ["Sandbox"],
  operationId: "deleteMerchant",
  summary: "Delete the calling merchant: its keys stop working and its state is gone (the demo merchant too)",
  description: docs.DELETE_DESCRIPTION,
  security,
  responses: {
    200: json(z.object({ success: z.literal(true), message: z.string() }), "Deleted", docs.DELETE_RESPONSE_EXAMPLES),
    ...controlErrors(docs.DELETE_ERRORS),
  },
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
