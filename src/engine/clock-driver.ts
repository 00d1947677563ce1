/**
 * Runs a merchant's timers. `advanceTo` (manual and realtime alike) fires every timer due up to the
 * target in (at, seq) order, moving the clock to each timer's time first so the timestamps it writes
 * are right, including timers scheduled by the timers it fires, then leaves the clock at the target.
 * Calls for one merchant are serialised. In realtime mode each merchant with pending timers has one
 * Node timeout armed for its next timer, and every request first catches up on what is due, so a
 * reply never shows a state that should already have moved on.
 */
import { fireTimer } from "../domain/timer-dispatch.js";
import { nextTimer, popDue } from "../domain/timers.js";
import { contextOf, type Tenant } from "../store/tenant.js";
import type { WebhookDispatcher } from "../webhooks/dispatcher.js";

/** Guards against a timer that keeps rescheduling itself at the same instant. */
const MAX_FIRED_PER_CALL = 5_000_000;
/** Node's setTimeout limit; a later timer is re-armed when this one wakes. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

export class ClockDriver {
  private readonly armed = new Map<string, { at: number; handle: NodeJS.Timeout }>();
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly dispatcher?: WebhookDispatcher,
    /** Called after timers fired outside any request (a realtime wake-up), so the change is saved. */
    private readonly onStateChanged?: (tenant: Tenant) => void,
  ) {}

  /**
   * Fires due timers and moves the clock to the target. The target is computed from the clock as it
   * stands once this merchant's earlier advances have finished, so "+5 s" twice is +10 s.
   */
  advance(tenant: Tenant, target: (now: number) => number): Promise<{ now: number; fired: number }> {
    return this.serialised(tenant, async () => {
      const to = target(tenant.clock.now());
      if (to < tenant.clock.now()) throw new RangeError("the clock never goes backwards");
      await this.dispatcher?.idle(tenant); // attempts already under way finish at the time they started
      const fired = await this.runDue(tenant, to, true);
      if (to > tenant.clock.now()) tenant.clock.configure({ now: to });
      await this.dispatcher?.idle(tenant);
      this.arm(tenant);
      return { now: tenant.clock.now(), fired };
    });
  }

  /**
   * Realtime catch-up: fires whatever is due by the clock's current time. State transitions happen
   * before this returns; the webhook attempts they start are not waited for.
   */
  catchUp(tenant: Tenant): void {
    if (tenant.clock.settings().mode !== "realtime") return;
    void this.runDue(tenant, tenant.clock.now(), false);
  }

  /** (Re)arms the realtime wake-up for the merchant's next timer, or disarms it. */
  arm(tenant: Tenant): void {
    const next = nextTimer(tenant.state);
    const current = this.armed.get(tenant.id);
    const { mode, speed } = tenant.clock.settings();
    if (mode !== "realtime" || !next) {
      if (current) clearTimeout(current.handle);
      this.armed.delete(tenant.id);
      return;
    }
    if (current?.at === next.at) return;
    if (current) clearTimeout(current.handle);
    const wait = Math.min(MAX_TIMEOUT_MS, Math.max(0, Math.ceil((next.at - tenant.clock.now()) / speed)));
    const handle = setTimeout(() => {
      this.armed.delete(tenant.id);
      void this.serialised(tenant, async () => {
        this.catchUp(tenant);
        this.arm(tenant);
        this.onStateChanged?.(tenant);
      }).catch((err: unknown) => console.error(`[merchant-sandbox] timers of ${tenant.id} failed:`, err));
    }, wait);
    handle.unref(); // a pending demo timer never keeps a stopping process alive
    this.armed.set(tenant.id, { at: next.at, handle });
  }

  /** Disarms one merchant (reset, removal) or, without an argument, all of them. */
  stop(tenant?: Tenant): void {
    for (const [id, { handle }] of this.armed) {
      if (tenant && id !== tenant.id) continue;
      clearTimeout(handle);
      this.armed.delete(id);
    }
  }

  /**
   * Fires due timers in order. With `wait`, each timer's webhook work (its own attempt, or the first
   * attempts of the events its transition emitted) finishes before the next timer runs, so a manual
   * advance is deterministic. Without it nothing is awaited, and the function runs synchronously.
   */
  private async runDue(tenant: Tenant, upTo: number, wait: boolean): Promise<number> {
    let fired = 0;
    for (let timer = popDue(tenant.state, upTo); timer; timer = popDue(tenant.state, upTo)) {
      if (timer.at > tenant.clock.now()) tenant.clock.configure({ now: timer.at });
      let work: Promise<void> | undefined;
      if (timer.kind === "webhook.attempt") work = this.dispatcher?.onTimer(tenant, timer);
      else {
        fireTimer({ ...contextOf(tenant), now: timer.at }, tenant.state, timer);
        if (tenant.state.outbox.length > 0) work = this.dispatcher?.drain(tenant);
      }
      if (wait && work) await work;
      if (++fired >= MAX_FIRED_PER_CALL) throw new Error(`more than ${MAX_FIRED_PER_CALL} timers fired in one advance`);
    }
    return fired;
  }

  private serialised<T>(tenant: Tenant, work: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(tenant.id) ?? Promise.resolve();
    const result = previous.then(work, work);
    const settled = result.then(() => undefined, () => undefined);
    this.queues.set(tenant.id, settled);
    void settled.then(() => {
      if (this.queues.get(tenant.id) === settled) this.queues.delete(tenant.id);
    });
    return result;
  }
}
