/** The background machinery of one sandbox: the clock driver and the webhook dispatcher, wired together over its store. */
import type { AttemptLeases } from "./engine/attempt-leases.js";
import { MemoryTenantStore, type TenantStore } from "./engine/tenant-store.js";
import { WebhookDispatcher } from "./webhooks/dispatcher.js";
import { createTransport, type Transport } from "./webhooks/transport.js";
import { ClockDriver } from "./engine/clock-driver.js";

export interface Runtime {
  driver: ClockDriver;
  dispatcher: WebhookDispatcher;
  /** Where every change is kept: the app commits through it, as the driver and the dispatcher do. */
  store: TenantStore;
  /** Aborted by `stop`: answers held back on purpose (slow responses) are cut instead of waited for. */
  signal: AbortSignal;
  /** Disarms every realtime wake-up and ends every webhook request in flight (shutdown, teardown). */
  stop(): void;
}

export interface RuntimeOptions {
  /** Shared mode: webhook requests to loopback and private addresses are refused. */
  shared?: boolean;
  transport?: Transport;
  /** Where changes are kept (default: memory). */
  store?: TenantStore;
  /** A shared store's leases on webhook attempts in flight. */
  leases?: AttemptLeases;
}

export function createRuntime(options: RuntimeOptions = {}): Runtime {
  const store = options.store ?? new MemoryTenantStore();
  const transport = options.transport ?? createTransport({ blockPrivate: options.shared ?? false });
  // Attempts finishing outside a request schedule retries; realtime merchants must wake up for them.
  const dispatcher: WebhookDispatcher = new WebhookDispatcher({ transport, onTimersChanged: (t) => driver.arm(t), store, leases: options.leases });
  const driver = new ClockDriver(dispatcher, store);
  const stopping = new AbortController();
  return {
    driver,
    dispatcher,
    store,
    signal: stopping.signal,
    stop: () => {
      driver.stop();
      dispatcher.abortAll();
      stopping.abort();
    },
  };
}
