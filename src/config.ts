/**
 * Every setting of the server, as one zod schema with its default and description: the single source
 * for `--help`, the README table (a test checks them against each other) and validation.
 * Sources, lowest priority first: a config file (`--config`, JSON or YAML), environment variables
 * `MERCHANT_SANDBOX_<NAME>`, flags `--<name>`. Parsing returns errors as values: nothing here exits.
 */
import { parseArgs } from "node:util";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { DEFAULT_MAX_MERCHANTS, MAX_DELIVERIES, SCENARIO_LOADS_PER_MINUTE, SIGNUPS_PER_MINUTE } from "./domain/bounds.js";
import { thousands } from "./domain/money.js";
import { DEFAULT_REQUEST_LOG_SIZE, MAX_REQUEST_LOG_SIZE, REQUEST_LOG_BYTES } from "./domain/request-log.js";
import { DEFAULT_LOG_BUDGET_MB, MAX_LOG_BUDGET_MB, MB } from "./engine/log-budget.js";
import { SNAPSHOT_LIMIT_BYTES } from "./http/body-limit.js";
import { CONNECTIONS_PER_ADDRESS, SHARED_CONNECTIONS_PER_ADDRESS } from "./http/connection-limits.js";
import { DATA_SYNC_LEVELS } from "./store/file-store.js";
import { isPostgresUrl, parsePostgresUrl, PG_DEFAULTS } from "./store/postgres/connect.js";

// A URL names a database or a service, never a folder: taken as a path it would quietly become a
// folder named after its scheme ("postgres:") in the working directory.
const URL_SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;
/** How long a node of a cluster says it is draining before it stops (a balancer's health check sees it first). */
const CLUSTER_DRAIN_SECONDS = 5;

const bool = z.union([z.boolean(), z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1")]);
const list = z.union([z.array(z.string().min(1)), z.string().transform((v) => v.split(",").map((s) => s.trim()).filter(Boolean))]);

export const SettingsSchema = z
  .object({
    host: z.string().min(1).default("127.0.0.1").describe("Address to listen on"),
    port: z.coerce.number().int().min(0).max(65535).default(4010).describe("Port to listen on (0 = any free port)"),
    trust_proxy: bool.default(false).describe("Take the client IP from X-Forwarded-For (only behind your own proxy)"),
    public_url: z
      .url({ protocol: /^https?$/, message: "Must be an http(s) URL, e.g. https://sandbox.example.com" })
      // Links are built as `${public_url}/pay/...`: a trailing slash would double it.
      .transform((url) => url.replace(/\/+$/, ""))
      .optional()
      .describe("Base URL for payment_link/checkout_url (default: the request's origin)"),
    seed: z.string().min(1).optional().describe("Seed for deterministic identifiers, account numbers and PANs"),
    fixtures: z.string().min(1).optional().describe("Folder with replacement fixture files (default: the bundled fixtures/)"),
    data: z
      .string()
      .min(1)
      .superRefine((value, ctx) => {
        const scheme = URL_SCHEME.exec(value)?.[1];
        if (scheme && !isPostgresUrl(value)) {
          ctx.addIssue({ code: "custom", message: `${scheme}:// is not a store this sandbox knows; --data takes a folder path (--data ./sandbox-data) or a PostgreSQL URL (--data postgres://USER:PASSWORD@HOST:5432/DB)` });
          return;
        }
        if (!scheme) return;
        try {
          parsePostgresUrl(value);
        } catch (err) {
          ctx.addIssue({ code: "custom", message: (err as Error).message });
        }
      })
      .optional()
      .describe("Where merchants are kept: a folder (a snapshot and a journal of changes each), or postgres://USER:PASSWORD@HOST:PORT/DB, shared by every node started with it (default: in memory only)"),
    data_sync: z
      .enum(DATA_SYNC_LEVELS)
      .optional()
      .describe("With --data, when a change counts as saved: os = handed to the operating system (default), fsync = on the disk (fdatasync per grouped write)"),
    node_id: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,64}$/, "Use 1-64 letters, digits, dots, dashes or underscores")
      .optional()
      .describe("With a PostgreSQL --data, this node's name in /health and the nodes table (default: the host name and a random suffix)"),
    pg_pool_size: z.coerce.number().int().min(1).max(1000).default(PG_DEFAULTS.poolSize).describe("With a PostgreSQL --data, connections this node opens (keep nodes x this under the server's max_connections)"),
    pg_statement_timeout_ms: z.coerce
      .number()
      .int()
      .min(100)
      .max(600_000)
      .default(PG_DEFAULTS.statementTimeoutMs)
      .describe("With a PostgreSQL --data, the longest one statement may run or wait for a lock, in ms; past it the request answers 503"),
    drain_seconds: z.coerce
      .number()
      .int()
      .min(0)
      .max(300)
      .optional()
      .describe(`On SIGTERM, how long /health answers 503 (draining) before the node stops taking connections (default ${CLUSTER_DRAIN_SECONDS} with a PostgreSQL --data, else 0)`),
    scenario: list.default([]).describe("Scenario file(s) to load at start (repeat the flag, or comma-separate)"),
    shared: bool
      .default(false)
      .describe("Shared use on a network: webhooks to loopback and private addresses refused, tighter sign-up quotas, /health without counts"),
    max_merchants: z.coerce.number().int().min(1).max(1_000_000).default(DEFAULT_MAX_MERCHANTS).describe("Most merchants the sandbox holds (about 8 KB each when idle)"),
    signups_per_minute: z.coerce.number().int().min(0).max(1_000_000).optional().describe(`Sign-ups per client IP per minute; 0 = no quota (default ${SIGNUPS_PER_MINUTE.default}, or ${SIGNUPS_PER_MINUTE.shared} with --shared)`),
    scenario_loads_per_minute: z.coerce.number().int().min(0).max(1_000_000).optional().describe(`POST /sandbox/v1/scenarios per client IP per minute; 0 = no quota (default ${SCENARIO_LOADS_PER_MINUTE.default}, or ${SCENARIO_LOADS_PER_MINUTE.shared} with --shared)`),
    connections_per_ip: z.coerce
      .number()
      .int()
      .min(0)
      .max(1_000_000)
      .optional()
      .describe(
        `Open connections per client IP (the socket's address); past it a new connection is closed at once; 0 = no cap ` +
          `(default ${CONNECTIONS_PER_ADDRESS}, or ${SHARED_CONNECTIONS_PER_ADDRESS} with --shared; no cap with --trust-proxy, where every connection comes from the proxy)`,
      ),
    snapshot_limit_mb: z.coerce.number().positive().max(1024).default(SNAPSHOT_LIMIT_BYTES / MB).describe("Largest PUT /sandbox/v1/snapshot body, in MB"),
    request_log: z.coerce
      .number()
      .int()
      .min(0)
      .max(MAX_REQUEST_LOG_SIZE)
      .default(DEFAULT_REQUEST_LOG_SIZE)
      .describe("Requests kept in each merchant's request log (GET /sandbox/v1/requests); 0 = no log"),
    log_budget_mb: z.coerce
      .number()
      .int()
      .min(1)
      .max(MAX_LOG_BUDGET_MB)
      .default(DEFAULT_LOG_BUDGET_MB)
      .describe(
        `Most memory, in MB (estimated), that the request logs and webhook delivery logs of all merchants hold together; ` +
          `past it the largest logs lose their oldest entries (each merchant's own bounds: ${REQUEST_LOG_BYTES / MB} MB of requests, ${thousands(MAX_DELIVERIES)} deliveries)`,
      ),
  })
  .strict();
export type Settings = z.infer<typeof SettingsSchema>;

const KEYS = Object.keys(SettingsSchema.shape) as Array<keyof Settings>;
const flag = (key: string) => key.replaceAll("_", "-");

/** `readFile` reads the `--config` file; it is injected so that tests need no files. */
export function parseSettings(argv: string[], env: NodeJS.ProcessEnv, readFile?: (path: string) => string): { settings: Settings } | { error: string } {
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        host: { type: "string" },
        port: { type: "string" },
        "trust-proxy": { type: "boolean" },
        "public-url": { type: "string" },
        seed: { type: "string" },
        fixtures: { type: "string" },
        data: { type: "string" },
        "data-sync": { type: "string" },
        "node-id": { type: "string" },
        "pg-pool-size": { type: "string" },
        "pg-statement-timeout-ms": { type: "string" },
        "drain-seconds": { type: "string" },
        scenario: { type: "string", multiple: true },
        shared: { type: "boolean" },
        "max-merchants": { type: "string" },
        "signups-per-minute": { type: "string" },
        "scenario-loads-per-minute": { type: "string" },
        "connections-per-ip": { type: "string" },
        "snapshot-limit-mb": { type: "string" },
        "request-log": { type: "string" },
        "log-budget-mb": { type: "string" },
        config: { type: "string" },
      },
    }));
  } catch (err) {
    return { error: (err as Error).message };
  }

  const raw: Record<string, unknown> = {};
  const configPath = (values.config as string | undefined) ?? env.MERCHANT_SANDBOX_CONFIG;
  if (configPath) {
    if (!readFile) return { error: "a config file was given but cannot be read here" };
    let doc: unknown;
    try {
      const text = readFile(configPath);
      // A .json file is read as strict JSON: YAML would quietly accept a trailing comma or a comment.
      doc = /\.json$/i.test(configPath) ? JSON.parse(text) : parseYaml(text);
    } catch (err) {
      return { error: `config file ${configPath} cannot be read: ${(err as Error).message.split("\n")[0]}` };
    }
    if (doc !== null && (typeof doc !== "object" || Array.isArray(doc))) return { error: `config file ${configPath} must hold an object of settings` };
    for (const [key, value] of Object.entries((doc ?? {}) as Record<string, unknown>)) {
      const name = key.replaceAll("-", "_");
      if (!KEYS.includes(name as keyof Settings)) return { error: `config file ${configPath}: unknown setting "${key}" (known: ${KEYS.join(", ")})` };
      raw[name] = value;
    }
  }
  for (const key of KEYS) {
    const fromEnv = env[`MERCHANT_SANDBOX_${key.toUpperCase()}`];
    const fromFlag = values[flag(key)];
    if (fromFlag !== undefined) raw[key] = fromFlag;
    else if (fromEnv !== undefined && fromEnv !== "") raw[key] = fromEnv;
  }
  // Parsed once: zod's compiled fast path (new Function, which V8's code cache cannot keep) would cost more than it saves.
  const result = SettingsSchema.safeParse(raw, { jitless: true });
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const key = String(issue.path[0]);
    return { error: `invalid setting ${key} (--${flag(key)} / MERCHANT_SANDBOX_${key.toUpperCase()}): ${issue.message}` };
  }
  const settings = result.data;
  if (settings.data && isPostgresUrl(settings.data)) {
    if (settings.data_sync) return { error: "--data-sync applies to a --data folder; PostgreSQL decides durability itself (its synchronous_commit)" };
    // Nodes sharing one seed would draw the same merchant ids and account numbers.
    if (settings.seed) return { error: "--seed cannot be used with a PostgreSQL --data: every node would draw the same identifiers (a scenario's own seed is fine)" };
  }
  return { settings };
}

/** The drain on SIGTERM: the explicit setting, else by store. */
export function drainSecondsOf(settings: Pick<Settings, "data" | "drain_seconds">): number {
  return settings.drain_seconds ?? (settings.data && isPostgresUrl(settings.data) ? CLUSTER_DRAIN_SECONDS : 0);
}

/** Each setting's default as text, or "" when it has none. */
export function defaultOf(key: keyof Settings): string {
  const parsed = SettingsSchema.shape[key].safeParse(undefined);
  if (!parsed.success || parsed.data === undefined) return "";
  return Array.isArray(parsed.data) ? (parsed.data.length ? parsed.data.join(",") : "") : String(parsed.data);
}

export const SETTING_KEYS = KEYS;

export function settingsHelp(): string {
  const rows = KEYS.map((key) => {
    const schema = SettingsSchema.shape[key];
    const def = defaultOf(key);
    return `  --${flag(key).padEnd(26)} MERCHANT_SANDBOX_${key.toUpperCase().padEnd(26)} ${schema.description ?? ""}${def ? ` (default: ${def})` : ""}`;
  });
  rows.push(`  --${"config".padEnd(26)} MERCHANT_SANDBOX_${"CONFIG".padEnd(26)} A JSON or YAML file of these settings (lowest priority)`);
  return rows.join("\n");
}

/** The quotas on anonymous work, per client IP per minute: explicit settings, else by mode. */
export function quotasOf(settings: Pick<Settings, "shared" | "signups_per_minute" | "scenario_loads_per_minute">) {
  const mode = settings.shared ? "shared" : "default";
  return {
    signupsPerMinute: settings.signups_per_minute ?? SIGNUPS_PER_MINUTE[mode],
    scenarioLoadsPerMinute: settings.scenario_loads_per_minute ?? SCENARIO_LOADS_PER_MINUTE[mode],
  };
}

/** The cap on open connections per client address (0 = none): the explicit setting, else by mode. */
export function connectionsPerIpOf(settings: Pick<Settings, "shared" | "trust_proxy" | "connections_per_ip">): number {
  if (settings.connections_per_ip !== undefined) return settings.connections_per_ip;
  // Behind the user's own proxy every connection has the proxy's address: the proxy bounds its clients.
  if (settings.trust_proxy) return 0;
  return settings.shared ? SHARED_CONNECTIONS_PER_ADDRESS : CONNECTIONS_PER_ADDRESS;
}
