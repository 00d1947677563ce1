/**
 * `merchant-sandbox run`: loads a scenario into a fresh in-process sandbox and runs its steps against
 * the real HTTP app (`app.request`), reporting pass or fail per step with a diff. Merchants with
 * `webhook_capture` get a local receiver on an ephemeral port, so webhooks are really delivered.
 * A request step can end with no answer: a reset connection (`app.request` rejects with
 * ConnectionReset) or the client's own time-out (`timeout_seconds` of wall-clock time). Either way the
 * request's change was made before its answer was held back or cut, so runs stay deterministic.
 */
import { createApp } from "../app.js";
import { ConnectionReset } from "../http/errors.js";
import { createRuntime } from "../runtime.js";
import { loadCatalog } from "../store/fixtures.js";
import { Registry } from "../engine/registry.js";
import { describedEntries } from "../domain/ledger.js";
import type { Tenant } from "../engine/tenant.js";
import { startWebhookReceiver, type WebhookReceiver } from "../webhooks/receiver.js";
import { verifyWebhookSignature } from "../webhooks/sign.js";
import { loadScenario } from "../scenarios/load.js";
import { mismatches, pick, substitute } from "../scenarios/match.js";
import type { Scenario, ScenarioStep } from "../scenarios/schema.js";

export interface StepResult {
  index: number;
  label: string;
  ok: boolean;
  problems: string[];
}

export interface ScenarioReport {
  name: string;
  source: string;
  ok: boolean;
  steps: StepResult[];
  /** Each merchant's event log and ledger at the end (for determinism checks and debugging). */
  final: Record<string, { events: unknown[]; ledger: unknown[]; timeline: unknown[] }>;
}

type Capture = WebhookReceiver & { hooks: string };

/** How a request step ended: an answer, or none (a reset connection, or the client's time-out). */
type Outcome = { kind: "answer"; status: number; body: unknown } | { kind: "reset" } | { kind: "timeout"; seconds: number };

const describe = (o: Outcome) =>
  o.kind === "answer" ? `an answer: ${o.status} ${JSON.stringify(o.body).slice(0, 200)}` : o.kind === "reset" ? "the connection was reset" : `no answer within ${o.seconds} s`;

/** A merchant's `webhook_capture`: a real receiver failing the first `failFirst` deliveries. */
async function startCapture(failFirst: number): Promise<Capture> {
  const receiver = await startWebhookReceiver({
    answer: (n) => (n < failFirst ? { status: 500, body: "failing on purpose" } : { status: 200 }),
  });
  return { ...receiver, hooks: `${receiver.url}/webhooks` };
}

export async function runScenario(scenario: Scenario, source: string, options: { fixturesDir?: string } = {}): Promise<ScenarioReport> {
  const registry = new Registry({ catalog: loadCatalog(options.fixturesDir), seed: scenario.seed ?? "scenario" });
  const runtime = createRuntime();
  const app = createApp({ registry, runtime });
  const captures = new Map<string, Capture>();
  const steps: StepResult[] = [];
  try {
    for (const [alias, m] of Object.entries(scenario.merchants)) {
      if (m.webhook_capture) captures.set(alias, await startCapture(m.webhook_capture.fail_first));
    }
    const captureUrls = Object.fromEntries([...captures].map(([alias, c]) => [alias, c.hooks]));
    const loaded = loadScenario(registry, scenario, { source, captureUrls, seededKeys: true });
    const vars: Record<string, unknown> = { ...loaded.vars };
    const only = loaded.merchants.size === 1 ? [...loaded.merchants.keys()][0] : undefined;
    const tenantOf = (ref: string | undefined): [string, Tenant] => {
      const alias = ref ?? only;
      const tenant = alias === undefined ? undefined : loaded.merchants.get(alias);
      if (!tenant) throw new Error(`unknown merchant "${ref ?? "(none given)"}"`);
      return [alias!, tenant];
    };
    const send = async (tenant: Tenant, method: string, path: string, body?: unknown, timeoutSeconds?: number): Promise<Outcome> => {
      const headers: Record<string, string> = { "x-api-key": tenant.config.api_key, "x-api-secret": tenant.config.api_secret };
      if (body !== undefined) headers["content-type"] = "application/json";
      const answer = Promise.resolve(
        app.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }, { incoming: { socket: { remoteAddress: "127.0.0.1" } } }),
      ).then(
          async (res): Promise<Outcome> => {
            const text = await res.text();
            let json: unknown = text;
            try {
              json = JSON.parse(text);
            } catch {
              // keep text
            }
            return { kind: "answer", status: res.status, body: json };
          },
          (err: unknown): Outcome => {
            if (err instanceof ConnectionReset) return { kind: "reset" };
            throw err;
          },
        );
      if (timeoutSeconds === undefined) return answer;
      // The client gives up; the answer (or the reset the runner's stop gives it) then goes nowhere.
      answer.catch(() => undefined);
      let timer: NodeJS.Timeout | undefined;
      const gaveUp = new Promise<Outcome>((done) => (timer = setTimeout(() => done({ kind: "timeout", seconds: timeoutSeconds }), timeoutSeconds * 1000)));
      try {
        return await Promise.race([answer, gaveUp]);
      } finally {
        clearTimeout(timer);
      }
    };
    /** A call whose answer the runner needs (advances, balances): no answer is an error. */
    const call = async (tenant: Tenant, method: string, path: string, body?: unknown) => {
      const outcome = await send(tenant, method, path, body);
      if (outcome.kind !== "answer") throw new Error(`${method} ${path}: ${describe(outcome)}`);
      return outcome;
    };

    for (const [i, rawStep] of scenario.steps.entries()) {
      const step = substitute(rawStep, vars) as ScenarioStep;
      const problems: string[] = [];
      let label = step.name ?? "";
      try {
        if ("request" in step) {
          label ||= `${step.request.method} ${step.request.path}`;
          const [, t] = tenantOf(step.request.merchant);
          const res = await send(t, step.request.method, step.request.path, step.request.body, step.request.timeout_seconds);
          const wanted = step.expect?.connection;
          if (res.kind !== "answer") {
            if (wanted !== res.kind) problems.push(wanted ? `connection: expected ${wanted === "reset" ? "a reset" : "a client time-out"}, got ${describe(res)}` : `no answer: ${describe(res)}`);
            for (const name of Object.keys(step.capture ?? {})) problems.push(`capture ${name}: no answer to capture from`);
          } else if (wanted) {
            problems.push(`connection: expected ${wanted === "reset" ? "a reset" : "a client time-out"}, got ${describe(res)}`);
          } else {
            if (step.expect?.status !== undefined && res.status !== step.expect.status) {
              problems.push(`status: expected ${step.expect.status}, got ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
            }
            if (step.expect?.body !== undefined) problems.push(...mismatches(step.expect.body, res.body).map((p) => `body.${p}`));
            for (const [name, path] of Object.entries(step.capture ?? {})) {
              const value = pick(res.body, path);
              if (value === undefined) problems.push(`capture ${name}: nothing at ${path}`);
              else vars[name] = value;
            }
          }
        } else if ("advance" in step) {
          const { merchant, ...by } = step.advance;
          label ||= `advance ${JSON.stringify(by)}`;
          const [, t] = tenantOf(merchant);
          const res = await call(t, "POST", "/sandbox/v1/clock/advance", by);
          if (res.status !== 200) problems.push(`advance refused: ${JSON.stringify(res.body)}`);
        } else if ("expect_webhook" in step) {
          const e = step.expect_webhook;
          label ||= `webhook ${e.event}`;
          const [alias, t] = tenantOf(e.merchant);
          await runtime.dispatcher.idle(t);
          const capture = captures.get(alias);
          if (capture) {
            const hits = capture.received.filter((r) => r.body?.event === e.event && mismatches(e.data ?? {}, r.body?.data).length === 0);
            const want = e.deliveries ?? 1;
            if (hits.length < want) {
              const seen = capture.received.map((r) => `${r.body?.event} ${JSON.stringify(r.body?.data)}`.slice(0, 160));
              problems.push(`expected ${want} delivery(ies) of ${e.event} matching ${JSON.stringify(e.data ?? {})}, got ${hits.length}; received: ${seen.join(" | ") || "nothing"}`);
            }
            for (const hit of hits) {
              if (!verifyWebhookSignature(hit.raw, hit.signature, t.config.webhook_secret, { algorithm: t.config.webhook.signature_algorithm, encoding: t.config.webhook.signature_encoding })) {
                problems.push(`a delivery of ${e.event} has a signature that does not verify`);
              }
            }
          } else {
            const events = [...t.state.events.values()].filter((ev) => ev.type === e.event);
            if (!events.some((ev) => mismatches(e.data ?? {}, ev.data).length === 0)) {
              const closest = events.at(-1);
              problems.push(closest ? mismatches(e.data ?? {}, closest.data).map((p) => `${e.event} data.${p}`).join("; ") : `no ${e.event} event was emitted`);
            }
          }
        } else {
          label ||= `balance ${step.expect_balance.balance}`;
          const [, t] = tenantOf(step.expect_balance.merchant);
          const res = await call(t, "GET", "/api/v1/wallet/balance");
          const balance = (res.body as { data?: { balance?: number } }).data?.balance;
          if (balance !== step.expect_balance.balance) problems.push(`balance: expected ${step.expect_balance.balance}, got ${balance}`);
        }
      } catch (err) {
        problems.push((err as Error).message);
      }
      steps.push({ index: i + 1, label, ok: problems.length === 0, problems });
    }
    const final = Object.fromEntries(
      [...loaded.merchants].map(([alias, t]) => [alias, { events: [...t.state.events.values()], ledger: describedEntries(t.state.ledger, t.state), timeline: t.state.timeline }]),
    );
    return { name: scenario.name, source, ok: steps.every((s) => s.ok), steps, final };
  } finally {
    runtime.stop();
    await Promise.all([...captures.values()].map((c) => c.close()));
  }
}

/** The readable report `merchant-sandbox run` prints. */
export function formatReport(report: ScenarioReport): string {
  const lines = [`${report.ok ? "PASS" : "FAIL"} ${report.name} (${report.source})`];
  for (const s of report.steps) {
    lines.push(`  ${s.ok ? "✓" : "✗"} ${s.index}. ${s.label}`);
    for (const p of s.problems) lines.push(`      - ${p}`);
  }
  if (report.steps.length === 0) lines.push("  (no steps: loaded without errors)");
  return lines.join("\n");
}
