/** Builds the registry (catalogue + demo merchants) and serves the app over HTTP. */
import { serve, type ServerType } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { createApp } from "./app.js";
import { createRuntime } from "./engine/runtime.js";
import type { Settings } from "./config.js";
import { loadCatalog, loadDemoMerchants, type FixtureMerchant } from "./store/fixtures.js";
import { Registry } from "./store/registry.js";

export interface RunningSandbox {
  url: string;
  registry: Registry;
  demo: FixtureMerchant[];
  close(): Promise<void>;
}

export function buildRegistry(settings: Pick<Settings, "seed" | "fixtures">, wall?: () => number) {
  const catalog = loadCatalog(settings.fixtures);
  const registry = new Registry({ catalog, seed: settings.seed, wall });
  const demo = loadDemoMerchants(settings.fixtures);
  for (const m of demo) {
    registry.create(m.settings, {
      credentials: { merchant_id: m.merchant_id, api_key: m.api_key, api_secret: m.api_secret, webhook_secret: m.webhook_secret },
      defaultClockMode: "realtime",
    });
  }
  return { registry, demo };
}

export async function startServer(settings: Settings): Promise<RunningSandbox> {
  const { registry, demo } = buildRegistry(settings);
  const runtime = createRuntime();
  const app = createApp({ registry, runtime, trustProxy: settings.trust_proxy, publicUrl: settings.public_url });
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
    close: () => {
      runtime.stop();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
