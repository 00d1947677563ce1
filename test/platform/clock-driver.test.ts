/**
 * The realtime wake-ups of the clock driver, on fake timers and a fake wall clock that move together:
 * which timers get a Node timeout, how long it waits, and what a wake-up costs.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MAX_CLOCK, MAX_DELAY_SECONDS } from "../../src/domain/bounds.js";
import { MAX_TIMEOUT_MS, RETRY_AFTER_FAILURE_MS, wakeUpDelay } from "../../src/engine/clock-driver.js";
import { snapshotOf, type Tenant } from "../../src/engine/tenant.js";
import { DONE, MemoryTenantStore } from "../../src/engine/tenant-store.js";
import { createRuntime, type Runtime } from "../../src/runtime.js";
import { harness, type Merchant } from "../helpers.js";

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const iso = (ms: number) => new Date(ms).toISOString();

/** A sandbox whose wake-ups save through `commit` (counted), on the faked wall clock. */
function sandbox(commit: (t: Tenant, runtime: Runtime) => Promise<void> = async () => undefined) {
  const saves = { count: 0 };
  // Requests' own changes are kept as in memory; a change kept as already made (a wake-up's) is a save.
  class WakeUpSaves extends MemoryTenantStore {
    override async change<T>(t: Tenant, work: () => T | Promise<T>): Promise<T> {
      const result = await work();
      if (work !== DONE) return result;
      saves.count += 1;
      await commit(t, runtime);
      return result;
    }
  }
  const runtime: Runtime = createRuntime({ store: new WakeUpSaves() });
  const h = harness({ realWall: true, runtime });
  return { h, runtime, saves };
}

/** A merchant with a realtime clock from `now`, and a cardholder whose KYC approval is `kycSeconds` away. */
async function merchantWithPendingKyc(h: ReturnType<typeof harness>, clock: { now: number; speed?: number }, kycSeconds: number): Promise<Merchant> {
  const m = await h.merchant({ clock: { mode: "realtime", speed: clock.speed ?? 1, now: iso(clock.now) }, delays: { kyc_approval_seconds: kycSeconds } });
  const created = await m.call("POST", "/api/v1/virtual-cards/cardholders", { body: { first_name: "Ada", last_name: "Obi", email: "ada@example.com" } });
  expect(created.body).toMatchObject({ success: true, kyc_status: "PENDING" });
  return m;
}

const kycOf = (m: Merchant) => m.tenant.state.cardholders.get(1)!.kyc_status;

describe("wakeUpDelay", () => {
  it("is the wall time to the timer at the clock's speed, rounded up, and never past setTimeout's limit", () => {
    expect(wakeUpDelay(1_000, 0, 1)).toBe(1_000);
    expect(wakeUpDelay(1, 0, 100_000)).toBe(1); // never rounded down to a wake-up before the timer
    expect(wakeUpDelay(5, 10, 1)).toBe(0); // already due
    expect(wakeUpDelay(MAX_DELAY_SECONDS * 1_000, 0, 1)).toBe(MAX_TIMEOUT_MS); // Node would wait 1 ms for more
    expect(wakeUpDelay(1_000, 0, Number.MIN_VALUE)).toBe(MAX_TIMEOUT_MS);
  });
});

describe("a timer after the clock's last instant", () => {
  it("gets no wake-up: the clock at its ceiling stays idle, nothing is saved, the KYC stays PENDING", async () => {
    const { h, saves } = sandbox();
    // One second before the ceiling at top speed: the first wall millisecond takes the clock there.
    const m = await h.merchant({ clock: { mode: "realtime", speed: 100_000, now: iso(MAX_CLOCK - 1_000) }, delays: { kyc_approval_seconds: 1 } });
    await vi.advanceTimersByTimeAsync(1);
    expect(m.tenant.clock.now()).toBe(MAX_CLOCK);
    const created = await m.call("POST", "/api/v1/virtual-cards/cardholders", { body: { first_name: "Ada", last_name: "Obi", email: "ada@example.com" } });
    expect(created.body).toMatchObject({ kyc_status: "PENDING" });
    expect(m.tenant.state.timers).toEqual([expect.objectContaining({ kind: "kyc.approve", at: MAX_CLOCK + 1_000 })]);

    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(saves.count).toBe(0);
    expect(kycOf(m)).toBe("PENDING");
    expect(m.tenant.state.timers).toHaveLength(1); // kept: the lever or a snapshot still sees it
  });

  it("a clock started exactly at its ceiling: no wake-up either", async () => {
    const { h, saves } = sandbox();
    const m = await merchantWithPendingKyc(h, { now: MAX_CLOCK }, 1);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(saves.count).toBe(0);
    expect(kycOf(m)).toBe("PENDING");
  });

  it("a timer exactly at the ceiling still fires", async () => {
    const { h, saves } = sandbox();
    const m = await merchantWithPendingKyc(h, { now: MAX_CLOCK - 1_000 }, 1);
    expect(m.tenant.state.timers[0]!.at).toBe(MAX_CLOCK);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(kycOf(m)).toBe("APPROVED");
    expect(saves.count).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("a timer further away than setTimeout can wait", () => {
  it("is armed with the longest delay; the early wake-ups neither fire it nor save, and it fires on time", async () => {
    const { h, saves } = sandbox();
    const start = Date.now();
    const m = await merchantWithPendingKyc(h, { now: start }, MAX_DELAY_SECONDS); // a year away at 1x
    expect(vi.getTimerCount()).toBe(1);

    await vi.advanceTimersByTimeAsync(MAX_TIMEOUT_MS - 1);
    expect(saves.count).toBe(0);
    await vi.advanceTimersByTimeAsync(1); // the first wake-up: not due yet, so re-armed, nothing saved
    expect(saves.count).toBe(0);
    expect(kycOf(m)).toBe("PENDING");
    expect(vi.getTimerCount()).toBe(1);

    await vi.advanceTimersByTimeAsync(start + MAX_DELAY_SECONDS * 1_000 - Date.now() - 1);
    expect(kycOf(m)).toBe("PENDING");
    expect(saves.count).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(kycOf(m)).toBe("APPROVED");
    expect(saves.count).toBe(1);
  });

  it("is re-armed when the clock speeds up, instead of waiting out the delay computed at the old speed", async () => {
    const { h } = sandbox();
    const m = await merchantWithPendingKyc(h, { now: Date.now() }, 86_400); // a day away at 1x
    const patched = await m.call("PATCH", "/sandbox/v1/merchant", { body: { clock: { speed: 86_400 } } });
    expect(patched.status).toBe(200);
    await vi.advanceTimersByTimeAsync(1_000); // a day of sim time at 86,400x
    expect(kycOf(m)).toBe("APPROVED");
  });
});

describe("a wake-up whose save fails", () => {
  it("tries again after a second, then less and less often, instead of every millisecond", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    let failing = true;
    let saved = "";
    // As the --data store does: a failed save puts the merchant back as last written and re-arms it.
    const { h, saves } = sandbox(async (t, runtime) => {
      if (!failing) return;
      h.registry.reload(t, JSON.parse(saved));
      runtime.driver.arm(t);
      throw new Error("ENOSPC: no space left on device, write");
    });
    // Due a wall millisecond after each undo: without a pause, a failed save every millisecond.
    const m = await merchantWithPendingKyc(h, { now: Date.now(), speed: 1_000 }, 1);
    saved = JSON.stringify(snapshotOf(m.tenant));

    await vi.advanceTimersByTimeAsync(1); // due: the wake-up's save fails
    expect(saves.count).toBe(1);
    await vi.advanceTimersByTimeAsync(RETRY_AFTER_FAILURE_MS - 1);
    expect(saves.count).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(saves.count).toBe(2);
    await vi.advanceTimersByTimeAsync(10_000); // then after 2 s, 4 s, 8 s
    expect(saves.count).toBe(4);
    expect(logged).toHaveBeenCalledTimes(4);
    expect(kycOf(m)).toBe("PENDING");

    failing = false;
    await vi.advanceTimersByTimeAsync(8_000);
    expect(saves.count).toBe(5);
    expect(kycOf(m)).toBe("APPROVED");
    expect(vi.getTimerCount()).toBe(0);
  });
});
