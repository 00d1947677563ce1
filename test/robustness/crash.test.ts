/**
 * Crash safety of --data: a server under write load is killed with SIGKILL; on restart its files load
 * and every operation it had acknowledged is there (a response is sent only after its write landed,
 * and writes are atomic: temp file + rename).
 */
import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { expectLedgerConsistent, httpCall, REPO_ROOT, signUpAt, startFromArgs, stopServers, tempDirs } from "../helpers.js";

const dataDir = tempDirs("msb-crash-");
afterEach(stopServers); // registered last, so it runs first: the restarted server stops before its folder goes

describe("crash under write load", () => {
  it("after SIGKILL, every acknowledged operation is in the restored state", async () => {
    const dir = await dataDir();
    // Not test/support/processes.ts's startServerProcess: its stop() sends SIGTERM first, and this test needs SIGKILL.
    const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts", "start", "--port", "0", "--data", dir], {
      cwd: REPO_ROOT,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (d: Buffer) => {
          out += d.toString();
          const m = /listening on (http:\/\/\S+)/.exec(out);
          if (m) resolve(m[1]!);
        });
        child.once("exit", (code) => reject(new Error(`server exited ${code}: ${out}`)));
      });
      const { id, keys } = await signUpAt(url, { wallet_balance: 0, limits: { requests_per_minute: 0 } });

      const acknowledged: string[] = [];
      let stop = false;
      const worker = async () => {
        while (!stop) {
          try {
            const res = await httpCall(url, "POST", "/sandbox/v1/wallet/fund", { keys, body: { amount: 1 } });
            if (res.status === 200) acknowledged.push(res.body.data.transaction_id);
          } catch {
            return; // the server is gone
          }
        }
      };
      const workers = Array.from({ length: 8 }, worker);
      while (acknowledged.length < 200) await new Promise((r) => setTimeout(r, 5));
      process.kill(-child.pid!, "SIGKILL"); // mid-load: requests are in flight
      stop = true;
      await Promise.all(workers);
      expect(acknowledged.length).toBeGreaterThanOrEqual(200);

      const restarted = await startFromArgs(["--data", dir]);
      const tenant = restarted.registry.get(id)!;
      const saved = new Set(tenant.state.ledger.map((e) => e.transaction_id));
      expect(acknowledged.filter((tx) => !saved.has(tx))).toEqual([]);
      expectLedgerConsistent(tenant);
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(-child.pid!, "SIGKILL");
        } catch {
          // already gone
        }
      }
    }
  }, 60_000);
});
