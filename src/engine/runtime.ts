/** The background machinery of one sandbox: the clock driver and the webhook dispatcher, wired together. */
import { WebhookDispatcher, type DispatcherOptions } from "../webhooks/dispatcher.js";
import { ClockDriver } from "./clock-driver.js";

export interface Runtime {
  driver: ClockDriver;
  dispatcher: WebhookDispatcher;
  /** Disarms every realtime wake-up (server shutdown, test teardown). */
  stop(): void;
}

export function createRuntime(options: Omit<DispatcherOptions, "onTimersChanged"> = {}): Runtime {
  // Attempts finishing outside a request schedule retries; realtime merchants must wake up for them.
  const dispatcher: WebhookDispatcher = new WebhookDispatcher({ ...options, onTimersChanged: (t) => driver.arm(t) });
  const driver = new ClockDriver(dispatcher);
  return { driver, dispatcher, stop: () => driver.stop() };
}
