/**
 * `--data postgres://user@host/db` (or any URL) was taken as a relative folder path: the sandbox
 * quietly made a folder named `postgres:` in the working directory and ran on it. A URL whose scheme
 * no store knows is now refused before anything starts: one clear line, exit 2, nothing created. A
 * PostgreSQL URL names the PostgreSQL store, never a folder: a server that cannot be reached fails the
 * start (exit 1, naming host and port, never the password) and still creates nothing.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseSettings } from "../../src/config.js";
import { repoFile } from "../helpers.js";

const cwd = mkdtempSync(join(tmpdir(), "msb-data-url-"));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

describe("--data given a URL", () => {
  it.each(["mysql://user@host/db", "s3://bucket/prefix", "HTTP://example.com/x"])("%s is refused as a setting, naming the scheme", (url) => {
    const parsed = parseSettings(["--data", url], {});
    expect(parsed).toHaveProperty("error");
    const error = (parsed as { error: string }).error;
    expect(error).toContain(`${url.split(":")[0]}:// is not a store this sandbox knows`);
    expect(error).toContain("--data takes a folder path (--data ./sandbox-data) or a PostgreSQL URL");
  });

  it.each(["postgres://user@host/db", "postgresql://localhost:5432/sandbox"])("%s is the PostgreSQL store", (url) => {
    expect(parseSettings(["--data", url], {})).toHaveProperty("settings.data", url);
  });

  it("a folder path is still a folder path, with or without a colon later on", () => {
    for (const path of ["./sandbox-data", "/tmp/x", "data:2026", "C:\\sandbox"]) expect(parseSettings(["--data", path], {})).toHaveProperty("settings.data", path);
  });

  it("the CLI exits 2 with one line and creates nothing in the working directory", () => {
    for (const args of [["--data", "mysql://user@host/db"], []]) {
      const env = { ...process.env, MERCHANT_SANDBOX_DATA: args.length ? "" : "mysql://user@host/db" };
      const run = spawnSync(process.execPath, [repoFile("dist/cli.mjs"), "start", "--port", "0", ...args], { cwd, env, encoding: "utf8", timeout: 30_000 });
      expect(run.status, run.stderr).toBe(2);
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
      expect(run.stderr).toMatch(/invalid setting data .*mysql:\/\/ is not a store this sandbox knows/);
      expect(run.stdout).not.toContain("listening");
      expect(readdirSync(cwd)).toEqual([]);
    }
  });

  it("a PostgreSQL that cannot be reached fails the start: exit 1, one line naming host and port, no password, nothing created", () => {
    for (const args of [["--data", "postgres://msb:s3cret-pw@127.0.0.1:1/sandbox"], []]) {
      const env = { ...process.env, MERCHANT_SANDBOX_DATA: args.length ? "" : "postgresql://msb:s3cret-pw@127.0.0.1:1/sandbox" };
      const run = spawnSync(process.execPath, [repoFile("dist/cli.mjs"), "start", "--port", "0", ...args], { cwd, env, encoding: "utf8", timeout: 30_000 });
      expect(run.status, run.stderr).toBe(1);
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
      expect(run.stderr).toContain("cannot reach PostgreSQL at 127.0.0.1:1");
      expect(run.stderr + run.stdout).not.toContain("s3cret-pw");
      expect(run.stdout).not.toContain("listening");
      expect(readdirSync(cwd)).toEqual([]);
    }
  });
});
