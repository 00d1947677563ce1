/**
 * Reads scenario files and loads a scenario into a registry: merchants, objects, outcome rules and
 * the timeline, all through the domain functions, so a loaded scenario is a state the API could
 * have produced. Every error names the file, the path in the document and what was expected.
 */
import { readFileSync } from "node:fs";
import { createCardholder, approveKyc, fundCard, issueCard } from "../domain/cards.js";
import { createCheckout } from "../domain/checkout.js";
import { MAX_CLOCK, MAX_JSON_DEPTH } from "../domain/bounds.js";
import { durationMs } from "../domain/duration.js";
import { DomainError } from "../domain/errors.js";
import { nestsDeeperThan } from "../domain/json-depth.js";
import { toMinor } from "../domain/money.js";
import { addRule } from "../domain/outcomes.js";
import { addTimelineEntry } from "../domain/timeline.js";
import { createVirtualAccount, type VirtualAccountRequest } from "../domain/virtual-accounts.js";
import type { Registry } from "../engine/registry.js";
import { contextOf, type Tenant } from "../engine/tenant.js";
import { ScenarioError, tooDeep, type ScenarioProblem } from "./scenario-error.js";
import { problemsOf } from "./schema-problems.js";
import { scenarioSchema, STEP_KINDS, type Scenario } from "./schema.js";
import { readYaml } from "./yaml-text.js";

export { ScenarioError, type ScenarioProblem };

/** A scenario from its YAML (or JSON, which is YAML) text: the one reader of files and of request bodies. */
export function parseScenario(text: string, source: string): Scenario {
  return validateScenario(readYaml(text, source), source);
}

export function validateScenario(doc: unknown, source: string): Scenario {
  // Checked before the schema, which walks step bodies recursively.
  if (nestsDeeperThan(doc, MAX_JSON_DEPTH)) throw tooDeep(source);
  const schema = scenarioSchema();
  const result = schema.safeParse(doc);
  if (!result.success) throw new ScenarioError(source, problemsOf(result.error.issues, schema, doc));
  return result.data;
}

export function readScenarioText(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    throw new ScenarioError(path, [{ path: "", detail: `cannot be read: ${(err as Error).message}` }]);
  }
}

export function readScenarioFile(path: string): Scenario {
  return parseScenario(readScenarioText(path), path);
}

/** "+5m" after `start`, or an absolute ISO time. */
function timeOf(at: string, start: number): number {
  return at.startsWith("+") ? start + durationMs(at.slice(1)) : Date.parse(at);
}

export interface LoadedScenario {
  scenario: Scenario;
  merchants: Map<string, Tenant>;
  /** Object aliases -> their identifiers (account number, reference, card id...), usable as `$alias`. */
  vars: Record<string, unknown>;
}

export interface LoadOptions {
  source: string;
  /** Webhook URLs for merchants with `webhook_capture` (the runner's receivers); without one, the built-in capture. */
  captureUrls?: Record<string, string>;
  /** Keys from the seed (a fresh runner) or from the registry's own generator (a running server). */
  seededKeys: boolean;
  /** `start --scenario`: the file's path and text digest, recorded on each merchant it makes. */
  origin?: { file: string; digest: string };
  /**
   * false for an anonymous load into a shared sandbox: there a stranger could claim a team's fixed
   * keys first, and a refusal only for keys in use would tell who holds them. Default true.
   */
  fixedKeys?: boolean;
}

/** Why a load that may not fix keys refuses them, and the two ways a team gets its merchants instead. */
export const FIXED_KEYS_REFUSED =
  "a shared sandbox (--shared) takes no fixed api_key or api_secret in a scenario loaded over HTTP, as anyone could claim them first: leave them out and use the keys this response returns, or have the sandbox started with --scenario FILE, whose merchants keep their fixed keys";

/**
 * Loads everything or nothing: on an error the merchants it created are taken out again. Every problem
 * is reported at once: an entry that fails is recorded and the load goes on with the next one (an entry
 * that names a failed one is skipped, so one mistake is reported once).
 */
export function loadScenario(registry: Registry, scenario: Scenario, opts: LoadOptions): LoadedScenario {
  const created = new Map<string, Tenant>();
  try {
    return loadInto(registry, scenario, opts, created);
  } catch (err) {
    for (const tenant of created.values()) registry.remove(tenant);
    throw err;
  }
}

/** A problem with one entry of the file; the load records it and carries on. */
class EntryProblem {
  constructor(readonly path: string, readonly detail: string) {}
}
/** Thrown by an entry that names one that failed: it is skipped without a second report. */
const SKIP = Symbol("skip");

function loadInto(registry: Registry, scenario: Scenario, opts: LoadOptions, merchants: Map<string, Tenant>): LoadedScenario {
  const start = Date.parse(scenario.start);
  const vars: Record<string, unknown> = {};
  const aliases = Object.keys(scenario.merchants);
  const problems: ScenarioProblem[] = [];
  /** Merchant aliases and object names whose entry failed. */
  const failed = new Set<string>();
  const fail = (path: string, detail: string): never => {
    throw new EntryProblem(path, detail);
  };
  /** Runs one entry of the file (named `name`, if it makes something others may name). */
  const entry = (name: string | undefined, work: () => void) => {
    try {
      work();
    } catch (err) {
      if (name !== undefined) failed.add(name);
      if (err instanceof EntryProblem) problems.push({ path: err.path, detail: err.detail });
      else if (err !== SKIP) throw err;
    }
  };
  const unlessFailed = (name: string) => {
    if (failed.has(name)) throw SKIP;
  };
  const tenantOf = (ref: string | undefined, path: string): Tenant => {
    const alias = ref ?? (aliases.length === 1 ? aliases[0]! : fail(`${path}.merchant`, `name the merchant: one of ${aliases.join(", ")}`));
    unlessFailed(alias);
    return merchants.get(alias) ?? fail(`${path}.merchant`, `unknown merchant "${alias}"`);
  };
  /** Runs a domain call, turning a refusal into an error at this line of the file. */
  const apply = <T>(path: string, work: () => T): T => {
    try {
      return work();
    } catch (err) {
      if (err instanceof DomainError) return fail(path, `${err.code}: ${err.message}${err.details.errors ? ` ${JSON.stringify(err.details.errors)}` : ""}`);
      throw err;
    }
  };
  const define = (name: string, value: unknown, path: string) => {
    if (Object.hasOwn(vars, name) || aliases.includes(name)) fail(`${path}.as`, `the name "${name}" is already used`);
    vars[name] = value;
  };

  // Before any merchant is looked up or made: the answer is the same whether a key is in use or not.
  if (opts.fixedKeys === false) {
    for (const [alias, m] of Object.entries(scenario.merchants)) {
      const field = m.api_key ? "api_key" : m.api_secret ? "api_secret" : undefined;
      if (field) problems.push({ path: `merchants.${alias}.${field}`, detail: FIXED_KEYS_REFUSED });
    }
    if (problems.length > 0) throw new ScenarioError(opts.source, problems);
  }
  for (const [alias, m] of Object.entries(scenario.merchants)) {
    entry(alias, () => {
      const { api_key, api_secret, webhook_secret, webhook_capture, ...settings } = m;
      const path = `merchants.${alias}`;
      if ((api_key || api_secret) && !(api_key && api_secret)) fail(path, "give api_key and api_secret together");
      if (api_key && registry.findByApiKey(api_key)) fail(`${path}.api_key`, "another merchant already uses this key");
      const seed = scenario.seed === undefined ? undefined : `${scenario.seed}:${alias}`;
      const fixed = api_key && api_secret;
      const tenant = registry.create(
        {
          ...settings,
          // `run` gives a capturing merchant a real local receiver; elsewhere the built-in capture
          // answers instead (as in `run`, the capture wins over a webhook_url given beside it).
          ...(webhook_capture
            ? opts.captureUrls?.[alias]
              ? { webhook_url: opts.captureUrls[alias], webhook_capture: null }
              : { webhook_url: null, webhook_capture }
            : {}),
          clock: { ...settings.clock, now: settings.clock?.now ?? scenario.start },
        },
        {
          defaultClockMode: "manual",
          seed,
          ...(fixed || !opts.seededKeys
            ? { credentials: { ...registry.freshCredentials(), ...(fixed ? { api_key, api_secret } : {}) } }
            : {}),
        },
      );
      if (webhook_secret) tenant.config = { ...tenant.config, webhook_secret };
      if (opts.origin) tenant.config = { ...tenant.config, scenario_origin: { ...opts.origin, alias } };
      merchants.set(alias, tenant);
    });
  }

  scenario.virtual_accounts.forEach((va, i) =>
    entry(va.as, () => {
      const path = `virtual_accounts.${i}`;
      const t = tenantOf(va.merchant, path);
      const { merchant: _m, as, ...req } = va;
      const { account } = apply(path, () => createVirtualAccount(contextOf(t), t.state, req as VirtualAccountRequest));
      define(as, account.account_number, path);
    }),
  );
  scenario.cardholders.forEach((h, i) =>
    entry(h.as, () => {
      const path = `cardholders.${i}`;
      const t = tenantOf(h.merchant, path);
      const { cardholder } = apply(path, () => createCardholder(contextOf(t), t.state, h));
      if (h.approved) apply(path, () => approveKyc(t.state, cardholder.cardholder_id));
      define(h.as, cardholder.cardholder_id, path);
    }),
  );
  scenario.cards.forEach((c, i) =>
    entry(c.as, () => {
      const path = `cards.${i}`;
      const t = tenantOf(c.merchant, path);
      unlessFailed(c.cardholder);
      const holder = vars[c.cardholder];
      if (typeof holder !== "number") fail(`${path}.cardholder`, `no cardholder named "${c.cardholder}"`);
      const card = apply(path, () => issueCard(contextOf(t), t.state, { cardholder_id: holder as number, brand: c.brand, label: c.label }));
      if (c.fund) apply(`${path}.fund`, () => fundCard(contextOf(t), t.state, card.card_id, toMinor(c.fund!)));
      define(c.as, card.card_id, path);
    }),
  );
  scenario.payment_links.forEach((l, i) =>
    entry(l.as, () => {
      const path = `payment_links.${i}`;
      const t = tenantOf(l.merchant, path);
      const link = apply(path, () => createCheckout(contextOf(t), t.state, { amount: toMinor(l.amount), description: l.description }));
      define(l.as, link.reference, path);
    }),
  );
  scenario.outcomes.forEach((o, i) =>
    entry(undefined, () => {
      const path = `outcomes.${i}`;
      const t = tenantOf(o.merchant, path);
      const { merchant: _m, ...rule } = o;
      apply(path, () => addRule(contextOf(t), t.state, rule));
    }),
  );
  scenario.timeline.forEach((e, i) =>
    entry(undefined, () => {
      const path = `timeline.${i}`;
      const t = tenantOf(e.merchant, path);
      const at = timeOf(e.at, start);
      if (!(at >= t.clock.now())) fail(`${path}.at`, "the timeline cannot start before the merchant's clock");
      if (at > MAX_CLOCK) fail(`${path}.at`, `falls after ${new Date(MAX_CLOCK).toISOString()}, the end of the clock's range`);
      if (e.transfer) {
        const { to, amount, ...rest } = e.transfer;
        unlessFailed(to);
        const account = typeof vars[to] === "string" ? (vars[to] as string) : to;
        if (!t.state.virtualAccounts.has(account)) fail(`${path}.transfer.to`, `no virtual account "${to}"`);
        addTimelineEntry(contextOf(t), t.state, at, { kind: "transfer", account_number: account, amount: toMinor(amount), ...rest });
      } else if (e.pay_link) {
        unlessFailed(e.pay_link.link);
        const reference = typeof vars[e.pay_link.link] === "string" ? (vars[e.pay_link.link] as string) : e.pay_link.link;
        if (!t.state.checkouts.has(reference)) fail(`${path}.pay_link.link`, `no payment link "${e.pay_link.link}"`);
        const amount = e.pay_link.amount === undefined ? undefined : toMinor(e.pay_link.amount);
        addTimelineEntry(contextOf(t), t.state, at, { kind: "pay_link", reference, amount });
      }
    }),
  );
  // Steps run later (`run`); their merchants are checked now, so a wrong one is reported with the rest.
  scenario.steps.forEach((step, i) =>
    entry(undefined, () => {
      const kind = STEP_KINDS.find((k) => k in step)!;
      tenantOf((step as Record<string, { merchant?: string }>)[kind]!.merchant, `steps.${i}.${kind}`);
    }),
  );
  if (problems.length > 0) throw new ScenarioError(opts.source, problems);
  return { scenario, merchants, vars };
}
