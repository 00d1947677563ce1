/**
 * Two anonymous requests made the sandbox spin for as long as the merchant existed: a sign-up whose
 * realtime clock runs at the top speed from just before its last instant, with a one-second KYC
 * delay, then one cardholder. The clock stopped at its ceiling with the approval timer just past it,
 * where it can never fall due, and the clock driver re-armed a wake-up about every millisecond; each
 * ran a catch-up and, with --data, saved the merchant: a third of a core and thousands of writes a
 * second for one merchant. A timer past the ceiling is now kept without a wake-up: the KYC stays
 * PENDING, and the idle merchant costs no CPU and no writes.
 *
 * The built CLI runs with --data; its CPU and write calls are read from /proc over idle seconds.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_CLOCK } from "../../src/domain/bounds.js";
import { closedAfterEach, REPO_ROOT, repoFile, signUpAt, tempDirs } from "../helpers.js";
import { startServerProcess, type StartedServer } from "../support/processes.js";

const dataDir = tempDirs("msb-clock-spin-");
const stoppedAfter = closedAfterEach((server: StartedServer) => server.stop(5_000));

/** How long the merchant is left alone, in real milliseconds (the wake-ups are real timers). */
const IDLE_MS = 1_500;
/** Linux's clock ticks per second, the unit of /proc/<pid>/stat's CPU times (USER_HZ, 100 on every Linux ABI). */
const TICKS_PER_SECOND = 100;

/** CPU time the process has used so far (user + system), in ms. */
async function cpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8");
  // The fields after the command's name (which may hold spaces) start with the state, field 3: utime and stime are 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** Write system calls the process has made so far (files, sockets and pipes alike). */
async function writeCalls(pid: number): Promise<number> {
  const io = await readFile(`/proc/${pid}/io`, "utf8");
  return Number(/^syscw:\s*(\d+)/m.exec(io)![1]);
}

/** Each file of the data folder with its size and modification time: any save changes it. */
async function filesOf(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of await readdir(dir)) {
    const s = await stat(join(dir, name)).catch(() => null); // a save's temporary file, renamed since
    out[name] = s ? `${s.size} bytes, modified ${s.mtimeMs}` : "renamed while listed";
  }
  return out;
}

// /proc is Linux's: CI and the Docker image run there.
describe.skipIf(process.platform !== "linux")("a realtime clock whose next timer falls after the clock's ceiling", () => {
  it("costs no CPU and no writes while idle: the timer is kept and the KYC stays PENDING", async () => {
    const dir = await dataDir();
    const server = stoppedAfter(await startServerProcess(process.execPath, [repoFile("dist/cli.mjs"), "start", "--port", "0", "--data", dir], { cwd: REPO_ROOT }));

    const m = await signUpAt(server.url, {
      clock: { mode: "realtime", speed: 100_000, now: "9998-12-31T23:59:58.999Z" },
      delays: { kyc_approval_seconds: 1 },
    });
    const created = await m.call("POST", "/api/v1/virtual-cards/cardholders", { body: { first_name: "Ada", last_name: "Obi", email: "ada@example.com" } });
    expect(created.status, created.text).toBe(200);
    expect(created.body.kyc_status).toBe("PENDING");

    // At top speed the clock reaches its ceiling within a wall-clock millisecond, and stays there.
    const clock = await m.call("GET", "/sandbox/v1/clock");
    expect(clock.body.data).toMatchObject({ now: new Date(MAX_CLOCK).toISOString(), mode: "realtime", pending_timers: 1 });
    const snapshot = await m.call("GET", "/sandbox/v1/snapshot");
    const timers: { kind: string; at: number }[] = snapshot.body.data.state.timers;
    expect(timers.map((t) => t.kind)).toEqual(["kyc.approve"]);
    expect(timers[0]!.at).toBeGreaterThan(MAX_CLOCK);

    // Idle: no request for IDLE_MS of real time (the wake-ups, if any, are real timers).
    const files = await filesOf(dir);
    const [cpuBefore, writesBefore] = [await cpuMs(server.pid), await writeCalls(server.pid)];
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const [cpuAfter, writesAfter] = [await cpuMs(server.pid), await writeCalls(server.pid)];

    // The spinning driver used over a third of a core and thousands of write calls a second; an idle
    // process uses a few ticks at most (a garbage collection), and writes nothing.
    expect.soft(cpuAfter - cpuBefore, "CPU ms used while idle").toBeLessThan(IDLE_MS * 0.1);
    expect.soft(writesAfter - writesBefore, "write calls while idle").toBeLessThan(20);
    expect(await filesOf(dir), "the data folder while idle").toEqual(files);

    // The merchant is told the truth: the cardholder is still pending, and the timer is still there.
    const read = await m.call("GET", "/api/v1/virtual-cards/cardholders/1");
    expect(read.body).toMatchObject({ cardholder_id: 1, kyc_status: "PENDING" });
    expect((await m.call("GET", "/sandbox/v1/clock")).body.data).toMatchObject({ now: new Date(MAX_CLOCK).toISOString(), pending_timers: 1 });
    // The lever still approves it.
    const approved = await m.call("POST", "/sandbox/v1/cardholders/1/approve");
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body).toMatchObject({ kyc_status: "APPROVED" });
  });
});
