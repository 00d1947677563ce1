/**
 * Builds a sandbox from settings: the registry (saved merchants from `--data`, the demo merchant,
 * scenarios), the runtime, the app; and serves it over HTTP until closed.
 */
import { createAdaptorServer, type ServerType } from "@hono/node-server";
import { createHash, randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { createApp, type App } from "./app.js";
import { connectionsPerIpOf, drainSecondsOf, quotasOf, type Settings } from "./config.js";
import { DEFAULT_CONNECTION_LIMITS, guardedServer, type ConnectionLimits } from "./http/connection-limits.js";
import { inProcessRequest, type InProcessInit } from "./http/in-process-request.js";
import { listenError } from "./listen-error.js";
import { packageVersion } from "./cli/version.js";
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
import { PgNode, type PgNodeOptions } from "./persistence/pg-node.js";
import { isPostgresUrl } from "./store/postgres/connect.js";

export interface RunningSandbox {
  url: string;
  registry: Registry;
  demo: FixtureMerchant[];
  /** Merchants of the `--scenario` files, by file and alias: made now, or restored from `--data`. */
  scenarioMerchants: ScenarioMerchant[];
  /** Merchants restored from `--data`. */
  restored: number;
  store?: FileStore;
  /** With a PostgreSQL --data: this node of the cluster. */
  node?: PgNode;
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

/** How a request of the activity reaches the app. */
export type SendToApp = (app: App, path: string, init: InProcessInit, env: typeof SAMPLE_ENV) => Response | Promise<Response>;

/** Straight to `app.fetch`, no Request built (http/in-process-request.ts). */
const inProcess: SendToApp = (app, path, init, env) => app.fetch(inProcessRequest(path, init), env);

/**
 * A new demo merchant's sample activity (fixtures/demo-activity.json), made through the API itself,
 * in order, `$name` standing for a value captured from an earlier reply. A request that fails stops
 * the start with the fixture named: a broken fixture must not leave a half-made demo. `send` is how
 * the requests reach the app: tests pass `app.request` to hold the in-process way equal to it.
 */
export async function runDemoActivity(app: App, merchant: FixtureMerchant, send: SendToApp = inProcess): Promise<void> {
  const vars: Record<string, unknown> = {};
  const headers = { "x-api-key": merchant.api_key, "x-api-secret": merchant.api_secret, "content-type": "application/json" };
  for (const [i, r] of merchant.requests.entries()) {
    const path = substitute(r.path, vars) as string;
    const body = r.body === undefined ? undefined : JSON.stringify(substitute(r.body, vars));
    const res = await send(app, path, { method: r.method, headers, body }, SAMPLE_ENV);
    if (res.status >= 300) throw new Error(`fixture ${merchant.activity} request ${i + 1} (${r.method} ${path}) failed: ${res.status} ${await res.text()}`);
    // Read only to capture from it: reading an answer builds an undici Response and its stream.
    if (r.capture === undefined) continue;
    const reply = (await res.json()) as unknown;
    for (const [name, at] of Object.entries(r.capture)) vars[name] = pick(reply, at);
  }
}

/** How long a stop may take: in-flight webhook requests are cut, slow clients closed, writes flushed. */
const STOP_GRACE_MS = 2_000;

export interface StartOptions {
  /** Replaces the connection bounds (timeouts in milliseconds): tests use short ones. */
  connections?: Partial<ConnectionLimits>;
}

export async function startServer(settings: Settings, options: StartOptions = {}): Promise<RunningSandbox> {
  const pgUrl = settings.data && isPostgresUrl(settings.data) ? settings.data : undefined;
  const registry = new Registry({
    catalog: loadCatalog(settings.fixtures),
    seed: settings.seed,
    // A node of a cluster holds a cache of the merchants: the database counts them all.
    maxMerchants: pgUrl ? undefined : settings.max_merchants,
    requestLogSize: settings.request_log,
    logBudgetBytes: settings.log_budget_mb * MB,
  });
  const node = pgUrl ? await PgNode.open(pgNodeOptions(settings, pgUrl), registry) : undefined;
  try {
    return await serve(settings, options, registry, node);
  } catch (err) {
    await node?.close().catch(() => undefined);
    throw err;
  }
}

async function serve(settings: Settings, options: StartOptions, registry: Registry, node: PgNode | undefined): Promise<RunningSandbox> {
  const data = settings.data && !node ? new FileTenantStore(settings.data, registry, { sync: settings.data_sync ?? "os" }) : undefined;
  const store: TenantStore = node?.store ?? data ?? new MemoryTenantStore();
  const demo = loadDemoMerchants(settings.fixtures);
  // A cluster's nodes make the demo and scenario merchants one at a time: the first makes them, the others find them.
  const seeding = <T>(work: () => Promise<T>) => (node ? node.seeding(work) : work());
  const { restored, scenarioMerchants, runtime, server } = await seeding(async () => {
    const restored = data ? await data.restore() : node ? await node.preload(demo.map((m) => m.merchant_id), settings.scenario.map((f) => resolve(f))) : [];
    const created = addDemoMerchants(registry, demo);
    const scenarioMerchants = settings.scenario.flatMap((file) => scenarioMerchantsOf(registry, file));
    // Deliveries the log budget cuts are saved state: written like any change made outside a request.
    const keep = keepInBackground(store);
    if (keep && !node) registry.onDeliveriesCut = keep;
    await store.created([...created, ...scenarioMerchants.filter((s) => !s.restored).map((s) => s.tenant)]);
    const { runtime, app, server } = await build(settings, options, registry, store, node, demo);
    for (const m of demo) if (created.some((t) => t.id === m.merchant_id)) await runDemoActivity(app, m);
    return { restored, scenarioMerchants, runtime, server };
  });
  data?.attach(runtime.driver);
  node?.start(runtime);
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
    node,
    close: async () => {
      if (node) {
        // A cluster's node first says it is draining (/health 503) long enough for balancers to notice,
        // while it still answers what reaches it; then it stops as any sandbox does.
        await node.drain();
        await sleep(drainSecondsOf(settings) * 1000);
      }
      runtime.stop(); // wake-ups disarmed; webhook requests in flight end now, and their advances with them
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Keep-alive sockets and clients that never finish must not hold the stop open.
      const cut = setTimeout(() => (server as { closeAllConnections?: () => void }).closeAllConnections?.(), STOP_GRACE_MS);
      await closed;
      clearTimeout(cut);
      await (node ?? store).close(); // writes land, journals fold into their snapshots; a node leaves its cluster
    },
  };
}

/** The runtime, the app and the HTTP server (not listening yet). */
async function build(settings: Settings, options: StartOptions, registry: Registry, store: TenantStore, node: PgNode | undefined, demo: FixtureMerchant[]) {
  const runtime = createRuntime({ store, shared: settings.shared, leases: node?.background });
  const app = createApp({
    registry,
    runtime,
    trustProxy: settings.trust_proxy,
    publicUrl: settings.public_url,
    shared: settings.shared,
    quotas: quotasOf(settings),
    snapshotLimitBytes: Math.round(settings.snapshot_limit_mb * 1024 * 1024),
    tryItMerchant: demo[0]?.merchant_id,
    node: node && (() => node.health()),
  });
  // The server is made before the demo's activity and listens after it: making it swaps in
  // @hono/node-server's Request and Response, so the activity's answers are the light Response every
  // real request gets rather than undici's, with its streams (a cold start cost).
  const limits = { ...DEFAULT_CONNECTION_LIMITS, perAddress: connectionsPerIpOf(settings), ...options.connections };
  const server: ServerType = createAdaptorServer({ fetch: app.fetch, hostname: settings.host, createServer: guardedServer(limits) });
  return { runtime, app, server };
}

function pgNodeOptions(settings: Settings, url: string): PgNodeOptions {
  return {
    url,
    nodeId: settings.node_id ?? `${hostname().replace(/[^A-Za-z0-9._-]/g, "-").slice(0, 48)}-${randomBytes(3).toString("hex")}`,
    poolSize: settings.pg_pool_size,
    statementTimeoutMs: settings.pg_statement_timeout_ms,
    maxMerchants: settings.max_merchants,
    appVersion: packageVersion(),
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
