/**
 * Runs a merchant's timers. `advance` (manual and realtime alike) fires every timer due up to the
 * target in (at, seq) order, moving the clock to each timer's time first so the timestamps it writes
 * are right, including timers scheduled by the timers it fires, then leaves the clock at the target.
 * Calls for one merchant are serialised. In realtime mode each merchant with pending timers has one
 * Node timeout armed for its next timer (none for timers after the clock's last instant, which never
 * fire), and every request first catches up on what is due, so a reply never shows a state that
 * should already have moved on.
 *
 * Background work never ends the process and never holds up other merchants: a timer that throws is
 * recorded as an incident of its merchant and the rest carry on; long runs give the event loop back
 * every few milliseconds; the webhook attempts of one instant run side by side, a bounded number at a
 * time, instead of one after another.
 *
 * Webhooks go out only for changes that were saved: the events an instant's transitions emit are
 * delivered after the store has kept the change (the --data save). A failed save ends the advance with it.
 */
import { performance } from "node:perf_hooks";
import { recordIncident } from "../domain/incidents.js";
import type { Timer } from "../domain/records.js";
import { fireTimer, isDomainTimer } from "../domain/timer-dispatch.js";
import { canFire, nextTimer, popDue } from "../domain/timers.js";
import { Lanes } from "./lanes.js";
import { DONE, MemoryTenantStore, type TenantStore } from "./tenant-store.js";
import { contextOf, type Tenant } from "./tenant.js";

/**
 * What the clock needs from webhook delivery (the dispatcher, one layer up): start a merchant's new
 * events, run a due attempt, wait for the attempts in flight. None of them ever rejects.
 */
export interface Deliveries {
  drain(tenant: Tenant): Promise<void>;
  onTimer(tenant: Tenant, timer: Timer): Promise<void>;
  idle(tenant: Tenant): Promise<void>;
}

/** Guards against a timer that keeps rescheduling itself at the same instant. */
const MAX_FIRED_PER_CALL = 5_000_000;
/** Node's setTimeout limit (a longer delay would run after 1 ms); a later timer is re-armed when this one wakes. */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;
/** After a wake-up that failed (its save, say), the next try waits this long, doubling up to the cap. */
export const RETRY_AFTER_FAILURE_MS = 1_000;
const MAX_RETRY_AFTER_FAILURE_MS = 60_000;
/** How long a run of timers may hold the event loop before it lets other work (other merchants) in. */
const SLICE_MS = 8;
/** Webhook attempts of one merchant's instant in flight at once during an advance. */
export const PARALLEL_ATTEMPTS = 32;

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A merchant's armed wake-up: for which timer, computed at which clock revision; a retry after a failure is kept as it is. */
interface WakeUp {
  at: number;
  revision: number;
  retry: boolean;
  handle: NodeJS.Timeout;
}

/** Real ms until sim time `at` on a realtime clock now at `now` running `speed` times wall time, within what setTimeout takes. */
export function wakeUpDelay(at: number, now: number, speed: number): number {
  return Math.min(MAX_TIMEOUT_MS, Math.max(0, Math.ceil((at - now) / speed)));
}

export class ClockDriver {
  private readonly armed = new Map<string, WakeUp>();
  private readonly queues = new Lanes();
  /** Wake-ups that failed in a row, per merchant: how long the next try waits. */
  private readonly failures = new Map<string, number>();

  constructor(
    private readonly dispatcher?: Deliveries,
    /** Keeps the merchant's changes (with --data; at once in memory); rejects when it cannot. */
    private readonly store: TenantStore = new MemoryTenantStore(),
  ) {}

  /**
   * Fires due timers and moves the clock to the target, waiting for the webhook attempts they start.
   * The target is computed from the clock as it stands once this merchant's earlier advances have
   * finished, so "+5 s" twice is +10 s.
   */
  advance(tenant: Tenant, target: (now: number) => number): Promise<{ now: number; fired: number }> {
    return this.serialised(tenant, async () => {
      const targetOf = () => {
        const to = target(tenant.clock.now());
        if (to < tenant.clock.now()) throw new RangeError("the clock never goes backwards");
        return to;
      };
      const move = async (to: number) => {
        const fired = await this.runDue(tenant, to, true);
        if (to > tenant.clock.now()) tenant.clock.configure({ now: to });
        return fired;
      };
      const to = this.store.shared ? 0 : targetOf();
      await this.dispatcher?.idle(tenant); // attempts already under way finish at the time they started
      // Shared: the target is taken and the move made in one change, under the merchant's lock, so
      // "+5 s" twice is +10 s whichever process ran each.
      const fired = this.store.shared ? await this.store.change(tenant, () => move(targetOf())) : await move(to);
      await this.dispatcher?.idle(tenant);
      this.arm(tenant);
      return { now: tenant.clock.now(), fired };
    });
  }

  /**
   * Realtime catch-up: fires whatever is due by the clock's current time. The state transitions are
   * done when it resolves (it may yield on the way, for a merchant with many overdue timers). The
   * events they emit stay in the outbox for the caller to deliver once it has saved the change
   * (`commitAndDeliver`); retries that fall due start at once.
   */
  async catchUp(tenant: Tenant): Promise<void> {
    if (!this.due(tenant)) return;
    // Shared: the timers fire under the merchant's lock, on its copy as the store holds it.
    if (this.store.shared) await this.store.change(tenant, () => this.runDue(tenant, tenant.clock.now(), false));
    else await this.runDue(tenant, tenant.clock.now(), false);
  }

  /**
   * Whether a catch-up has anything to do: a realtime clock with a timer due. Synchronous, so a request
   * with nothing due skips the catch-up's await (most requests; manual clocks never catch up).
   */
  due(tenant: Tenant): boolean {
    const next = nextTimer(tenant.state);
    return next !== undefined && tenant.clock.settings().mode === "realtime" && next.at <= tenant.clock.now();
  }

  /**
   * (Re)arms the realtime wake-up for the merchant's next timer, or disarms it. A timer that can no
   * longer fire (after the clock's last instant) gets none: it would wake the merchant every
   * millisecond with nothing to do, so an idle merchant costs nothing whatever its clock.
   */
  arm(tenant: Tenant): void {
    const next = this.wakeUpTimer(tenant);
    if (!next) {
      this.disarm(tenant);
      return;
    }
    // Kept while it is still right: same timer, clock neither moved nor sped up since it was computed.
    const current = this.armed.get(tenant.id);
    if (current && (current.retry || (current.at === next.at && current.revision === tenant.clock.revision))) return;
    this.wakeUpAfter(tenant, next.at, wakeUpDelay(next.at, tenant.clock.now(), tenant.clock.settings().speed), false);
  }

  /** The timer a wake-up is for: the next one, when the clock is realtime and the timer can still fire. */
  private wakeUpTimer(tenant: Tenant): Timer | undefined {
    const next = nextTimer(tenant.state);
    return next && canFire(next) && tenant.clock.settings().mode === "realtime" ? next : undefined;
  }

  /** Disarms one merchant's wake-up. */
  private disarm(tenant: Tenant): void {
    const current = this.armed.get(tenant.id);
    if (current) clearTimeout(current.handle);
    this.armed.delete(tenant.id);
  }

  private wakeUpAfter(tenant: Tenant, at: number, wait: number, retry: boolean): void {
    this.disarm(tenant);
    const handle = setTimeout(() => {
      this.armed.delete(tenant.id);
      let failed = false;
      void this.serialised(tenant, async () => {
        // Woken before the timer (a delay cut to setTimeout's limit, a clock slowed since): nothing to run or save.
        if (!this.due(tenant)) return;
        await this.catchUp(tenant);
        await this.commitAndDeliver(tenant);
      })
        .then(() => this.failures.delete(tenant.id))
        .catch((err: unknown) => {
          failed = true;
          console.error(`[merchant-sandbox] merchant ${tenant.id}: timers failed:`, err);
        })
        .finally(() => (failed ? this.retryLater(tenant) : this.arm(tenant)));
    }, wait);
    handle.unref(); // a pending demo timer never keeps a stopping process alive
    this.armed.set(tenant.id, { at, revision: tenant.clock.revision, retry, handle });
  }

  /**
   * After a failed wake-up (a save the store refused, whose undo put the due timer back): the next
   * try waits, doubling, instead of coming at once and failing again every millisecond.
   */
  private retryLater(tenant: Tenant): void {
    const failures = (this.failures.get(tenant.id) ?? 0) + 1;
    this.failures.set(tenant.id, failures);
    const next = this.wakeUpTimer(tenant);
    if (!next) {
      this.disarm(tenant);
      return;
    }
    const wait = Math.min(MAX_RETRY_AFTER_FAILURE_MS, RETRY_AFTER_FAILURE_MS * 2 ** Math.min(failures - 1, 16));
    this.wakeUpAfter(tenant, next.at, wait, true);
  }

  /**
   * Background work found due by a shared store's poller (this process may not have armed a wake-up
   * for it: another made the change): the merchant as the store holds it, its due timers fired and
   * the events waiting delivered.
   */
  wake(tenant: Tenant): Promise<void> {
    return this.serialised(tenant, async () => {
      const freshening = this.store.fresh(tenant);
      if (freshening) await freshening;
      await this.catchUp(tenant);
      if (tenant.state.outbox.length > 0) await this.commitAndDeliver(tenant);
      this.arm(tenant);
    });
  }

  /** A catch-up for a read (a page view): what it emitted is saved and delivered in the background. */
  async catchUpForRead(tenant: Tenant): Promise<void> {
    // The pages show the merchant's traffic too (its request log, checks, doctor scorecard).
    const freshening = this.store.fresh(tenant, { requestLog: true });
    if (freshening) await freshening;
    await this.catchUp(tenant);
    if (tenant.state.outbox.length > 0) void this.commitAndDeliver(tenant).catch(() => undefined); // the store logs and undoes a failed save
  }

  /**
   * After changes made outside a request's own save (a catch-up on a page view, a wake-up): saves
   * them, then starts the webhooks they emitted. Rejects, delivering nothing, when the save fails.
   */
  async commitAndDeliver(tenant: Tenant): Promise<void> {
    await this.store.change(tenant, DONE);
    void this.dispatcher?.drain(tenant);
  }

  /** Disarms one merchant (reset, removal) or, without an argument, all of them. */
  stop(tenant?: Tenant): void {
    for (const [id, { handle }] of this.armed) {
      if (tenant && id !== tenant.id) continue;
      clearTimeout(handle);
      this.armed.delete(id);
    }
    if (tenant) this.failures.delete(tenant.id);
    else this.failures.clear();
  }

  /**
   * Fires due timers in (at, seq) order. With `wait` (an advance), each instant ends with its changes
   * saved, then the webhooks they caused delivered, and the clock moves on to a later instant only
   * once that instant's attempts are done (they may schedule retries in between), so a manual
   * advance is deterministic. Without it (a catch-up), transitions run and emitted events wait in the
   * outbox; retries due start at once.
   */
  private async runDue(tenant: Tenant, upTo: number, wait: boolean): Promise<number> {
    let fired = 0;
    let sliceStart = performance.now();
    const attempts = new Set<Promise<void>>();
    const track = (work: Promise<void>) => {
      const tracked: Promise<void> = work.then(() => void attempts.delete(tracked));
      attempts.add(tracked);
    };
    for (;;) {
      const next = nextTimer(tenant.state);
      const due = next !== undefined && next.at <= upTo;
      if (wait && (!due || next.at > tenant.clock.now())) {
        // The instant is over: save what it changed, then deliver what that emitted, then let its
        // attempts finish (they may schedule timers due before `next`, or before the target).
        if (tenant.state.outbox.length > 0 && this.dispatcher) {
          await this.store.change(tenant, DONE);
          track(this.dispatcher.drain(tenant));
        }
        if (attempts.size > 0) {
          await Promise.all(attempts);
          continue;
        }
      }
      if (attempts.size >= PARALLEL_ATTEMPTS) {
        await Promise.race(attempts);
        continue;
      }
      if (!due) break;
      const timer = popDue(tenant.state, upTo)!;
      if (timer.at > tenant.clock.now()) tenant.clock.configure({ now: timer.at });
      const work = this.fire(tenant, timer);
      if (wait && work) track(work);
      if (++fired >= MAX_FIRED_PER_CALL) {
        recordIncident(tenant.state, tenant.clock.now(), "clock advance", `more than ${MAX_FIRED_PER_CALL} timers fired in one advance; the rest wait for the next one`);
        break;
      }
      if ((fired & 63) === 0 && performance.now() - sliceStart > SLICE_MS) {
        await yieldToLoop();
        sliceStart = performance.now();
      }
    }
    return fired;
  }

  /** One timer: a webhook attempt (I/O, returned to wait for) or a domain transition (its events wait in the outbox). */
  private fire(tenant: Tenant, timer: Timer): Promise<void> | undefined {
    if (!isDomainTimer(timer)) return this.dispatcher?.onTimer(tenant, timer);
    try {
      fireTimer({ ...contextOf(tenant), now: timer.at }, tenant.state, timer);
    } catch (err) {
      // The transition checks before it changes anything, so a throw leaves the state as it was.
      recordIncident(tenant.state, timer.at, `timer ${timer.kind} ${timer.ref}`, err);
      console.error(`[merchant-sandbox] merchant ${tenant.id}: timer ${timer.kind} ${timer.ref} failed:`, err);
    }
    return undefined;
  }

  private serialised<T>(tenant: Tenant, work: () => Promise<T>): Promise<T> {
    return this.queues.run(tenant.id, work);
  }

}
