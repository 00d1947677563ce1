/**
 * Crash safety of --data: a server under write load is killed with SIGKILL; on restart its files load
 * and every operation it had acknowledged is there (a response is sent only after its write landed,
 * and writes are atomic: temp file + rename). A large merchant's writes are journal appends:
 * the kill may cut the last line short, which the restart drops.
 */
import { readdirSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { closedAfterEach, expectLedgerConsistent, httpCall, REPO_ROOT, signUpAt, startFromArgs, stopServers, tempDirs } from "../helpers.js";
import { startServerProcess, type StartedServer } from "../support/processes.js";

const dataDir = tempDirs("msb-crash-");
const killedAfter = closedAfterEach((server: StartedServer) => server.kill()); // a failed test's server dies before its folder goes
afterEach(stopServers); // registered last, so it runs first: the restarted server stops before its folder goes

/** Enough ledger entries (through a snapshot PUT) that the merchant's writes are journaled, not rewritten whole. */
async function makeLarge(url: string, keys: Awaited<ReturnType<typeof signUpAt>>["keys"]): Promise<void> {
  const doc = (await httpCall(url, "GET", "/sandbox/v1/snapshot", { keys })).body.data;
  const at = doc.clock.now;
  doc.state.ledger = Array.from({ length: 3_000 }, (_, i) => ({
    entry_id: i + 1, at, kind: "wallet_funding", amount: 1, balance_after: i + 1, transaction_id: `TXN_LARGE${i}`, description: "Wallet funding (sandbox)",
  }));
  expect((await httpCall(url, "PUT", "/sandbox/v1/snapshot", { keys, body: doc })).status).toBe(200);
}

describe("crash under write load", () => {
  // A small merchant is rewritten whole on each write; a large one's writes are journal appends.
  it.each(["small", "large"] as const)("after SIGKILL, every acknowledged operation is in the restored state (a %s merchant)", async (size) => {
    const dir = await dataDir();
    const server = killedAfter(await startServerProcess(process.execPath, ["--import", "tsx", "src/main.ts", "start", "--port", "0", "--data", dir], { cwd: REPO_ROOT }));
    const { id, keys } = await signUpAt(server.url, { wallet_balance: 0, limits: { requests_per_minute: 0 } });
    if (size === "large") await makeLarge(server.url, keys);

    const acknowledged: string[] = [];
    let stop = false;
    const worker = async () => {
      while (!stop) {
        try {
          const res = await httpCall(server.url, "POST", "/sandbox/v1/wallet/fund", { keys, body: { amount: 1 } });
          if (res.status === 200) acknowledged.push(res.body.data.transaction_id);
        } catch {
          return; // the server is gone
        }
      }
    };
    const workers = Array.from({ length: 8 }, worker);
    while (acknowledged.length < 200) await new Promise((r) => setTimeout(r, 5));
    const killed = server.kill(); // mid-load: requests are in flight
    stop = true;
    await Promise.all([killed, ...workers]);
    expect(acknowledged.length).toBeGreaterThanOrEqual(200);
    if (size === "large") expect(readdirSync(dir).some((name) => name.endsWith(".journal")), "the writes were journal appends").toBe(true);

    const restarted = await startFromArgs(["--data", dir]);
    const tenant = restarted.registry.get(id)!;
    const saved = new Set(tenant.state.ledger.map((e) => e.transaction_id));
    expect(acknowledged.filter((tx) => !saved.has(tx))).toEqual([]);
    expectLedgerConsistent(tenant);
  }, 60_000);
});
