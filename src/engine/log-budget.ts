/**
 * The sandbox-wide memory budget of the logs merchants keep: each merchant's request log (traffic, in
 * memory only) and its webhook delivery log (state, saved with `--data`). Each is bounded per merchant
 * too, but 20,000 merchants times those bounds is tens of GB: this bounds them all together.
 *
 * Sizes are estimates (domain entryBytes and deliveryBytes), counted as entries come and go, so logging
 * an entry costs one addition and one comparison. Only when the total passes the budget are the logs
 * sorted by size and the largest cut, oldest entries first, down to one level, until the total is
 * CUT_TO of the budget: a cut runs once per (1 - CUT_TO) of the budget of new entries, not per request,
 * and a log smaller than that level is never touched.
 */
import { deliveryBytes, shedDeliveries } from "../domain/delivery-log.js";
import type { WebhookDelivery } from "../domain/records.js";
import type { TenantState } from "../domain/state.js";

export const MB = 1024 * 1024;
/** The default budget (`--log-budget-mb`), and the largest it can be set to. */
export const DEFAULT_LOG_BUDGET_MB = 256;
export const MAX_LOG_BUDGET_MB = 65_536;
/** Past the budget, the logs are cut to this share of it. */
export const CUT_TO = 15 / 16;

/** A log the budget counts: its bytes, and a way to cut its oldest entries. */
export interface BudgetedLog {
  readonly bytes: number;
  /** Drops the oldest entries until `bytes` are freed or none is left; returns the bytes freed (and tells no one). */
  shed(bytes: number): number;
}

export class LogBudget {
  private total = 0;
  private readonly logs = new Set<BudgetedLog>();

  constructor(readonly limit: number = DEFAULT_LOG_BUDGET_MB * MB) {}

  /** The bytes the logs it counts hold together. */
  get used(): number {
    return this.total;
  }

  /** Counts a log from now on (its bytes as they stand), without cutting: `enforce` does, when wanted. */
  track(log: BudgetedLog): void {
    if (this.logs.has(log)) return;
    this.logs.add(log);
    this.total += log.bytes;
  }

  /** No longer counts a log (its merchant was deleted). */
  untrack(log: BudgetedLog): void {
    if (this.logs.delete(log)) this.total -= log.bytes;
  }

  /** A counted log grew by `delta` bytes (or shrank: negative); past the budget, logs are cut. An uncounted log is ignored. */
  resized(log: BudgetedLog, delta: number): void {
    if (!this.logs.has(log)) return;
    this.total += delta;
    if (this.total > this.limit) this.cut();
  }

  /**
   * As `resized`, but never cuts (a caller that wants it calls `enforce`): a merchant put back by a failed
   * save must not have its log cut, which would start another save, and another undo.
   */
  recounted(log: BudgetedLog, delta: number): void {
    if (this.logs.has(log)) this.total += delta;
  }

  /** Cuts now if the total is over the budget (after a log was tracked or loaded whole). */
  enforce(): void {
    if (this.total > this.limit) this.cut();
  }

  /**
   * Water-filling: the k largest logs are cut down to the level at which cutting them frees what the
   * total is over CUT_TO of the budget. Each log above that level is cut, oldest first; none below it.
   */
  private cut(): void {
    const need = this.total - this.limit * CUT_TO;
    const logs = [...this.logs].filter((l) => l.bytes > 0).sort((a, b) => b.bytes - a.bytes);
    let level = 0;
    let k = 0;
    let sum = 0;
    while (k < logs.length) {
      sum += logs[k]!.bytes;
      k++;
      const next = k < logs.length ? logs[k]!.bytes : 0;
      if (sum - k * next >= need) {
        level = (sum - need) / k;
        break;
      }
    }
    for (let i = 0; i < k; i++) {
      const log = logs[i]!;
      if (log.bytes > level) this.total -= log.shed(log.bytes - level);
    }
  }
}

/**
 * A merchant's webhook delivery log as the budget counts it. The log is the merchant's state, so it is
 * cut only through the domain (delivery-log.ts), and `onCut` has the change saved.
 */
export class DeliveryLogBytes implements BudgetedLog {
  private held = 0;

  constructor(
    private readonly budget: LogBudget,
    private readonly stateOf: () => TenantState,
    private readonly onCut: () => void,
  ) {}

  get bytes(): number {
    return this.held;
  }

  /** The log was replaced whole (a merchant added, reset, loaded from a snapshot or its file): counted again, not cut. */
  recount(): void {
    let bytes = 0;
    for (const d of this.stateOf().deliveries) bytes += deliveryBytes(d);
    const delta = bytes - this.held;
    this.held = bytes;
    this.budget.recounted(this, delta);
  }

  /** `added` was logged and `dropped` cut by the merchant's own bound; past the budget, logs are cut. */
  logged(added: WebhookDelivery, dropped: readonly WebhookDelivery[]): void {
    let delta = deliveryBytes(added);
    for (const d of dropped) delta -= deliveryBytes(d);
    this.held += delta;
    this.budget.resized(this, delta);
  }

  shed(bytes: number): number {
    const freed = shedDeliveries(this.stateOf(), bytes);
    this.held -= freed;
    if (freed > 0) this.onCut();
    return freed;
  }
}
