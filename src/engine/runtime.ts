/** The background machinery of one sandbox: the clock driver and the webhook dispatcher, wired together. */
import type { Tenant } from "../store/tenant.js";
import { WebhookDispatcher } from "../webhooks/dispatcher.js";
import { ClockDriver } from "./clock-driver.js";

export interface Runtime {
  driver: ClockDriver;
  dispatcher: WebhookDispatcher;
  /** Disarms every realtime wake-up (server shutdown, test teardown). */
  stop(): void;
}

export interface RuntimeOptions {
  fetch?: typeof fetch;
  /** Saves a merchant after a change made outside a request (persistence); errors are logged. */
  persist?: (tenant: Tenant) => Promise<void>;
}

export function createRuntime(options: RuntimeOptions = {}): Runtime {
  const save = options.persist
    ? (t: Tenant) => void options.persist!(t).catch((err: unknown) => console.error(`[merchant-sandbox] saving ${t.id} failed:`, err))
    : undefined;
  // Attempts finishing outside a request schedule retries; realtime merchants must wake up for them.
  const dispatcher: WebhookDispatcher = new WebhookDispatcher({ fetch: options.fetch, onTimersChanged: (t) => driver.arm(t), onStateChanged: save });
  const driver = new ClockDriver(dispatcher, save);
  return { driver, dispatcher, stop: () => driver.stop() };
}
