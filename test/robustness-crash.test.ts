/**
 * Crash safety of --data: a server under write load is killed with SIGKILL; on restart its files load
 * and every operation it had acknowledged is there (a response is sent only after its write landed,
 * and writes are atomic: temp file + rename).
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseSettings } from "../src/config.js";
import { startServer, type RunningSandbox } from "../src/server.js";

let dir = "";
let restarted: RunningSandbox | undefined;
afterEach(async () => {
  await restarted?.close();
  restarted = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("crash under write load", () => {
  it("after SIGKILL, every acknowledged operation is in the restored state", async () => {
    dir = await mkdtemp(join(tmpdir(), "msb-crash-"));
    const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts", "start", "--port", "0", "--data", dir], {
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
      const created = (await (await fetch(`${url}/sandbox/v1/merchants`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ wallet_balance: 0, limits: { requests_per_minute: 0 } }),
      })).json()) as any;
      const headers = { "x-api-key": created.data.api_key, "x-api-secret": created.data.api_secret, "content-type": "application/json" };

      const acknowledged: string[] = [];
      let stop = false;
      const worker = async () => {
        while (!stop) {
          try {
            const res = await fetch(`${url}/sandbox/v1/wallet/fund`, { method: "POST", headers, body: JSON.stringify({ amount: 1 }) });
            if (res.status === 200) acknowledged.push(((await res.json()) as any).data.transaction_id);
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

      const parsed = parseSettings(["--port", "0", "--data", dir], {});
      if ("error" in parsed) throw new Error(parsed.error);
      restarted = await startServer(parsed.settings);
      const tenant = restarted.registry.get(created.data.merchant_id)!;
      const saved = new Set(tenant.state.ledger.map((e) => e.transaction_id));
      expect(acknowledged.filter((id) => !saved.has(id))).toEqual([]);
      let running = 0;
      for (const entry of tenant.state.ledger) expect(entry.balance_after).toBe((running += entry.amount));
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
