/**
 * Shared test harness: a fresh app and registry per call (no state shared between tests), a manual
 * wall clock, merchants made through the real sign-up route, and requests through `app.request()`
 * with a chosen client IP (as the node server would give it from the socket).
 */
import { expect } from "vitest";
import { createApp, type App, type AppOptions } from "../src/app.js";
import { parseSettings } from "../src/config.js";
import { buildRegistry, startServer, type RunningSandbox } from "../src/server.js";
import type { Registry } from "../src/engine/registry.js";
import type { Tenant } from "../src/engine/tenant.js";
import { checkResponse } from "./openapi-check.js";

export const START = Date.parse("2026-03-02T09:00:00.000Z");

export interface CallOptions {
  body?: unknown;
  /** A raw string body, sent as is (for malformed JSON tests). */
  raw?: string;
  headers?: Record<string, string>;
  ip?: string;
  /** Leave out the merchant's credentials. */
  anonymous?: boolean;
}

export interface Reply {
  status: number;
  body: any;
  headers: Headers;
}

export interface Merchant {
  id: string;
  apiKey: string;
  apiSecret: string;
  webhookSecret: string;
  tenant: Tenant;
  call(method: string, path: string, opts?: CallOptions): Promise<Reply>;
}

export interface Harness {
  app: App;
  registry: Registry;
  /** The wall clock every realtime clock reads; tests move it by hand. */
  wall: { now: number };
  call(method: string, path: string, opts?: CallOptions): Promise<Reply>;
  /** Creates a merchant through POST /sandbox/v1/merchants (manual clock at START unless given), from `ip`. */
  merchant(settings?: Record<string, unknown>, opts?: { ip?: string }): Promise<Merchant>;
  /** The demo merchant of fixtures/merchants.json. */
  demo(): Merchant;
}

export interface HarnessOptions extends Partial<AppOptions> {
  /** Without one, the harness builds a registry with the demo merchant (and `seed`, `maxMerchants`). */
  seed?: string;
  /** Real Date.now for realtime-timer tests. */
  realWall?: boolean;
  maxMerchants?: number;
}

export function harness(options: HarnessOptions = {}): Harness {
  const { seed, realWall, maxMerchants, ...appOptions } = options;
  const wall = { now: START };
  const registry = options.registry ?? buildRegistry({ seed, maxMerchants }, realWall ? Date.now : () => wall.now).registry;
  const app = createApp({ ...appOptions, registry });

  async function call(method: string, path: string, opts: CallOptions = {}): Promise<Reply> {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    let body: string | undefined = opts.raw;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers["content-type"] ??= "application/json";
    }
    const env = { incoming: { socket: { remoteAddress: opts.ip ?? "127.0.0.1" } } };
    const res = await app.request(path, { method, headers, body }, env);
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // non-JSON (HTML pages) stays text
    }
    const mismatch = checkResponse(method, path, res.status, parsed);
    expect(mismatch, "every response must match the OpenAPI document").toBeUndefined();
    return { status: res.status, body: parsed, headers: res.headers };
  }

  const asMerchant = (tenant: Tenant): Merchant => {
    const { api_key, api_secret, webhook_secret } = tenant.config;
    return {
      id: tenant.id,
      apiKey: api_key,
      apiSecret: api_secret,
      webhookSecret: webhook_secret,
      tenant,
      call: (method, path, opts = {}) =>
        call(method, path, {
          ...opts,
          headers: opts.anonymous ? opts.headers : { "x-api-key": api_key, "x-api-secret": api_secret, ...(opts.headers ?? {}) },
        }),
    };
  };

  return {
    app,
    registry,
    wall,
    call,
    async merchant(settings = {}, opts = {}) {
      const res = await call("POST", "/sandbox/v1/merchants", {
        body: { clock: { now: new Date(START).toISOString() }, ...settings },
        ip: opts.ip,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return asMerchant(registry.get(res.body.data.merchant_id)!);
    },
    demo: () => asMerchant(registry.get("mch_demo")!),
  };
}

/** The wallet invariant: balance == sum of the ledger, every running balance consistent and >= 0. */
export function expectLedgerConsistent(tenant: Tenant): void {
  let running = 0;
  for (const entry of tenant.state.ledger) {
    running += entry.amount;
    expect(Number.isInteger(entry.amount)).toBe(true);
    expect(entry.balance_after).toBe(running);
    expect(entry.balance_after).toBeGreaterThanOrEqual(0);
  }
  const last = tenant.state.ledger.at(-1)?.balance_after ?? 0;
  expect(last).toBe(running);
}

/** Balance through the API, in Naira. */
export async function balanceOf(m: Merchant): Promise<number> {
  const res = await m.call("GET", "/api/v1/wallet/balance");
  expect(res.status).toBe(200);
  return res.body.data.balance;
}

/** Asserts the one error envelope and returns it. */
export function expectError(res: Reply, status: number, code: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ success: false, error_code: code });
  expect(typeof res.body.message).toBe("string");
  expect(res.body.message.length).toBeGreaterThan(0);
  return res.body as { success: false; message: string; error_code: string; errors?: Record<string, string[]>; retry_after?: number };
}

/** A valid NUBAN at a 3-digit bank (check digit computed by the CBN algorithm). */
export { makeNuban } from "../src/domain/nuban.js";

/** Starts a real server from CLI-style flags (port 0 unless given); `stopServers()` stops them all. */
const servers: RunningSandbox[] = [];
export async function startFromArgs(argv: string[]): Promise<RunningSandbox> {
  const parsed = parseSettings(argv.includes("--port") ? argv : ["--port", "0", ...argv], {});
  if ("error" in parsed) throw new Error(parsed.error);
  const s = await startServer(parsed.settings);
  servers.push(s);
  return s;
}
export async function stopServers(): Promise<void> {
  await Promise.all(servers.splice(0).map((s) => s.close()));
}
