/** What every route factory receives: the one `Deps` object createApp builds. */
import type { DoctorDesk } from "../doctor/desk.js";
import type { ClockDriver } from "../engine/clock-driver.js";
import type { Registry } from "../engine/registry.js";
import type { TenantStore } from "../engine/tenant-store.js";
import type { WebhookDispatcher } from "../webhooks/dispatcher.js";
import type { Commits } from "./pipeline.js";

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
  /** Where changes are kept: memory, or the `--data` folder (its health is /health's). */
  store: TenantStore;
  /** Changes made outside the merchant pipeline (scenario loads, page actions): kept, then delivered and re-armed. */
  commits: Commits;
  /** A node of a cluster (PostgreSQL --data): what /health says of it. */
  node?: () => NodeReport;
  /** The keys /docs pre-fills for "try it" (the demo merchant's), while it exists. */
  tryItKeys(): { apiKey: string; apiSecret: string } | undefined;
}

/** A cluster node's own report on /health: its id and its store's state (never a password). */
export interface NodeReport {
  node: string;
  store: { kind: string; state: "ok" | "failing" | "draining" } & Record<string, unknown>;
}
