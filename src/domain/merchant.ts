/**
 * A merchant's configuration: built from settings given in major units (Naira, USD) with documented
 * defaults, held in minor units. Used by merchant creation, PATCH and the demo merchant fixture.
 */
import type { DomainContext, Ids } from "./context.js";
import { fieldError } from "./errors.js";
import { DEFAULT_LIMITS } from "./limits.js";
import type { Capability, ClockMode, ClockSettings, MerchantConfig, MerchantDelays, MerchantLimits, WebhookSettings } from "./records.js";
import { toMajor, toMinor, type Minor } from "./money.js";
import { emptyState, type TenantState } from "./state.js";
import { fundWallet } from "./wallet.js";
import { DEFAULT_RETRY_SCHEDULE_SECONDS } from "./webhook-policy.js";

export interface MerchantSettings {
  business_name?: string;
  capabilities?: Partial<Record<Capability, boolean>>;
  kyc?: { bvn?: string | null; nin?: string | null };
  ip_allowlist?: string[];
  webhook_url?: string | null;
  webhook_capture?: { fail_first: number } | null;
  limits?: Partial<Record<keyof MerchantLimits, number>>;
  card_funding_fee_usd?: number;
  usd_ngn_rate?: number;
  delays?: Partial<MerchantDelays>;
  webhook?: Partial<WebhookSettings>;
  clock?: { mode?: ClockMode; speed?: number; now?: string };
}

/** Defaults, in major units where they are money. The README's configuration table lists these. */
export const DEFAULTS = {
  business_name: "Sandbox Merchant",
  wallet_balance: 1_000_000,
  capabilities: { payouts: true, vtu: true, virtual_cards: true, checkout: true },
  limits: DEFAULT_LIMITS,
  card_funding_fee_usd: 1,
  usd_ngn_rate: 1_600,
  delays: { payout_settlement_seconds: 30, vtu_settlement_seconds: 60, kyc_approval_seconds: 120 },
  webhook: {
    signature_algorithm: "sha256",
    signature_encoding: "hex",
    timeout_seconds: 10,
    retry_schedule_seconds: [...DEFAULT_RETRY_SCHEDULE_SECONDS],
  } satisfies WebhookSettings,
  clock_speed: 1,
} as const;

/** Limits that are amounts of money (converted to kobo); the others are counts. */
const MONEY_LIMITS = new Set<keyof MerchantLimits>([
  "payout_min",
  "payout_max",
  "payout_hourly_amount",
  "payout_daily_amount",
  "payout_review_threshold",
]);

export interface Credentials {
  merchant_id: string;
  api_key: string;
  api_secret: string;
  webhook_secret: string;
}

/**
 * A new merchant's id (from `ids`, which a seed makes deterministic) and credentials (from `secrets`,
 * which must be the CSPRNG: a seed is shared and guessable, and a key must not reveal it).
 */
export function newCredentials(ids: Ids, secrets: Ids): Credentials {
  return {
    merchant_id: `mch_${ids.alnum(14)}`,
    api_key: `pk_test_${secrets.alnum(24)}`,
    api_secret: `sk_test_${secrets.alnum(32)}`,
    webhook_secret: `whsec_${secrets.alnum(32)}`,
  };
}

export function newMerchantConfig(
  credentials: Credentials,
  settings: MerchantSettings,
  defaultClockMode: ClockMode,
  now: number,
): MerchantConfig {
  const base: MerchantConfig = {
    ...credentials,
    business_name: DEFAULTS.business_name,
    capabilities: { ...DEFAULTS.capabilities },
    kyc: { bvn: null, nin: null },
    ip_allowlist: [],
    webhook_url: null,
    webhook_capture: null,
    limits: limitsToMinor(DEFAULTS.limits) as MerchantLimits,
    card_funding_fee: toMinor(DEFAULTS.card_funding_fee_usd),
    usd_ngn_rate: DEFAULTS.usd_ngn_rate,
    clock: { mode: defaultClockMode, speed: DEFAULTS.clock_speed },
    delays: { ...DEFAULTS.delays },
    webhook: { ...DEFAULTS.webhook, retry_schedule_seconds: [...DEFAULTS.webhook.retry_schedule_seconds] },
    created_at: now,
    scenario_origin: null,
  };
  return applySettings(base, settings);
}

/**
 * A settings change (PATCH): the new config, and the clock change to make with it. Everything is
 * checked before either is applied, so the two happen together or not at all; the clock never goes
 * back.
 */
export function changeSettings(config: MerchantConfig, now: number, settings: MerchantSettings): { config: MerchantConfig; clock: Partial<ClockSettings> | null } {
  const clockNow = settings.clock?.now === undefined ? undefined : Date.parse(settings.clock.now);
  if (clockNow !== undefined && clockNow < now) {
    throw fieldError("clock.now", "The clock never goes backwards: give a time at or after the current sim time.");
  }
  const clock = settings.clock ? { ...definedOnly({ mode: settings.clock.mode, speed: settings.clock.speed }), ...(clockNow === undefined ? {} : { now: clockNow }) } : null;
  return { config: applySettings(config, settings), clock };
}

/** Reset: a fresh state, funded with `opening` kobo (if any) by one ledger entry. Keys, config and clock stay. */
export function resetState(ctx: DomainContext, opening: Minor): TenantState {
  const state = emptyState();
  if (opening > 0) fundWallet(ctx, state, opening, "Opening balance after reset (sandbox)");
  return state;
}

/** Returns a new config with `settings` applied over `config`; fields not given are kept. */
export function applySettings(config: MerchantConfig, settings: MerchantSettings): MerchantConfig {
  return {
    ...config,
    business_name: settings.business_name ?? config.business_name,
    capabilities: { ...config.capabilities, ...definedOnly(settings.capabilities ?? {}) },
    kyc: {
      bvn: settings.kyc?.bvn !== undefined ? settings.kyc.bvn : config.kyc.bvn,
      nin: settings.kyc?.nin !== undefined ? settings.kyc.nin : config.kyc.nin,
    },
    ip_allowlist: settings.ip_allowlist ?? config.ip_allowlist,
    webhook_url: settings.webhook_url !== undefined ? settings.webhook_url : config.webhook_url,
    webhook_capture: settings.webhook_capture !== undefined ? settings.webhook_capture : config.webhook_capture,
    limits: { ...config.limits, ...limitsToMinor(definedOnly(settings.limits ?? {})) },
    card_funding_fee:
      settings.card_funding_fee_usd !== undefined ? toMinor(settings.card_funding_fee_usd) : config.card_funding_fee,
    usd_ngn_rate: settings.usd_ngn_rate ?? config.usd_ngn_rate,
    delays: { ...config.delays, ...definedOnly(settings.delays ?? {}) },
    webhook: { ...config.webhook, ...definedOnly(settings.webhook ?? {}) },
    clock: {
      mode: settings.clock?.mode ?? config.clock.mode,
      speed: settings.clock?.speed ?? config.clock.speed,
    },
  };
}

/** The config as the control API shows it: money in major units, secrets included (it is the owner asking). */
export function merchantView(config: MerchantConfig) {
  const limits = Object.fromEntries(
    Object.entries(config.limits).map(([key, value]) => [
      key,
      MONEY_LIMITS.has(key as keyof MerchantLimits) ? toMajor(value) : value,
    ]),
  ) as Record<keyof MerchantLimits, number>;
  return {
    merchant_id: config.merchant_id,
    business_name: config.business_name,
    api_key: config.api_key,
    api_secret: config.api_secret,
    webhook_secret: config.webhook_secret,
    capabilities: config.capabilities,
    kyc: config.kyc,
    ip_allowlist: config.ip_allowlist,
    webhook_url: config.webhook_url,
    webhook_capture: config.webhook_capture,
    limits,
    card_funding_fee_usd: toMajor(config.card_funding_fee),
    usd_ngn_rate: config.usd_ngn_rate,
    delays: config.delays,
    webhook: config.webhook,
    created_at: new Date(config.created_at).toISOString(),
  };
}

function limitsToMinor(limits: Partial<Record<keyof MerchantLimits, number>>): Partial<MerchantLimits> {
  return Object.fromEntries(
    Object.entries(limits).map(([key, value]) => [
      key,
      MONEY_LIMITS.has(key as keyof MerchantLimits) ? toMinor(value as number) : value,
    ]),
  );
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
