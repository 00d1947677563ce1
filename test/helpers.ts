/**
 * Shared test harness: a fresh app and registry per call (no state shared between tests), a manual
 * wall clock, merchants made through the real sign-up route, and requests through `app.request()`
 * with a chosen client IP (as the node server would give it from the socket).
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, expect } from "vitest";
import { createApp, type App, type AppOptions } from "../src/app.js";
import { parseSettings } from "../src/config.js";
import { buildRegistry, runDemoActivity, startServer, type RunningSandbox } from "../src/server.js";
import { loadDemoMerchants } from "../src/store/fixtures.js";
import type { Registry } from "../src/engine/registry.js";
import type { Tenant } from "../src/engine/tenant.js";
import { checkResponse } from "./openapi-check.js";
import { startReceiver, type Receiver } from "./receiver.js";

export const START = Date.parse("2026-03-02T09:00:00.000Z");
/** START as ISO text: the manual clock every harness merchant (and `signUpAtStart`) begins at. */
const START_ISO = new Date(START).toISOString();

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
  /** apiKey and apiSecret as request headers (for requests outside `call`: over HTTP to a served app). */
  keys: KeyHeaders;
  tenant: Tenant;
  call(method: string, path: string, opts?: CallOptions): Promise<Reply>;
}

/** A response's text parsed as JSON, or the text itself when it is not JSON (HTML pages). */
function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
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
  /** The demo merchant with its sample activity (fixtures/demo-activity.json), as `npm start` makes it. */
  demoWithActivity(): Promise<Merchant>;
  /** A merchant already in the registry (one a scenario load made, say), by its id. */
  existing(merchantId: string): Merchant;
}

interface HarnessOptions extends Partial<AppOptions> {
  /** Without one, the harness builds a registry with the demo merchant (and `seed`, `maxMerchants`). */
  seed?: string;
  /** Real Date.now for realtime-timer tests. */
  realWall?: boolean;
  maxMerchants?: number;
  /** Requests kept in each merchant's request log (`--request-log`; 0 = off). */
  requestLogSize?: number;
}

export function harness(options: HarnessOptions = {}): Harness {
  const { seed, realWall, maxMerchants, requestLogSize, ...appOptions } = options;
  const wall = { now: START };
  const registry = options.registry ?? buildRegistry({ seed, maxMerchants, requestLogSize }, realWall ? Date.now : () => wall.now).registry;
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
    const parsed = jsonOrText(await res.text());
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
      keys: { "x-api-key": api_key, "x-api-secret": api_secret },
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
        body: { clock: { now: START_ISO }, ...settings },
        ip: opts.ip,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return asMerchant(registry.get(res.body.data.merchant_id)!);
    },
    demo: () => asMerchant(registry.get("mch_demo")!),
    async demoWithActivity() {
      await runDemoActivity(app, loadDemoMerchants().find((m) => m.merchant_id === "mch_demo")!);
      return asMerchant(registry.get("mch_demo")!);
    },
    existing(merchantId) {
      const tenant = registry.get(merchantId);
      expect(tenant, `merchant ${merchantId} in the registry`).toBeDefined();
      return asMerchant(tenant!);
    },
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

/** The demo merchant's keys (fixtures/merchants.json) as request headers: what `start` prints and the README shows. */
export const DEMO_KEYS = { "x-api-key": "pk_test_demo_4b1f0c9e7a2d46d1", "x-api-secret": "sk_test_demo_9f3e2a7c5b8d4e61a0c2" } as const;

/** The repository's root folder: tests run with it as the working directory. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** The absolute path of `path`, given relative to the repository's root. */
export const repoFile = (path: string): string => join(REPO_ROOT, path);

/**
 * Closes what a test opened once the test ends, pass or fail. Call it at a test file's top level (it
 * registers an `afterEach`; "after" hooks run in the reverse order of registration), then hand each
 * new server, receiver, sandbox or folder to the returned function, which gives it back.
 */
export function closedAfterEach<T>(close: (item: T) => unknown): <U extends T>(item: U) => U {
  const open: T[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((item) => close(item)));
  });
  return (item) => {
    open.push(item);
    return item;
  };
}

/** Closes a node:http server, its open (keep-alive or held) connections included. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((done) => {
    server.closeAllConnections();
    server.close(() => done());
  });
}

/**
 * Webhook receivers (test/receiver.ts), each closed after its test. Call at a test file's top level:
 * `const receiver = receivers();` then `const r = await receiver(answer?)` in a test.
 */
export function receivers(): (answer?: Receiver["answer"]) => Promise<Receiver> {
  const track = closedAfterEach((r: Receiver) => r.close());
  return async (answer) => track(await startReceiver(answer));
}

/**
 * New empty folders under the OS temp folder (named `prefix` + random), each removed with its content
 * after its test. Call at a test file's top level, before `afterEach(stopServers)` so that the servers
 * writing into a folder stop before it is removed.
 */
export function tempDirs(prefix: string): () => Promise<string> {
  const track = closedAfterEach((dir: string) => rm(dir, { recursive: true, force: true }));
  return async () => track(await mkdtemp(join(tmpdir(), prefix)));
}

/** Resolves once `check` holds, re-checking on every turn of the event loop (no fixed sleeps); throws after `limitMs` of real time. */
export async function until(check: () => boolean, what: string, limitMs = 5_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((next) => setImmediate(next));
  }
}

interface ProcessResult {
  /** The exit code (null when a signal ended it, the timeout's included). */
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `command args` in the repository's root to its exit, `stdin` (if given) as its input; killed after `timeoutMs`. */
export function runProcess(command: string, args: string[], { stdin, timeoutMs = 60_000 }: { stdin?: string | Buffer; timeoutMs?: number } = {}): Promise<ProcessResult> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: REPO_ROOT, stdio: [stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout!.setEncoding("utf8").on("data", (c: string) => (stdout += c));
    child.stderr!.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.once("error", (err) => {
      clearTimeout(timer);
      fail(err);
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
    if (stdin !== undefined) child.stdin!.end(stdin);
  });
}

/** Runs `merchant-sandbox ...args` from the sources (node --import tsx src/main.ts) in the repository's root, to its exit. */
export const runCli = (args: string[], opts: { timeoutMs?: number } = {}): Promise<ProcessResult> =>
  runProcess(process.execPath, ["--import", "tsx", "src/main.ts", ...args], opts);

/** A merchant's credentials as request headers. */
type KeyHeaders = { "x-api-key": string; "x-api-secret": string };

interface HttpCallOptions {
  /** A JSON body. */
  body?: unknown;
  /** A body sent as this exact text (JSON built by hand: deep nesting, huge payloads), as JSON. */
  raw?: string;
  /** The merchant's credentials; without them the request is anonymous. */
  keys?: KeyHeaders;
  headers?: Record<string, string>;
}

/** A reply over HTTP: `body` parsed as JSON (or the text itself when it is not JSON), and the text as it came. */
export interface HttpReply extends Reply {
  text: string;
}

/**
 * A request to a running server (`baseUrl`) over HTTP, JSON in and out (text stays text), as the
 * merchant whose `keys` are given or anonymously. A dropped connection fails with what was asked.
 */
export async function httpCall(baseUrl: string, method: string, path: string, opts: HttpCallOptions = {}): Promise<HttpReply> {
  const headers: Record<string, string> = { ...(opts.keys ?? {}), ...(opts.headers ?? {}) };
  const body = opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
  if (body !== undefined) headers["content-type"] ??= "application/json";
  let res: Response;
  try {
    res = await fetch(`${baseUrl}${path}`, { method, headers, body });
  } catch (err) {
    const cause = (err as { cause?: Error }).cause;
    throw new Error(`${method} ${path}: no reply, the connection was dropped (${(err as Error).message}${cause ? `: ${cause.message}` : ""})`);
  }
  const text = await res.text();
  return { status: res.status, body: jsonOrText(text), text, headers: res.headers };
}

/** A merchant signed up on a running server: its id, its keys, and `call`, its requests there. */
export interface ServerMerchant {
  id: string;
  keys: KeyHeaders;
  /** `httpCall` to the server it signed up on, with its keys. */
  call(method: string, path: string, opts?: Omit<HttpCallOptions, "keys">): Promise<HttpReply>;
}

/** Signs a merchant up on a running server (POST /sandbox/v1/merchants over HTTP, `settings` as given); asserts 201. */
export async function signUpAt(baseUrl: string, settings: Record<string, unknown> = {}): Promise<ServerMerchant> {
  const res = await httpCall(baseUrl, "POST", "/sandbox/v1/merchants", { body: settings });
  expect(res.status, res.text).toBe(201);
  const { merchant_id, api_key, api_secret } = res.body.data;
  const keys: KeyHeaders = { "x-api-key": api_key, "x-api-secret": api_secret };
  return { id: merchant_id, keys, call: (method, path, opts = {}) => httpCall(baseUrl, method, path, { ...opts, keys }) };
}

/** `signUpAt` with the merchant's manual clock at START, as harness().merchant signs one up, unless `settings` say otherwise. */
export const signUpAtStart = (baseUrl: string, settings: Record<string, unknown> = {}): Promise<ServerMerchant> =>
  signUpAt(baseUrl, { clock: { now: START_ISO }, ...settings });

/** The wallet balance in Naira (GET /api/v1/wallet/balance) on a running server; asserts 200. Over HTTP what client().balance() is in-process. */
export async function balanceAt(baseUrl: string, keys: KeyHeaders): Promise<number> {
  const res = await httpCall(baseUrl, "GET", "/api/v1/wallet/balance", { keys });
  expect(res.status, res.text).toBe(200);
  return res.body.data.balance;
}

/** GET /sandbox/v1/snapshot's `data` on a running server; asserts 200. Over HTTP what client().snapshot() is in-process. */
export async function snapshotAt(baseUrl: string, keys: KeyHeaders): Promise<any> {
  const res = await httpCall(baseUrl, "GET", "/sandbox/v1/snapshot", { keys });
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

/** A config file reader over `files` (path to text), as parseSettings takes one: a path not among them throws as a missing file does. */
export function configFiles(files: Record<string, string>): (path: string) => string {
  return (path) => {
    if (!(path in files)) throw new Error(`ENOENT ${path}`);
    return files[path]!;
  };
}
