/**
 * All merchants of one sandbox process. Tenants are looked up by API key once per request (auth);
 * nothing else is shared between them, so parallel test suites each create their own.
 */
import type { Catalog } from "../domain/catalog.js";
import { DEFAULTS, newCredentials, newMerchantConfig, type Credentials, type MerchantSettings } from "../domain/merchant.js";
import { toMinor } from "../domain/money.js";
import { fundWallet } from "../domain/wallet.js";
import { Clock, type ClockMode } from "../engine/clock.js";
import { createIds, type Ids } from "../engine/ids.js";
import { emptyState } from "../domain/state.js";
import { fromSnapshot, type Snapshot } from "./snapshot.js";
import { contextOf, type Tenant } from "./tenant.js";


export interface RegistryOptions {
  catalog: Catalog;
  /** Wall clock in ms; injected so tests drive realtime clocks without sleeping. */
  wall?: () => number;
  /** Makes every generated identifier deterministic (per merchant: seed + merchant id). */
  seed?: string;
}

export interface NewMerchant extends MerchantSettings {
  /** Opening wallet balance in Naira. */
  wallet_balance?: number;
}

export class Registry {
  private readonly tenants = new Map<string, Tenant>();
  private readonly byApiKey = new Map<string, Tenant>();
  private readonly ids: Ids;
  readonly catalog: Catalog;
  readonly wall: () => number;

  constructor(private readonly options: RegistryOptions) {
    this.catalog = options.catalog;
    this.wall = options.wall ?? Date.now;
    this.ids = createIds(options.seed === undefined ? undefined : `${options.seed}:registry`);
  }

  /**
   * `seed` (scenarios) makes this merchant's identifiers deterministic on its own, and its keys too
   * unless `credentials` are given.
   */
  create(input: NewMerchant, opts: { credentials?: Credentials; defaultClockMode?: ClockMode; seed?: string } = {}): Tenant {
    const credentials = opts.credentials ?? newCredentials(opts.seed === undefined ? this.ids : createIds(`${opts.seed}:credentials`));
    if (this.tenants.has(credentials.merchant_id) || this.byApiKey.has(credentials.api_key)) {
      throw new Error(`merchant ${credentials.merchant_id} already exists`);
    }
    const clockNow = input.clock?.now === undefined ? undefined : Date.parse(input.clock.now);
    const mode = input.clock?.mode ?? opts.defaultClockMode ?? "manual";
    const clock = new Clock({ mode, speed: input.clock?.speed ?? 1, now: clockNow }, this.wall);
    const config = newMerchantConfig(credentials, input, mode, clock.now());
    const seed = opts.seed ?? (this.options.seed === undefined ? undefined : `${this.options.seed}:${credentials.merchant_id}`);
    const tenant: Tenant = { id: credentials.merchant_id, config, state: emptyState(), clock, ids: createIds(seed), catalog: this.catalog };
    const opening = toMinor(input.wallet_balance ?? DEFAULTS.wallet_balance);
    if (opening > 0) fundWallet(contextOf(tenant), tenant.state, opening, "Opening balance (sandbox)");
    this.tenants.set(tenant.id, tenant);
    this.byApiKey.set(config.api_key, tenant);
    return tenant;
  }

  /**
   * Brings back a merchant saved by `--data` (or a scenario's snapshot). A realtime clock resumes at
   * the later of its saved time and the wall clock, so timers that fell due while the sandbox was
   * down fire at once. Identifiers come from the CSPRNG: a seeded stream would repeat used ids.
   */
  restore(snapshot: Snapshot): Tenant {
    const { config, clock: saved, state } = fromSnapshot(snapshot);
    if (this.tenants.has(config.merchant_id) || this.byApiKey.has(config.api_key)) {
      throw new Error(`merchant ${config.merchant_id} is loaded twice`);
    }
    const now = saved.mode === "realtime" ? Math.max(saved.now ?? 0, this.wall()) : saved.now;
    const clock = new Clock({ ...saved, now }, this.wall);
    const tenant: Tenant = { id: config.merchant_id, config, state, clock, ids: createIds(), catalog: this.catalog };
    this.tenants.set(tenant.id, tenant);
    this.byApiKey.set(config.api_key, tenant);
    return tenant;
  }

  /** PUT snapshot: the caller's state, clock and settings become the snapshot's; its keys stay its own. */
  replace(tenant: Tenant, snapshot: Snapshot): void {
    const { config, clock, state } = fromSnapshot(snapshot);
    const { merchant_id, api_key, api_secret, webhook_secret, scenario_origin } = tenant.config;
    tenant.config = { ...config, merchant_id, api_key, api_secret, webhook_secret, scenario_origin };
    tenant.state = state;
    for (const timer of state.timers) timer.merchantId = merchant_id;
    tenant.clock.restore(clock);
  }

  /** Fresh credentials from this registry's generator (seeded with the registry). */
  freshCredentials(): Credentials {
    return newCredentials(this.ids);
  }

  /** Takes a merchant out (a scenario that failed half-way must leave nothing behind). */
  remove(tenant: Tenant): void {
    this.tenants.delete(tenant.id);
    this.byApiKey.delete(tenant.config.api_key);
  }

  findByApiKey(apiKey: string): Tenant | undefined {
    return this.byApiKey.get(apiKey);
  }

  get(merchantId: string): Tenant | undefined {
    return this.tenants.get(merchantId);
  }

  list(): Tenant[] {
    return [...this.tenants.values()];
  }
}
