/** What every route factory receives: the one `Deps` object createApp builds. */
import type { DoctorDesk } from "../doctor/desk.js";
import type { ClockDriver } from "../engine/clock-driver.js";
import type { Registry } from "../engine/registry.js";
import type { Tenant } from "../engine/tenant.js";
import type { WebhookDispatcher } from "../webhooks/dispatcher.js";

export interface Deps {
  registry: Registry;
  driver: ClockDriver;
  dispatcher: WebhookDispatcher;
  doctor: DoctorDesk;
  /** Base URL for links the API hands out; default: the request's origin. */
  publicUrl?: string;
  /** Honour X-Forwarded-For for the client IP (only behind a proxy you control). */
  trustProxy: boolean;
  /** Shared mode: private webhook targets refused, fixed scenario keys refused, /health without counts. */
  shared: boolean;
  /** With `--data`: saves a merchant; a mutating response is sent only once this has resolved. */
  persist?: (tenant: Tenant) => Promise<void>;
  /** With `--data`: the store, for /health and for deleting a merchant's file. */
  store?: { health(): { ok: boolean }; remove(merchantId: string): Promise<void> };
  /** After a change made outside the merchant pipeline (scenario loads, page actions): save, deliver, re-arm. */
  afterChange(tenant: Tenant): Promise<void>;
  /** The keys /docs pre-fills for "try it" (the demo merchant's), while it exists. */
  tryItKeys(): { apiKey: string; apiSecret: string } | undefined;
}
