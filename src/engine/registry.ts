/**
 * All merchants of one sandbox process. Tenants are looked up by API key once per request (auth);
 * nothing else is shared between them, so parallel test suites each create their own. The one thing
 * the registry keeps across merchants is the index of identifiers that are unique sandbox-wide
 * (payment-link references, account numbers): the public payment pages find a link's merchant
 * through it, and no merchant can hold, or plant, another's.
 */
import type { Catalog } from "../domain/catalog.js";
import type { ClaimKind } from "../domain/context.js";
import { DomainError } from "../domain/errors.js";
import { DEFAULTS, newCredentials, newMerchantConfig, type Credentials, type MerchantSettings } from "../domain/merchant.js";
import { toMinor } from "../domain/money.js";
import type { Checkout, ClockMode } from "../domain/records.js";
import { emptyState, type TenantState } from "../domain/state.js";
import { fundWallet } from "../domain/wallet.js";
import { Clock } from "./clock.js";
import { createIds, type Ids } from "./ids.js";
import { fromSnapshot, type Snapshot } from "../domain/snapshot.js";
import { contextOf, type Tenant } from "./tenant.js";
import { DEFAULT_REQUEST_LOG_SIZE, RequestLog } from "../domain/request-log.js";
import { DeliveryLogBytes, LogBudget } from "./log-budget.js";

export interface RegistryOptions {
  catalog: Catalog;
  /** Wall clock in ms; injected so tests drive realtime clocks without sleeping. */
  wall?: () => number;
  /** Makes every generated identifier deterministic (per merchant: seed + merchant id). Never keys. */
  seed?: string;
  /** Most merchants this sandbox holds; sign-ups and scenario loads past it are refused. */
  maxMerchants?: number;
  /** Entries kept in each merchant's request log (`--request-log`); 0 turns it off. */
  requestLogSize?: number;
  /** Bytes the request logs and delivery logs of all merchants hold together (`--log-budget-mb`). */
  logBudgetBytes?: number;
}

export interface NewMerchant extends MerchantSettings {
  /** Opening wallet balance in Naira. */
  wallet_balance?: number;
}

/** Sign-up or scenario load past `maxMerchants`. */
export class MerchantLimitError extends Error {
  constructor(readonly max: number) {
    super(`This sandbox holds its maximum of ${max} merchants; delete merchants you no longer need (DELETE /sandbox/v1/merchant) or raise --max-merchants.`);
    this.name = "MerchantLimitError";
  }
}

const keyOf = (kind: ClaimKind, value: string) => `${kind}:${value}`;

/** The sandbox-wide identifiers a merchant's state holds. */
export function claimsOf(state: TenantState): Array<{ kind: ClaimKind; value: string }> {
  const claims: Array<{ kind: ClaimKind; value: string }> = [];
  for (const [reference, c] of state.checkouts) claims.push({ kind: "checkout", value: reference }, { kind: "account", value: c.account_number });
  for (const number of state.virtualAccounts.keys()) claims.push({ kind: "account", value: number });
  return claims;
}

const claimedBy = (state: TenantState): string[] => claimsOf(state).map((c) => keyOf(c.kind, c.value));

export class Registry {
  private readonly tenants = new Map<string, Tenant>();
  private readonly byApiKey = new Map<string, Tenant>();
  /** Sandbox-wide identifier -> the merchant holding it; and each merchant's own identifiers. */
  private readonly owners = new Map<string, string>();
  private readonly owned = new Map<string, Set<string>>();
  private readonly ids: Ids;
  readonly catalog: Catalog;
  readonly wall: () => number;
  readonly maxMerchants: number;
  readonly logBudget: LogBudget;
  /**
   * Called when the log budget cut a merchant's delivery log: a change of its saved state, which the
   * server (with `--data`) saves like any other. The merchant may be any, not the one whose entry was logged.
   */
  onDeliveriesCut: (tenant: Tenant) => void = () => {};

  constructor(private readonly options: RegistryOptions) {
    this.catalog = options.catalog;
    this.wall = options.wall ?? Date.now;
    this.maxMerchants = options.maxMerchants ?? Infinity;
    this.logBudget = new LogBudget(options.logBudgetBytes);
    this.ids = createIds(options.seed === undefined ? undefined : `${options.seed}:registry`);
  }

  /**
   * A new merchant. `seed` (scenarios) makes its identifiers deterministic on their own; its keys
   * and secrets always come from the CSPRNG unless `credentials` are given.
   */
  create(input: NewMerchant, opts: { credentials?: Credentials; defaultClockMode?: ClockMode; seed?: string } = {}): Tenant {
    if (this.tenants.size >= this.maxMerchants) throw new MerchantLimitError(this.maxMerchants);
    const credentials = opts.credentials ?? this.freshCredentials(opts.seed);
    if (this.tenants.has(credentials.merchant_id) || this.byApiKey.has(credentials.api_key)) {
      throw new Error(`merchant ${credentials.merchant_id} already exists`);
    }
    const clockNow = input.clock?.now === undefined ? undefined : Date.parse(input.clock.now);
    const mode = input.clock?.mode ?? opts.defaultClockMode ?? "manual";
    const clock = new Clock({ mode, speed: input.clock?.speed ?? 1, now: clockNow }, this.wall);
    const config = newMerchantConfig(credentials, input, mode, clock.now());
    const seed = opts.seed ?? (this.options.seed === undefined ? undefined : `${this.options.seed}:${credentials.merchant_id}`);
    const tenant = this.tenant(config, emptyState(), clock, createIds(seed));
    const opening = toMinor(input.wallet_balance ?? DEFAULTS.wallet_balance);
    if (opening > 0) fundWallet(contextOf(tenant), tenant.state, opening, "Opening balance (sandbox)");
    this.add(tenant);
    return tenant;
  }

  /**
   * Brings back a merchant saved by `--data`. A realtime clock resumes at the later of its saved time
   * and the wall clock, so timers that fell due while the sandbox was down fire at once. Identifiers
   * come from the CSPRNG: a seeded stream would repeat used ids.
   */
  restore(snapshot: Snapshot): Tenant {
    const { config, clock: saved, state } = fromSnapshot(snapshot);
    if (this.tenants.has(config.merchant_id) || this.byApiKey.has(config.api_key)) {
      throw new Error(`merchant ${config.merchant_id} is loaded twice`);
    }
    const conflict = this.conflict(config.merchant_id, state);
    if (conflict) throw new Error(`merchant ${config.merchant_id} holds ${conflict}, which another merchant already holds`);
    const now = saved.mode === "realtime" ? Math.max(saved.now ?? 0, this.wall()) : saved.now;
    const tenant = this.tenant(config, state, new Clock({ ...saved, now }, this.wall), createIds());
    this.add(tenant);
    return tenant;
  }

  /**
   * PUT snapshot: the caller's state, clock and settings become the snapshot's; its keys and origin
   * stay its own. Refused, changing nothing, when the snapshot holds another merchant's identifiers.
   */
  replace(tenant: Tenant, snapshot: Snapshot): void {
    const { config, clock, state } = fromSnapshot(snapshot);
    const conflict = this.conflict(tenant.id, state);
    if (conflict) {
      throw new DomainError("VALIDATION_ERROR", "The given data was invalid.", {
        errors: { "state": [`The snapshot holds ${conflict}, which another merchant of this sandbox holds; identifiers are unique sandbox-wide.`] },
      });
    }
    const { merchant_id, api_key, api_secret, webhook_secret, scenario_origin } = tenant.config;
    tenant.config = { ...config, merchant_id, api_key, api_secret, webhook_secret, scenario_origin };
    this.setState(tenant, state);
    for (const timer of state.timers) timer.merchantId = merchant_id;
    tenant.clock.restore(clock);
    this.logBudget.enforce();
  }

  /** The last saved copy of a merchant becomes its live state again (a save that failed is undone). */
  reload(tenant: Tenant, snapshot: Snapshot): void {
    const { config, clock, state } = fromSnapshot(snapshot);
    tenant.config = config;
    this.setState(tenant, state);
    tenant.clock.restore(clock);
  }

  /** Reset: the merchant's objects, timers and rules are gone (`state` is fresh), and so are the identifiers they held. */
  resetState(tenant: Tenant, state: TenantState): void {
    this.setState(tenant, state);
  }

  /** Fresh credentials: the id from this registry's generator (seeded with the registry), keys from the CSPRNG. */
  freshCredentials(seed?: string): Credentials {
    return newCredentials(seed === undefined ? this.ids : createIds(`${seed}:credentials`), createIds());
  }

  /** Takes a merchant out (deleted, or made by a scenario that failed half-way). */
  remove(tenant: Tenant): void {
    this.logBudget.untrack(tenant.requestLog);
    this.logBudget.untrack(tenant.deliveryLogBytes);
    this.tenants.delete(tenant.id);
    this.byApiKey.delete(tenant.config.api_key);
    this.release(tenant.id);
  }

  findByApiKey(apiKey: string): Tenant | undefined {
    return this.byApiKey.get(apiKey);
  }

  get(merchantId: string): Tenant | undefined {
    return this.tenants.get(merchantId);
  }

  /** A payment link by its reference alone (the public pages): one index lookup, never a scan. */
  findCheckout(reference: string): { tenant: Tenant; checkout: Checkout } | undefined {
    const tenant = this.tenants.get(this.owners.get(keyOf("checkout", reference)) ?? "");
    const checkout = tenant?.state.checkouts.get(reference);
    return tenant && checkout ? { tenant, checkout } : undefined;
  }

  list(): Tenant[] {
    return [...this.tenants.values()];
  }

  get size(): number {
    return this.tenants.size;
  }

  private tenant(config: Tenant["config"], state: TenantState, clock: Clock, ids: Ids): Tenant {
    const id = config.merchant_id;
    const budget = this.logBudget;
    const requestLog: RequestLog = new RequestLog(this.options.requestLogSize ?? DEFAULT_REQUEST_LOG_SIZE, (delta) => budget.resized(requestLog, delta));
    const tenant: Tenant = {
      id, config, state, clock, ids, catalog: this.catalog, claim: (kind, value) => this.claim(id, keyOf(kind, value)), requestTimes: [],
      requestLog, deliveryLogBytes: new DeliveryLogBytes(budget, () => tenant.state, () => this.onDeliveriesCut(tenant)), creditReport: null,
    };
    return tenant;
  }

  private add(tenant: Tenant): void {
    this.tenants.set(tenant.id, tenant);
    this.byApiKey.set(tenant.config.api_key, tenant);
    for (const key of claimedBy(tenant.state)) this.claim(tenant.id, key);
    // Counted, not cut: a merchant restored from `--data` must first be taken by its store as written
    // (the store diffs its next write against that), so the cut waits for the next entry logged.
    tenant.deliveryLogBytes.recount();
    this.logBudget.track(tenant.requestLog);
    this.logBudget.track(tenant.deliveryLogBytes);
  }

  private setState(tenant: Tenant, state: TenantState): void {
    this.release(tenant.id);
    tenant.state = state;
    for (const key of claimedBy(state)) this.claim(tenant.id, key);
    tenant.deliveryLogBytes.recount();
  }

  private claim(merchantId: string, key: string): boolean {
    if (this.owners.has(key)) return false;
    this.owners.set(key, merchantId);
    let mine = this.owned.get(merchantId);
    if (!mine) this.owned.set(merchantId, (mine = new Set()));
    mine.add(key);
    return true;
  }

  private release(merchantId: string): void {
    for (const key of this.owned.get(merchantId) ?? []) this.owners.delete(key);
    this.owned.delete(merchantId);
  }

  /** The first identifier of `state` that a merchant other than `merchantId` holds. */
  private conflict(merchantId: string, state: TenantState): string | undefined {
    const key = claimedBy(state).find((k) => (this.owners.get(k) ?? merchantId) !== merchantId);
    return key?.replace(":", " ");
  }
}
