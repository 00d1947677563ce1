/**
 * Docker with a host folder on /data exited with `EACCES .../.mch_demo.json.tmp`
 * and no hint, and a --data path through a file gave a bare `EEXIST ... mkdir`. The folder is now
 * checked at start, and the error says what to do.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { dataFolderProblem } from "../../src/store/file-store.js";
import { startFromArgs, stopServers, tempDirs } from "../helpers.js";

const tempDir = tempDirs("msb-data-");
afterEach(stopServers); // registered after tempDirs, so it runs first
const errno = (code: string, path?: string) => Object.assign(new Error(`${code}: failed`), { code, path }) as NodeJS.ErrnoException;

describe("an unusable --data folder", () => {
  it("not writable (a host folder in Docker): names the folder and the --user way out", () => {
    const message = dataFolderProblem("/data", errno("EACCES", "/data/.write-check.tmp"));
    expect(message).toContain("cannot write to the data folder /data");
    expect(message).toContain('--user "$(id -u):$(id -g)"');
    expect(message).toContain("named volume");
  });

  it("a file in the way: the start fails before listening, naming the folder", async () => {
    const dir = await tempDir();
    writeFileSync(join(dir, "file"), "");
    await expect(startFromArgs(["--data", join(dir, "file", "state")])).rejects.toThrow(/a file is in the way.*Give --data the path of a folder/);
  });

  it("a full disk names the way out too", () => {
    expect(dataFolderProblem("/data", errno("ENOSPC"))).toContain("free some space");
  });
});
