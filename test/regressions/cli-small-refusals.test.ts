/**
 * `start -h` was refused as an unknown flag; a `.json` config with a trailing
 * comma was accepted silently (read as YAML); a port in use failed with a bare EADDRINUSE.
 */
import { spawnSync } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { parseSettings } from "../../src/config.js";
import { configFiles, startFromArgs, stopServers } from "../helpers.js";

afterEach(stopServers);

describe("CLI refusals that help", () => {
  it.each(["start", "run", "listen"])("`%s -h` prints that command's help", (command) => {
    const out = spawnSync(process.execPath, ["dist/cli.mjs", command, "-h"], { encoding: "utf8", timeout: 20_000 });
    expect(out.status, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/^Usage: merchant-sandbox/m);
  });

  it("a .json config file is strict JSON; YAML files stay YAML", () => {
    const read = configFiles({ "a.json": '{ "port": 5000, }', "b.yaml": "port: 5001 # a comment\n", "c.json": '{ "port": 5002 }' });
    expect(parseSettings(["--config", "a.json"], {}, read)).toMatchObject({ error: expect.stringContaining("config file a.json cannot be read") });
    expect(parseSettings(["--config", "b.yaml"], {}, read)).toMatchObject({ settings: { port: 5001 } });
    expect(parseSettings(["--config", "c.json"], {}, read)).toMatchObject({ settings: { port: 5002 } });
  });

  it("a port in use names the way out", async () => {
    const first = await startFromArgs([]);
    const port = new URL(first.url).port;
    await expect(startFromArgs(["--port", port])).rejects.toThrow(`port ${port} is already in use on 127.0.0.1: stop the program using it, or choose another port with --port N`);
  });
});
