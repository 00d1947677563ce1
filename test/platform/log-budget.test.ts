/**
 * The sandbox-wide log budget (engine/log-budget.ts): which logs it cuts and in what order (the largest,
 * oldest entries first, none below the level it cuts to), that its total stays the sum of the logs it
 * counts, that a merchant's request log and delivery log are both counted, and that the deliveries it
 * cuts are saved with `--data` like any change.
 */
import { afterEach, describe, expect, it } from "vitest";
import { deliveryBytes } from "../../src/domain/delivery-log.js";
import { entryBytes } from "../../src/domain/request-log.js";
import { CUT_TO, LogBudget, type BudgetedLog } from "../../src/engine/log-budget.js";
import { Registry } from "../../src/engine/registry.js";
import { snapshotOf, type Tenant } from "../../src/engine/tenant.js";
import type { WebhookDelivery } from "../../src/domain/records.js";
import { loadCatalog } from "../../src/store/fixtures.js";
import { loggedRequest } from "../domain/context.js";
import { httpCall, signUpAtStart, START, snapshotAt, startFromArgs, stopServers, tempDirs } from "../helpers.js";

const dataDir = tempDirs("msb-log-budget-");
afterEach(stopServers);

/** A log of entries of the given sizes, oldest first, that reports its growth to `budget` as a real one does. */
class FakeLog implements BudgetedLog {
  readonly entries: number[] = [];
  constructor(private readonly budget: LogBudget) {}
  get bytes() {
    return this.entries.reduce((a, b) => a + b, 0);
  }
  add(...sizes: number[]) {
    this.entries.push(...sizes);
    this.budget.resized(this, sizes.reduce((a, b) => a + b, 0));
    return this;
  }
  shed(bytes: number) {
    let freed = 0;
    while (freed < bytes && this.entries.length > 0) freed += this.entries.shift()!;
    return freed;
  }
}

function budgetWith(limit: number, ...logs: number[][]) {
  const budget = new LogBudget(limit);
  const made = logs.map((sizes) => {
    const log = new FakeLog(budget);
    log.entries.push(...sizes);
    budget.track(log);
    return log;
  });
  return { budget, logs: made };
}

const sumOf = (logs: BudgetedLog[]) => logs.reduce((a, l) => a + l.bytes, 0);

describe("LogBudget", () => {
  it("under the budget, cuts nothing", () => {
    const { budget, logs } = budgetWith(1_000, [100, 100], [300]);
    logs[0]!.add(500);
    expect(budget.used).toBe(1_000);
    expect(logs.map((l) => l.entries)).toEqual([[100, 100, 500], [300]]);
  });

  it("over it, cuts the largest log's oldest entries first, down to CUT_TO of the budget; smaller logs are untouched", () => {
    const { budget, logs } = budgetWith(1_600, [100, 100, 100, 100], [10, 20, 30, 40, 50, 60, 70, 80], [50]);
    const [a, b, c] = logs;
    a!.add(100, 101, 102, 103, 104, 105, 106, 107, 108); // a: 1,336 bytes, the total 1,746: 246 over 1,500
    expect(a!.entries).toEqual([100, 100, 101, 102, 103, 104, 105, 106, 107, 108]);
    expect(b!.entries).toEqual([10, 20, 30, 40, 50, 60, 70, 80]);
    expect(c!.entries).toEqual([50]);
    expect(budget.used).toBe(1_446);
    expect(budget.used).toBe(sumOf(logs));
    expect(budget.used).toBeLessThanOrEqual(1_600 * CUT_TO);
  });

  it("cuts the largest logs down to one level when cutting one is not enough, each from its oldest, and none below it", () => {
    const { budget, logs } = budgetWith(800, Array(40).fill(10), Array(39).fill(10), [10, 10]);
    const [a, b, c] = logs;
    a!.add(10); // the total 820: 70 over 750, more than a's 20 over b
    expect(a!.bytes).toBe(360);
    expect(b!.bytes).toBe(360);
    expect(c!.entries).toEqual([10, 10]);
    expect(budget.used).toBe(740);
    expect(budget.used).toBe(sumOf(logs));
  });

  it("keeps its total the sum of the logs it counts: growth, shrinking, untracking; a log it does not count is ignored", () => {
    const { budget, logs } = budgetWith(10_000, [100], [200]);
    const stranger = new FakeLog(budget).add(5_000, 5_000, 5_000);
    expect(budget.used).toBe(300);
    logs[0]!.entries.pop();
    budget.resized(logs[0]!, -100);
    expect(budget.used).toBe(200);
    budget.untrack(logs[1]!);
    expect(budget.used).toBe(0);
    expect(stranger.entries).toHaveLength(3);
  });

  it("recounted never cuts; enforce does", () => {
    const { budget, logs } = budgetWith(1_000, [100]);
    logs[0]!.entries.push(600, 600);
    budget.recounted(logs[0]!, 1_200);
    expect(budget.used).toBe(1_300);
    expect(logs[0]!.entries).toHaveLength(3);
    budget.enforce();
    expect(budget.used).toBeLessThanOrEqual(1_000 * CUT_TO);
    expect(logs[0]!.entries).toEqual([600]);
  });
});

/** A logged request of about `bytes` bytes (its response body). */
const request = (bytes: number) => loggedRequest({ request_headers: { "user-agent": "test" }, response_body: "x".repeat(bytes) });

/** A delivery record of about 1.5 KB (deliveryBytes), `DLV_<owner>_<i>`. */
const delivery = (owner: string, i: number): WebhookDelivery => ({
  id: `DLV_${owner}_${i}`,
  event_id: `EVT_${i}`,
  event_type: "webhook.test",
  trigger: "test",
  url: "https://example.com/hook",
  sent_at: START,
  nonce: null,
  request_headers: {},
  request_body: "z".repeat(1_000),
  status_code: 200,
  error: null,
  latency_ms: 1,
  response_excerpt: null,
  outcome: "delivered",
  fault: null,
  next_retry_at: null,
});

/** `count` deliveries logged for `t`, as the dispatcher logs them. */
function logDeliveries(t: Tenant, count: number): void {
  for (let i = 0; i < count; i++) {
    t.state.deliveries.push(delivery(t.id, i));
    t.deliveryLogBytes.logged(t.state.deliveries.at(-1)!, []);
  }
}

/** What the registry's logs hold, recomputed entry by entry. */
const heldBy = (tenants: Tenant[]) =>
  tenants.reduce((sum, t) => sum + t.requestLog.all().reduce((a, e) => a + entryBytes(e), 0) + t.state.deliveries.reduce((a, d) => a + deliveryBytes(d), 0), 0);

describe("the registry's budget over every merchant's logs", () => {
  it("with 300 merchants logging, the sandbox-wide total never passes the budget, and stays the sum of what the logs hold", () => {
    const limit = 2 * 1024 * 1024; // about a third of what they log
    const registry = new Registry({ catalog: loadCatalog(), logBudgetBytes: limit });
    const quiet = registry.create({});
    quiet.requestLog.add(request(100));
    const tenants = Array.from({ length: 300 }, () => registry.create({}));
    for (let round = 0; round < 10; round++) {
      for (const t of tenants) {
        t.requestLog.add(request(1_000 + round * 100));
        expect(registry.logBudget.used).toBeLessThanOrEqual(limit);
      }
    }
    const all = [quiet, ...tenants];
    expect(registry.logBudget.used).toBe(heldBy(all));
    // The quiet merchant's one small entry is below the level the busy logs were cut to.
    expect(quiet.requestLog.size).toBe(1);
    // Each busy log kept its newest entries: the last round's is there.
    for (const t of tenants) expect(t.requestLog.all().at(-1)!.response_body).toHaveLength(1_900);
    registry.remove(tenants[0]!);
    expect(registry.logBudget.used).toBe(heldBy(all.slice(0, 1).concat(tenants.slice(1))));
  });

  it("a merchant's deliveries count too: replaced whole they are recounted, and cut (oldest first) when they make the largest log", () => {
    const limit = 64 * 1024;
    const registry = new Registry({ catalog: loadCatalog(), logBudgetBytes: limit });
    const a = registry.create({});
    const b = registry.create({});
    b.requestLog.add(request(5_000));
    const cut: string[] = [];
    registry.onDeliveriesCut = (t) => cut.push(t.id);
    logDeliveries(a, 80);
    expect(registry.logBudget.used).toBeLessThanOrEqual(limit);
    expect(registry.logBudget.used).toBe(heldBy([a, b]));
    expect(a.state.deliveries.at(-1)!.id).toBe(`DLV_${a.id}_79`);
    expect(a.state.deliveries[0]!.id).not.toBe(`DLV_${a.id}_0`);
    expect(b.requestLog.size).toBe(1); // the smaller log was not touched
    expect(cut.length).toBeGreaterThan(0);
    expect(new Set(cut)).toEqual(new Set([a.id]));

    // A reset empties the log: counted at once.
    registry.resetState(a, { ...a.state, deliveries: [] });
    expect(registry.logBudget.used).toBe(heldBy([a, b]));
  });

  it("a merchant restored over the budget is counted, not cut, until the next entry is logged (its store must take it as written first)", () => {
    const limit = 64 * 1024;
    const source = new Registry({ catalog: loadCatalog() });
    const saved = source.create({});
    logDeliveries(saved, 80);
    const registry = new Registry({ catalog: loadCatalog(), logBudgetBytes: limit });
    const restored = registry.restore(snapshotOf(saved));
    expect(restored.state.deliveries).toHaveLength(80);
    expect(registry.logBudget.used).toBe(heldBy([restored]));
    expect(registry.logBudget.used).toBeGreaterThan(limit);
    registry.create({}).requestLog.add(request(100));
    expect(registry.logBudget.used).toBeLessThanOrEqual(limit);
    expect(restored.state.deliveries.length).toBeLessThan(80);
  });
});

describe("--log-budget-mb with --data", () => {
  it("deliveries the budget cuts from another merchant's log are saved: after a restart they stay cut", async () => {
    const dir = await dataDir();
    const first = await startFromArgs(["--data", dir, "--log-budget-mb", "1"]);
    expect(first.registry.logBudget.limit).toBe(1024 * 1024);
    const big = await signUpAtStart(first.url);
    const small = await signUpAtStart(first.url);
    const withDeliveries = async (m: typeof big, count: number) => {
      const doc = await snapshotAt(first.url, m.keys);
      doc.state.deliveries = Array.from({ length: count }, (_, i) => delivery(m.id, i));
      const put = await m.call("PUT", "/sandbox/v1/snapshot", { body: doc });
      expect(put.status, put.text.slice(0, 300)).toBe(200);
    };
    await withDeliveries(big, 560); // about 0.85 MB: under the budget
    expect((await snapshotAt(first.url, big.keys)).state.deliveries).toHaveLength(560);
    await withDeliveries(small, 120); // together over it: the largest log, big's, loses its oldest
    const kept = (await snapshotAt(first.url, big.keys)).state.deliveries;
    expect(kept.length).toBeLessThan(560);
    expect(kept.at(-1).id).toBe(`DLV_${big.id}_559`);
    expect((await snapshotAt(first.url, small.keys)).state.deliveries).toHaveLength(120);
    await stopServers();

    const second = await startFromArgs(["--data", dir, "--log-budget-mb", "1"]);
    const after = await httpCall(second.url, "GET", "/sandbox/v1/snapshot", { keys: big.keys });
    expect(after.body.data.state.deliveries.map((d: { id: string }) => d.id)).toEqual(kept.map((d: { id: string }) => d.id));
  });
});
