/**
 * The deploy examples of examples/cluster/ as an operator would apply them: they parse, they name only
 * settings that exist (each node's command and environment go through the sandbox's own parser), and
 * their numbers fit together: the balancer notices a draining node within its drain, the supervisor
 * waits past the drain, the balancer waits past any answer held back on purpose. The how-to page
 * states the defaults the code has and quotes the files as they are.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";
import { defaultOf, drainSecondsOf, parseSettings, SETTING_KEYS, type Settings } from "../../src/config.js";
import { MAX_RESPONSE_DELAY_SECONDS } from "../../src/domain/bounds.js";
import { describeDataTarget, isPostgresUrl, parsePostgresUrl } from "../../src/store/postgres/connect.js";
import { SCHEMA_VERSION } from "../../src/store/postgres/migrations.js";

const DIR = "examples/cluster";
const PAGE = "docs/how-to/run-a-cluster.md";
const read = (file: string) => readFileSync(file, "utf8");
const composeText = read(`${DIR}/compose.yaml`);
const haproxy = read(`${DIR}/haproxy.cfg`);
const k8sText = read(`${DIR}/k8s.yaml`);
const page = read(PAGE);

// `--config` is a real flag of `start` too, though not a setting of its own.
const FLAGS = new Set([...SETTING_KEYS, "config"].map((key) => key.replaceAll("_", "-")));
const ENV_NAMES = new Set([...SETTING_KEYS, "config"].map((key) => `MERCHANT_SANDBOX_${key.toUpperCase()}`));
const flagsIn = (words: readonly string[]) => words.flatMap((w) => /^--([a-z][a-z0-9-]*)/.exec(w)?.slice(1, 2) ?? []);

/** Flags and sandbox variables named in a file's comments and values; commands quoted in backticks are the shell's, not the sandbox's. */
function namedInText(text: string): { flags: string[]; env: string[] } {
  const bare = text.replace(/`[^`\n]*`/g, "");
  return {
    flags: [...bare.matchAll(/(?<![\w-])--([a-z][a-z0-9-]*)/g)].map((m) => m[1]!),
    env: [...bare.matchAll(/\bMERCHANT_SANDBOX_[A-Z0-9_]+/g)].map((m) => m[0]),
  };
}

/** A node's settings as `merchant-sandbox start` would parse them; the image's entrypoint runs the CLI, so a command starts with `start`. */
function settingsOf(command: readonly string[], env: Record<string, string>, where: string): Settings {
  expect(command[0], `${where}: the command runs \`start\``).toBe("start");
  const parsed = parseSettings(command.slice(1), env);
  if ("error" in parsed) throw new Error(`${where}: ${parsed.error}`);
  return parsed.settings;
}

/** Seconds of a Compose duration ("15s", "1m30s") or an HAProxy time ("180s", "1s", "500ms"; bare numbers are ms). */
function seconds(text: string, bare: "s" | "ms"): number {
  const unit = { h: 3600, m: 60, s: 1, ms: 0.001, us: 0.000001 } as const;
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(h|ms|us|m|s)?/g)];
  expect(parts.map((p) => p[0]).join(""), `a duration: ${text}`).toBe(text);
  return parts.reduce((sum, p) => sum + Number(p[1]) * unit[(p[2] ?? bare) as keyof typeof unit], 0);
}

// ---- compose.yaml

interface ComposeService {
  image?: string;
  build?: string | { context: string };
  command?: string[];
  environment?: Record<string, string | number | boolean> | string[];
  depends_on?: string[] | Record<string, { condition?: string }>;
  stop_grace_period?: string;
  healthcheck?: { test: unknown };
  ports?: string[];
  volumes?: string[];
}
const compose = parse(composeText, { merge: true }) as { services: Record<string, ComposeService>; volumes?: Record<string, unknown> };
const services = Object.entries(compose.services);
const environmentOf = (s: ComposeService): Record<string, string> =>
  Array.isArray(s.environment)
    ? Object.fromEntries(s.environment.map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]))
    : Object.fromEntries(Object.entries(s.environment ?? {}).map(([k, v]) => [k, String(v)]));
/** The services built from this repository's Dockerfile: the sandbox nodes. */
const nodes = services.filter(([, s]) => s.build !== undefined && resolve(DIR, typeof s.build === "string" ? s.build : s.build.context) === resolve("."));
const postgresServices = services.filter(([, s]) => s.image?.startsWith("postgres:"));
let parsedNodes: Map<string, Settings> | undefined;
/** Each node's settings, parsed on first use: a file naming an unknown flag fails its own test, not the whole file. */
const nodeSettings = () => (parsedNodes ??= new Map(nodes.map(([name, s]) => [name, settingsOf(s.command ?? [], environmentOf(s), `compose.yaml ${name}`)])));

// ---- haproxy.cfg

const haproxyLine = (pattern: RegExp, what: string) => {
  const m = pattern.exec(haproxy);
  expect(m, `haproxy.cfg: ${what}`).not.toBeNull();
  return m!;
};
const haproxyServers = [...haproxy.matchAll(/^\s*server\s+\S+\s+([^\s:]+):(\d+)/gm)].map((m) => ({ host: m[1]!, port: Number(m[2]) }));
/** How long HAProxy takes at most to take a node that answers 503 out: the check interval times the failures it needs. */
function haproxyNoticeSeconds(): number {
  const server = haproxyLine(/^\s*default-server\s+(.*)$/m, "a default-server line with the checks")[1]!;
  const inter = /\binter\s+(\S+)/.exec(server)?.[1];
  const fall = /\bfall\s+(\d+)/.exec(server)?.[1];
  expect(inter && fall, "default-server sets inter and fall").toBeTruthy();
  return seconds(inter!, "ms") * Number(fall);
}

// ---- k8s.yaml

interface K8sObject {
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  [field: string]: any;
}
const k8sDocs = parseAllDocuments(k8sText);
const k8s = k8sDocs.map((d) => d.toJS() as K8sObject);
const ofKind = (kind: string) => k8s.filter((o) => o.kind === kind);
/** A pod name as a Deployment makes them, at the longest Kubernetes allows (63 characters). */
const POD_NAME = `merchant-sandbox-${"7c9d8f6b5".padEnd(40, "x")}-abcde`;

/** The container's environment as the pod sees it: values, Secret keys, downward API fields. */
function podEnvironment(container: any): Record<string, string> {
  const env: Record<string, string> = {};
  for (const e of container.env ?? []) {
    if (e.value !== undefined) env[e.name] = String(e.value);
    else if (e.valueFrom?.secretKeyRef) {
      const { name, key } = e.valueFrom.secretKeyRef;
      const secret = ofKind("Secret").find((s) => s.metadata.name === name);
      expect(secret, `k8s.yaml: the Secret ${name} that ${e.name} reads`).toBeDefined();
      const value = secret!.stringData?.[key] ?? (secret!.data?.[key] !== undefined ? Buffer.from(secret!.data[key], "base64").toString() : undefined);
      expect(value, `k8s.yaml: key ${key} of the Secret ${name}`).toBeDefined();
      env[e.name] = value!;
    } else if (e.valueFrom?.fieldRef) {
      expect(e.valueFrom.fieldRef.fieldPath, `k8s.yaml: ${e.name}`).toBe("metadata.name");
      env[e.name] = POD_NAME;
    } else throw new Error(`k8s.yaml: ${e.name} has no value this test knows how to read`);
  }
  return env;
}
const deployment = ofKind("Deployment")[0]!;
const container = deployment?.spec.template.spec.containers[0];
/** A probe's or Service's port, by number or by the container port's name. */
const portNumber = (port: number | string) => (typeof port === "number" ? port : container.ports.find((p: { name?: string }) => p.name === port)?.containerPort);

describe("examples/cluster/compose.yaml", () => {
  it("has one PostgreSQL and three sandbox nodes with distinct node ids", () => {
    expect(postgresServices.map(([name]) => name)).toHaveLength(1);
    expect(nodes).toHaveLength(3);
    const ids = [...nodeSettings().values()].map((s) => s.node_id);
    expect(ids.every((id) => id !== undefined)).toBe(true);
    expect(new Set(ids).size).toBe(3);
  });

  it("runs the repository's image, whose entrypoint is the CLI (so a command starts with `start`)", () => {
    expect(read("Dockerfile")).toMatch(/^ENTRYPOINT \["node", "dist\/cli\.mjs"\]$/m);
  });

  it("names only flags and MERCHANT_SANDBOX_* variables that are settings", () => {
    const named = nodes.map(([, s]) => ({ flags: flagsIn(s.command ?? []), env: Object.keys(environmentOf(s)).filter((k) => k.startsWith("MERCHANT_SANDBOX_")) }));
    const text = namedInText(composeText);
    const flags = [...named.flatMap((n) => n.flags), ...text.flags];
    const env = [...named.flatMap((n) => n.env), ...text.env];
    expect(flags.length).toBeGreaterThan(0);
    expect(env.length).toBeGreaterThan(0);
    for (const f of flags) expect(FLAGS, `--${f} in compose.yaml`).toContain(f);
    for (const e of env) expect(ENV_NAMES, `${e} in compose.yaml`).toContain(e);
  });

  it("gives every node the same PostgreSQL URL, that of the postgres service, and waits until it is healthy", () => {
    const [pgName, pg] = postgresServices[0]!;
    const pgEnv = environmentOf(pg);
    const urls = new Set([...nodeSettings().values()].map((s) => s.data));
    expect(urls.size).toBe(1);
    const url = [...urls][0]!;
    expect(isPostgresUrl(url)).toBe(true);
    const target = parsePostgresUrl(url);
    expect(target).toEqual({ host: pgName, port: 5432, user: pgEnv.POSTGRES_USER, database: pgEnv.POSTGRES_DB });
    expect(decodeURIComponent(new URL(url).password)).toBe(pgEnv.POSTGRES_PASSWORD);
    expect(pg.healthcheck?.test).toBeDefined();
    const volume = pg.volumes?.map((v) => v.split(":")[0]!).find((v) => v in (compose.volumes ?? {}));
    expect(volume, "PostgreSQL's data on a named volume").toBeDefined();
    for (const [name, s] of nodes) expect((s.depends_on as Record<string, { condition?: string }>)[pgName]?.condition, name).toBe("service_healthy");
  });

  it("runs the nodes behind a proxy they trust, with links to the balancer's address", () => {
    const published = compose.services.haproxy?.ports ?? [];
    for (const [name, s] of nodeSettings()) {
      expect(s.host, name).toBe("0.0.0.0");
      expect(s.trust_proxy, name).toBe(true);
      expect(published, `${name}'s --public-url is the port HAProxy publishes`).toContainEqual(expect.stringMatching(new RegExp(`^${new URL(s.public_url!).port}:`)));
    }
  });

  it("waits longer than each node's drain before it kills the node", () => {
    for (const [name, s] of nodes) {
      expect(s.stop_grace_period, `${name} has a stop_grace_period`).toBeDefined();
      expect(seconds(s.stop_grace_period!, "s"), name).toBeGreaterThan(drainSecondsOf(nodeSettings().get(name)!));
    }
  });
});

describe("examples/cluster/haproxy.cfg", () => {
  it("checks /health and keeps only nodes that answer 200", () => {
    expect(haproxy).toMatch(/^\s*option httpchk GET \/health\s*$/m);
    expect(haproxy).toMatch(/^\s*http-check expect status 200\s*$/m);
    expect(haproxy).toMatch(/^\s*balance roundrobin\s*$/m);
  });

  it("names each compose node as a server, on the port it listens on", () => {
    expect(haproxyServers.map((s) => s.host).sort()).toEqual(nodes.map(([name]) => name).sort());
    for (const server of haproxyServers) expect(server.port, server.host).toBe(nodeSettings().get(server.host)!.port);
  });

  it("takes a draining node out before its drain ends", () => {
    const drain = Math.min(...[...nodeSettings().values()].map(drainSecondsOf));
    expect(haproxyNoticeSeconds()).toBeLessThan(drain);
  });

  it("waits longer than the longest answer the sandbox holds back on purpose", () => {
    expect(seconds(haproxyLine(/^\s*timeout server\s+(\S+)/m, "timeout server")[1]!, "ms")).toBeGreaterThan(MAX_RESPONSE_DELAY_SECONDS);
  });

  it("sets X-Forwarded-For itself, since the nodes trust it", () => {
    expect(haproxy).toMatch(/^\s*http-request set-header X-Forwarded-For %\[src\]\s*$/m);
  });

  it("names only flags that are settings", () => {
    for (const f of namedInText(haproxy).flags) expect(FLAGS, `--${f} in haproxy.cfg`).toContain(f);
  });
});

describe("examples/cluster/k8s.yaml", () => {
  it("parses, and holds a Secret, a Deployment of 3 replicas and a Service", () => {
    for (const doc of k8sDocs) expect(doc.errors).toEqual([]);
    expect(k8s.map((o) => o.kind).sort()).toEqual(["Deployment", "Secret", "Service"]);
    expect(deployment.spec.replicas).toBe(3);
  });

  it("names only flags and MERCHANT_SANDBOX_* variables that are settings", () => {
    const text = namedInText(k8sText);
    const flags = [...flagsIn(container.args ?? []), ...text.flags];
    const env = [...(container.env ?? []).map((e: { name: string }) => e.name).filter((n: string) => n.startsWith("MERCHANT_SANDBOX_")), ...text.env];
    expect(flags.length).toBeGreaterThan(0);
    expect(env.length).toBeGreaterThan(0);
    for (const f of flags) expect(FLAGS, `--${f} in k8s.yaml`).toContain(f);
    for (const e of env) expect(ENV_NAMES, `${e} in k8s.yaml`).toContain(e);
  });

  const podSettings = () => settingsOf(container.args ?? [], podEnvironment(container), "k8s.yaml");

  it("starts each pod on the Secret's PostgreSQL URL, named after the pod", () => {
    const settings = podSettings();
    expect(isPostgresUrl(settings.data ?? "")).toBe(true);
    expect(settings.node_id).toBe(POD_NAME);
  });

  it("is ready only while /health answers 200, and notices a drain before it ends", () => {
    const settings = podSettings();
    const probe = container.readinessProbe;
    expect(probe?.httpGet?.path).toBe("/health");
    expect(portNumber(probe.httpGet.port)).toBe(settings.port);
    expect((probe.periodSeconds ?? 10) * (probe.failureThreshold ?? 3)).toBeLessThan(drainSecondsOf(settings));
    expect(container.livenessProbe?.httpGet?.path).toBe("/health");
  });

  it("waits longer than the drain before it kills a pod", () => {
    expect(deployment.spec.template.spec.terminationGracePeriodSeconds ?? 30).toBeGreaterThan(drainSecondsOf(podSettings()));
  });

  it("has a Service on the pods' port, selecting the Deployment's pods", () => {
    const service = ofKind("Service")[0]!;
    expect(service.spec.selector).toEqual(deployment.spec.selector.matchLabels);
    for (const [k, v] of Object.entries(service.spec.selector as Record<string, string>)) expect(deployment.spec.template.metadata.labels[k]).toBe(v);
    expect(portNumber(service.spec.ports[0].targetPort)).toBe(container.ports[0].containerPort);
  });
});

describe("docs/how-to/run-a-cluster.md", () => {
  const table = (flag: string) => new RegExp(`^\\| \`--${flag}\` \\| ([^|]+?) \\|`, "m").exec(page)?.[1];
  const pgUrl = () => nodeSettings().values().next().value!.data!;

  it("states the defaults the code has", () => {
    expect(table("pg-pool-size")).toBe(defaultOf("pg_pool_size"));
    expect(table("pg-statement-timeout-ms")).toBe(defaultOf("pg_statement_timeout_ms"));
    expect(table("drain-seconds")).toBe(`${drainSecondsOf({ data: pgUrl(), drain_seconds: undefined })} with PostgreSQL`);
    const prose = /`--drain-seconds` \((\d+) by default with PostgreSQL, (\d+) with memory or a\s+folder\)/.exec(page);
    expect(prose?.slice(1)).toEqual([String(drainSecondsOf({ data: pgUrl(), drain_seconds: undefined })), String(drainSecondsOf({ data: undefined, drain_seconds: undefined }))]);
  });

  it("shows /health as the compose nodes answer it: this schema version, the target without its password", () => {
    const shown = /^\{"success":true,"status":"ok".*\}$/m.exec(page)?.[0];
    expect(shown, "a /health answer on the page").toBeDefined();
    const body = JSON.parse(shown!) as { node: string; store: { target: string; schema_version: number } };
    expect(body.store.schema_version).toBe(SCHEMA_VERSION);
    expect(body.store.target).toBe(describeDataTarget(pgUrl()));
    expect([...nodeSettings().values()].map((s) => s.node_id)).toContain(body.node);
  });

  it("quotes the example files as they are", () => {
    const quotes: [quote: string, file: string][] = [
      ["stop_grace_period: 15s", composeText],
      ["terminationGracePeriodSeconds: 30", k8sText],
      ["timeout server 180s", haproxy],
      ["inter 1s fall 2", haproxy],
      ["rise 2", haproxy],
      ["option redispatch", haproxy],
    ];
    // A quote may wrap in the page, and the files align their columns.
    const flat = (text: string) => text.replace(/\s+/g, " ");
    for (const [quote, file] of quotes) {
      expect(flat(page), quote).toContain(`\`${quote}\``);
      expect(flat(file), quote).toContain(quote);
    }
  });

  it("is listed with the other how-to pages", () => {
    expect(read("docs/getting-started.md")).toContain("(how-to/run-a-cluster.md)");
  });
});
