/**
 * With `--data --scenario`, a restart dropped the scenario merchants' keys from
 * the banner, and edits to the scenario file were silently ignored.
 */
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startBanner } from "../../src/cli/banner.js";
import { startFromArgs, stopServers, tempDirs } from "../helpers.js";

const tempDir = tempDirs("msb-restart-");
afterEach(stopServers); // registered after tempDirs, so it runs first: no server writes into a removed folder

describe("--data --scenario across restarts", () => {
  it("shows the scenario merchants' keys again, and says when the file changed", async () => {
    const dir = await tempDir();
    const data = join(dir, "data");
    const file = join(dir, "shop.yaml");
    copyFileSync("scenarios/05-payout-completed.yaml", file);
    const args = ["--data", data, "--scenario", file];

    const first = await startFromArgs(args);
    const [made] = first.scenarioMerchants;
    expect(made).toMatchObject({ alias: "shop", restored: false, changed: false });
    const key = made!.tenant.config.api_key;
    await stopServers();

    const second = await startFromArgs(args);
    expect(second.scenarioMerchants.map((s) => [s.alias, s.restored, s.changed, s.tenant.config.api_key])).toEqual([["shop", true, false, key]]);
    const banner = startBanner(second, data);
    expect(banner).toContain(`merchant "shop" (restored from --data)`);
    expect(banner).toContain(`X-Api-Key:      ${key}`);
    expect(banner).not.toContain("NOTE");
    await stopServers();

    writeFileSync(file, readFileSync(file, "utf8").replace("wallet_balance: 200000", "wallet_balance: 5"));
    const third = await startFromArgs(args);
    expect(third.scenarioMerchants[0]).toMatchObject({ restored: true, changed: true });
    const note = startBanner(third, data);
    expect(note).toContain(`NOTE: ${file} has changed since its merchants were created`);
    expect(note).toContain(`${made!.tenant.id}.json in ${data}`);
  });

  it("a scenario file added on a later start is loaded then", async () => {
    const data = join(await tempDir(), "data");
    await startFromArgs(["--data", data, "--scenario", "scenarios/05-payout-completed.yaml"]);
    await stopServers();
    const next = await startFromArgs(["--data", data, "--scenario", "scenarios/05-payout-completed.yaml", "--scenario", "scenarios/11-vtu-exam.yaml"]);
    expect(next.scenarioMerchants.map((s) => [s.file, s.restored])).toEqual([
      ["scenarios/05-payout-completed.yaml", true],
      ["scenarios/11-vtu-exam.yaml", false],
    ]);
  });
});
