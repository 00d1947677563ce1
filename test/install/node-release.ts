/**
 * Another Node release line than this machine's, fetched from the npm registry as a user would try one
 * (`npx -y node@24`: the `node` package and its platform binary; npx caches them). Without the registry
 * a test that needs one is skipped with a loud message on a developer's machine and fails in CI
 * (CI=true), as the browser tests do without Chromium.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The path of Node `major`'s binary; rejects with npx's own words when it cannot be had. */
async function fetchNode(major: number): Promise<string> {
  const { stdout } = await run("npx", ["-y", `node@${major}`, "-e", "process.stdout.write(process.execPath)"], {
    timeout: 240_000,
    env: { ...process.env, npm_config_update_notifier: "false" },
  });
  return stdout.trim();
}

const fetched = new Map<number, Promise<string>>();

/**
 * Node `major`'s binary for a test, or undefined when the test was skipped (`ctx.skip()`) because it
 * could not be fetched here. In CI that throws instead: a missing line never passes as tested.
 */
export async function nodeReleaseOrSkip(major: number, ctx: { skip: () => void }): Promise<string | undefined> {
  if (!fetched.has(major)) fetched.set(major, fetchNode(major));
  try {
    return await fetched.get(major)!;
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    const said = `${e.stderr ?? ""}\n${e.message}`.split("\n").find((l) => l.startsWith("npm error")) ?? e.message.split("\n")[0];
    const why = `Node ${major} could not be fetched with \`npx -y node@${major}\` (is the npm registry reachable?): ${said}`;
    if (process.env.CI) throw new Error(why);
    console.warn(`\n*** Node ${major} test SKIPPED: ${why}. In CI it fails instead. ***\n`);
    ctx.skip();
    return undefined;
  }
}
