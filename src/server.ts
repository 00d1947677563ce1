/**
 * Builds a sandbox from settings: the registry (saved merchants from `--data`, the demo merchant,
 * scenarios), the runtime, the app; and serves it over HTTP until closed.
 */
import { serve, type ServerType } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { createApp } from "./app.js";
import type { Settings } from "./config.js";
import { createRuntime } from "./engine/runtime.js";
import { loadScenario, readScenarioFile } from "./scenarios/load.js";
import { FileStore } from "./store/file-store.js";
import { loadCatalog, loadDemoMerchants, type FixtureMerchant } from "./store/fixtures.js";
import { Registry } from "./store/registry.js";
import type { Tenant } from "./store/tenant.js";

export interface RunningSandbox {
  url: string;
  registry: Registry;
  demo: FixtureMerchant[];
  /** Merchants loaded from `--scenario` files, by file and alias. */
  scenarioMerchants: Array<{ file: string; alias: string; tenant: Tenant }>;
  /** Merchants restored from `--data`. */
  restored: number;
  store?: FileStore;
  close(): Promise<void>;
}

export function buildRegistry(settings: Pick<Settings, "seed" | "fixtures">, wall?: () => number) {
  const catalog = loadCatalog(settings.fixtures);
  const registry = new Registry({ catalog, seed: settings.seed, wall });
  const demo = loadDemoMerchants(settings.fixtures);
  addDemoMerchants(registry, demo);
  return { registry, demo };
}

/** Demo merchants from the fixtures, except those already there (restored from `--data`). */
function addDemoMerchants(registry: Registry, demo: FixtureMerchant[]): Tenant[] {
  return demo
    .filter((m) => !registry.get(m.merchant_id))
    .map((m) =>
      registry.create(m.settings, {
        credentials: { merchant_id: m.merchant_id, api_key: m.api_key, api_secret: m.api_secret, webhook_secret: m.webhook_secret },
        defaultClockMode: "realtime",
      }),
    );
}

export async function startServer(settings: Settings): Promise<RunningSandbox> {
  const registry = new Registry({ catalog: loadCatalog(settings.fixtures), seed: settings.seed });
  const store = settings.data ? new FileStore(settings.data) : undefined;
  const restored = store ? await store.loadAll() : [];
  for (const snapshot of restored) registry.restore(snapshot);

  const demo = loadDemoMerchants(settings.fixtures);
  const created = addDemoMerchants(registry, demo);
  const scenarioMerchants: RunningSandbox["scenarioMerchants"] = [];
  // With --data a scenario seeds the store once: on later starts its merchants are restored instead.
  if (restored.length === 0) {
    for (const file of settings.scenario) {
      const loaded = loadScenario(registry, readScenarioFile(file), { source: file, seededKeys: false });
      for (const [alias, tenant] of loaded.merchants) scenarioMerchants.push({ file, alias, tenant });
    }
  }
  const persist = store ? (t: Tenant) => store.persist(t) : undefined;
  if (persist) await Promise.all([...created, ...scenarioMerchants.map((s) => s.tenant)].map(persist));

  const runtime = createRuntime({ persist });
  const app = createApp({ registry, runtime, persist, trustProxy: settings.trust_proxy, publicUrl: settings.public_url });
  for (const tenant of registry.list()) runtime.driver.arm(tenant); // restored timers resume

  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: settings.host, port: settings.port }, () => resolve(s));
    s.once("error", reject);
  });
  const { port } = server.address() as AddressInfo;
  const host = settings.host.includes(":") ? `[${settings.host}]` : settings.host;
  return {
    url: `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${port}`,
    registry,
    demo,
    scenarioMerchants,
    restored: restored.length,
    store,
    close: async () => {
      runtime.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await store?.flush();
    },
  };
}
