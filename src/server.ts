/**
 * Builds a sandbox from settings: the registry (saved merchants from `--data`, the demo merchant,
 * scenarios), the runtime, the app; and serves it over HTTP until closed.
 */
import { createAdaptorServer, type ServerType } from "@hono/node-server";
import { createHash } from "node:crypto";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { createApp, type App } from "./app.js";
import { connectionsPerIpOf, quotasOf, type Settings } from "./config.js";
import { DEFAULT_CONNECTION_LIMITS, guardedServer, type ConnectionLimits } from "./http/connection-limits.js";
import { listenError } from "./listen-error.js";
import { createRuntime } from "./runtime.js";
import { loadScenario, parseScenario, readScenarioText } from "./scenarios/load.js";
import { pick, substitute } from "./scenarios/match.js";
import type { FileStore } from "./store/file-store.js";
import { loadCatalog, loadDemoMerchants, type FixtureMerchant } from "./store/fixtures.js";
import { Registry } from "./engine/registry.js";
import { MB } from "./engine/log-budget.js";
import type { Tenant } from "./engine/tenant.js";
import { keepInBackground, MemoryTenantStore, type TenantStore } from "./engine/tenant-store.js";
import { FileTenantStore } from "./persistence/file-tenant-store.js";

export interface RunningSandbox {
  url: string;
  registry: Registry;
  demo: FixtureMerchant[];
  /** Merchants of the `--scenario` files, by file and alias: made now, or restored from `--data`. */
  scenarioMerchants: ScenarioMerchant[];
  /** Merchants restored from `--data`. */
  restored: number;
  store?: FileStore;
  close(): Promise<void>;
}

export interface ScenarioMerchant {
  file: string;
  alias: string;
  tenant: Tenant;
  /** Restored from `--data` (made by an earlier start) rather than loaded now. */
  restored: boolean;
  /** Restored, and the file has changed since: its edits are not applied to the saved merchants. */
  changed: boolean;
}

export function buildRegistry(
  settings: Pick<Settings, "seed" | "fixtures"> & { maxMerchants?: number; requestLogSize?: number; logBudgetBytes?: number },
  wall?: () => number,
) {
  const catalog = loadCatalog(settings.fixtures);
  const { maxMerchants, requestLogSize, logBudgetBytes } = settings;
  const registry = new Registry({ catalog, seed: settings.seed, wall, maxMerchants, requestLogSize, logBudgetBytes });
  const demo = loadDemoMerchants(settings.fixtures);
  addDemoMerchants(registry, demo);
  return { registry, demo };
}

/**
 * Demo merchants from the fixtures, except those already there (restored from `--data`). Their
 * identifiers come from a fixed seed, so the sample activity they start with has the same account
 * numbers and references on every start (the OpenAPI document's examples name them).
 */
function addDemoMerchants(registry: Registry, demo: FixtureMerchant[]): Tenant[] {
  return demo
    .filter((m) => !registry.get(m.merchant_id))
    .map((m) =>
      registry.create(m.settings, {
        credentials: { merchant_id: m.merchant_id, api_key: m.api_key, api_secret: m.api_secret, webhook_secret: m.webhook_secret },
        defaultClockMode: "realtime",
        seed: `fixture:${m.merchant_id}`,
      }),
    );
}

/**
 * What the replay's requests carry in place of a socket: a loopback client, and the mark that labels
 * them `sample` in the request log. It lives in the app's environment, which only an in-process caller
 * sets, so a client cannot get its own request labelled (nor hide it) with a header.
 */
const SAMPLE_ENV = { incoming: { socket: { remoteAddress: "127.0.0.1" } }, sampleActivity: true } as const;

/**
 * A new demo merchant's sample activity (fixtures/demo-activity.json), made through the API itself,
 * in order, `$name` standing for a value captured from an earlier reply. A request that fails stops
 * the start with the fixture named: a broken fixture must not leave a half-made demo.
 */
export async function runDemoActivity(app: App, merchant: FixtureMerchant): Promise<void> {
  const vars: Record<string, unknown> = {};
  const headers = { "x-api-key": merchant.api_key, "x-api-secret": merchant.api_secret, "content-type": "application/json" };
  for (const [i, r] of merchant.requests.entries()) {
    const path = substitute(r.path, vars) as string;
    const body = r.body === undefined ? undefined : JSON.stringify(substitute(r.body, vars));
    const res = await app.request(path, { method: r.method, headers, body }, SAMPLE_ENV);
    const reply = (await res.json()) as unknown;
    if (res.status >= 300) throw new Error(`fixture ${merchant.activity} request ${i + 1} (${r.method} ${path}) failed: ${res.status} ${JSON.stringify(reply)}`);
    for (const [name, at] of Object.entries(r.capture ?? {})) vars[name] = pick(reply, at);
  }
}

/** How long a stop may take: in-flight webhook requests are cut, slow clients closed, writes flushed. */
const STOP_GRACE_MS = 2_000;

export interface StartOptions {
  /** Replaces the connection bounds (timeouts in milliseconds): tests use short ones. */
  connections?: Partial<ConnectionLimits>;
}

export async function startServer(settings: Settings, options: StartOptions = {}): Promise<RunningSandbox> {
  const registry = new Registry({
    catalog: loadCatalog(settings.fixtures),
    seed: settings.seed,
    maxMerchants: settings.max_merchants,
    requestLogSize: settings.request_log,
    logBudgetBytes: settings.log_budget_mb * MB,
  });
  const data = settings.data ? new FileTenantStore(settings.data, registry, { sync: settings.data_sync ?? "os" }) : undefined;
  const store: TenantStore = data ?? new MemoryTenantStore();
  const restored = data ? await data.restore() : [];

  const demo = loadDemoMerchants(settings.fixtures);
  const created = addDemoMerchants(registry, demo);
  const scenarioMerchants = settings.scenario.flatMap((file) => scenarioMerchantsOf(registry, file));
  // Deliveries the log budget cuts are saved state: written like any change made outside a request.
  const keep = keepInBackground(store);
  if (keep) registry.onDeliveriesCut = keep;
  await store.created([...created, ...scenarioMerchants.filter((s) => !s.restored).map((s) => s.tenant)]);

  const runtime = createRuntime({ store, shared: settings.shared });
  data?.attach(runtime.driver);
  const app = createApp({
    registry,
    runtime,
    trustProxy: settings.trust_proxy,
    publicUrl: settings.public_url,
    shared: settings.shared,
    quotas: quotasOf(settings),
    snapshotLimitBytes: Math.round(settings.snapshot_limit_mb * 1024 * 1024),
    tryItMerchant: demo[0]?.merchant_id,
  });
  // The server is made before the demo's activity and listens after it: making it swaps in
  // @hono/node-server's Request and Response, so the activity's answers are the light Response every
  // real request gets rather than undici's, with its streams (a cold start cost).
  const limits = { ...DEFAULT_CONNECTION_LIMITS, perAddress: connectionsPerIpOf(settings), ...options.connections };
  const server: ServerType = createAdaptorServer({ fetch: app.fetch, hostname: settings.host, createServer: guardedServer(limits) });
  for (const m of demo) if (created.some((t) => t.id === m.merchant_id)) await runDemoActivity(app, m);
  for (const tenant of registry.list()) {
    runtime.driver.arm(tenant); // restored timers resume
    void runtime.dispatcher.drain(tenant); // events saved before their first attempt started
  }

  await new Promise<void>((done, reject) => {
    server.once("error", (err) => reject(listenError(err as NodeJS.ErrnoException, settings)));
    server.listen(settings.port, settings.host, () => done());
  });
  const { port } = server.address() as AddressInfo;
  const host = settings.host.includes(":") ? `[${settings.host}]` : settings.host;
  return {
    url: `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${port}`,
    registry,
    demo,
    scenarioMerchants,
    restored: restored.length,
    store: data?.files,
    close: async () => {
      runtime.stop(); // wake-ups disarmed; webhook requests in flight end now, and their advances with them
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Keep-alive sockets and clients that never finish must not hold the stop open.
      const cut = setTimeout(() => (server as { closeAllConnections?: () => void }).closeAllConnections?.(), STOP_GRACE_MS);
      await closed;
      clearTimeout(cut);
      await store.close(); // writes land, journals fold into their snapshots
    },
  };
}

/**
 * A `--scenario` file's merchants. With `--data` a file seeds the store once: when merchants made
 * from this file were restored, they are kept as saved (and flagged if the file changed since);
 * otherwise the file is loaded into new merchants, which remember the file and its digest.
 */
function scenarioMerchantsOf(registry: Registry, file: string): ScenarioMerchant[] {
  const path = resolve(file);
  const text = readScenarioText(file);
  const digest = createHash("sha256").update(text).digest("hex");
  const saved = registry.list().filter((t) => t.config.scenario_origin?.file === path);
  if (saved.length > 0) {
    return saved.map((tenant) => {
      const origin = tenant.config.scenario_origin!;
      return { file, alias: origin.alias, tenant, restored: true, changed: origin.digest !== digest };
    });
  }
  const loaded = loadScenario(registry, parseScenario(text, file), { source: file, seededKeys: false, origin: { file: path, digest } });
  return [...loaded.merchants].map(([alias, tenant]) => ({ file, alias, tenant, restored: false, changed: false }));
}
