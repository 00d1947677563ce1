// A throwaway PostgreSQL for tests, from Debian's packages (/usr/lib/postgresql/<version>/bin): its own
// folder under the temp dir, a port of its own on 127.0.0.1, a role with a password that owns a database.
// Plain JavaScript so that plain `node` scripts can use it as well as the tests (test/support/postgres.ts).
import { execFile, execFileSync } from "node:child_process";
import { randomBytes, randomInt } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const DEBIAN_ROOT = "/usr/lib/postgresql";
/** Below the kernel's ephemeral range (32768-60999 here), so no outgoing connection can hold the port. */
export const PORT_RANGE = { from: 15000, to: 29999 };
const ROLE = "msb_test";
const PORT_TRIES = 20;

/** The bin folder of Debian's newest installed PostgreSQL server (the one holding initdb), or undefined. */
export function postgresBinDir() {
  const versions = existsSync(DEBIAN_ROOT) ? readdirSync(DEBIAN_ROOT).filter((v) => existsSync(join(DEBIAN_ROOT, v, "bin", "initdb"))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  return newest === undefined ? undefined : join(DEBIAN_ROOT, newest, "bin");
}

/**
 * Starts a cluster and resolves once it accepts connections. As root, every server binary runs as the
 * `postgres` user (initdb and postgres refuse root) in a folder chowned to it; otherwise as the current user.
 * `durable: true` keeps PostgreSQL's fsync (the benchmark measures real commits); tests run without it.
 */
export async function startTestCluster({ durable = false } = {}) {
  const bin = postgresBinDir();
  if (!bin) throw new Error(`PostgreSQL is missing: no ${DEBIAN_ROOT}/<version>/bin/initdb. Install Debian's server: apt-get install postgresql`);
  const dir = mkdtempSync(join(tmpdir(), "msb-pg-"));
  const asRoot = process.getuid?.() === 0;
  const run = (tool, args) => command(tool, asRoot ? "runuser" : join(bin, tool), asRoot ? ["-u", "postgres", "--", join(bin, tool), ...args] : args, dir);
  const data = join(dir, "data");
  const log = join(dir, "log");
  const stop = async () => {
    if (existsSync(join(data, "postmaster.pid"))) await run("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    if (asRoot) execFileSync("chown", ["postgres:postgres", dir]);
    // The socket trusts the local superuser, which creates the role; TCP asks every role for its password.
    await run("initdb", ["-D", data, "-U", "postgres", "--auth-local=trust", "--auth-host=scram-sha-256", "--no-sync", "-E", "UTF8", "--locale=C"]);
    const port = await listen(run, data, dir, log, durable);
    const password = randomBytes(12).toString("hex");
    const psql = ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", dir, "-p", String(port), "-U", "postgres", "-d", "postgres"];
    await run("psql", [...psql, "-c", `CREATE ROLE ${ROLE} LOGIN CREATEDB PASSWORD '${password}'`, "-c", `CREATE DATABASE ${ROLE} OWNER ${ROLE}`]);
    // "postgres (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)": after the name, what `server_version` says.
    const version = (await run("postgres", ["--version"])).replace(/^postgres \(PostgreSQL\) /, "").trim();
    // An outage, for the tests of what a node does while the database is gone: the server stopped
    // (fast: every session cut) and started again on the same port, data kept.
    const pause = () => run("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]).then(() => undefined);
    const resume = () => run("pg_ctl", ["-D", data, "-l", log, "-w", "-t", "60", "-o", serverOptions(port, dir, durable), "start"]).then(() => undefined);
    return { url: `postgres://${ROLE}:${password}@127.0.0.1:${port}/${ROLE}`, version, dir, stop, pause, resume };
  } catch (error) {
    const tail = existsSync(log) ? `\n--- server log ---\n${readFileSync(log, "utf8").slice(-2000)}` : "";
    await stop();
    throw new Error(`could not start a test PostgreSQL: ${error.message}${tail}`);
  }
}

/**
 * Starts the server on a random free port of PORT_RANGE, its socket in `dir`. A port taken between the
 * check and the start shows as "could not bind" in the log: another port is tried.
 * Without `durable`, fsync=off for speed: the tests never kill PostgreSQL itself, and synchronous_commit
 * stays on. 200 connections: a few nodes' pools, the benchmark's pgbench clients and psql beside them.
 */
const serverOptions = (port, dir, durable) => `-p ${port} -k '${dir}' -c listen_addresses=127.0.0.1 -c max_connections=200${durable ? "" : " -c fsync=off"}`;

async function listen(run, data, dir, log, durable) {
  for (let tries = 0; tries < PORT_TRIES; tries++) {
    const port = randomInt(PORT_RANGE.from, PORT_RANGE.to + 1);
    if (!(await portIsFree(port))) continue;
    try {
      await run("pg_ctl", ["-D", data, "-l", log, "-w", "-t", "60", "-o", serverOptions(port, dir, durable), "start"]);
      return port;
    } catch (error) {
      if (!/could not bind/.test(existsSync(log) ? readFileSync(log, "utf8") : "")) throw error;
      rmSync(log);
    }
  }
  throw new Error(`no free port in ${PORT_RANGE.from}-${PORT_RANGE.to} after ${PORT_TRIES} tries`);
}

function portIsFree(port) {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

/** Runs `file args` in `cwd` (a folder the postgres user can enter); resolves with its stdout, rejects naming `tool` with its stderr. */
function command(tool, file, args, cwd) {
  return new Promise((resolve, reject) => {
    execFile(file, args, { cwd, encoding: "utf8" }, (error, stdout, stderr) =>
      error ? reject(new Error(`${tool} failed: ${stderr.trim() || error.message}`)) : resolve(stdout),
    );
  });
}
