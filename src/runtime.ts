/** The background machinery of one sandbox: the clock driver and the webhook dispatcher, wired together. */
import type { Tenant } from "./engine/tenant.js";
import { WebhookDispatcher } from "./webhooks/dispatcher.js";
import { createTransport, type Transport } from "./webhooks/transport.js";
import { ClockDriver } from "./engine/clock-driver.js";

export interface Runtime {
  driver: ClockDriver;
  dispatcher: WebhookDispatcher;
  /** Aborted by `stop`: answers held back on purpose (slow responses) are cut instead of waited for. */
  signal: AbortSignal;
  /** Disarms every realtime wake-up and ends every webhook request in flight (shutdown, teardown). */
  stop(): void;
}

export interface RuntimeOptions {
  /** Shared mode: webhook requests to loopback and private addresses are refused. */
  shared?: boolean;
  transport?: Transport;
  /** Saves a merchant after a change made outside a request (persistence); errors are logged. */
  persist?: (tenant: Tenant) => Promise<void>;
}

export function createRuntime(options: RuntimeOptions = {}): Runtime {
  const save = options.persist
    ? (t: Tenant) => void options.persist!(t).catch((err: unknown) => console.error(`[merchant-sandbox] merchant ${t.id}: saving failed:`, err))
    : undefined;
  const transport = options.transport ?? createTransport({ blockPrivate: options.shared ?? false });
  // Attempts finishing outside a request schedule retries; realtime merchants must wake up for them.
  const dispatcher: WebhookDispatcher = new WebhookDispatcher({ transport, onTimersChanged: (t) => driver.arm(t), onStateChanged: save });
  const driver = new ClockDriver(dispatcher, options.persist);
  const stopping = new AbortController();
  return {
    driver,
    dispatcher,
    signal: stopping.signal,
    stop: () => {
      driver.stop();
      dispatcher.abortAll();
      stopping.abort();
    },
  };
}
