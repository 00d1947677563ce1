/**
 * The GitHub Actions workflows (.github/workflows/), which no machine here runs: every command of their
 * `run:` steps exists (npm scripts in package.json, files run by bash or node in this repository, other
 * programs installed by the job or on ubuntu-latest), each job's Node line is one `engines` supports,
 * every action is pinned, and the release jobs hold the permissions publishing needs.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import semver from "semver";
import { parse as parseShell } from "shell-quote";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { repoFile } from "../helpers.js";

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Job {
  uses?: string;
  needs?: string | string[];
  "runs-on"?: string;
  permissions?: Record<string, string>;
  strategy?: { matrix?: Record<string, unknown[]> };
  steps?: Step[];
}
interface Workflow {
  on: Record<string, unknown>;
  permissions?: Record<string, string>;
  jobs: Record<string, Job>;
}

const pkg = JSON.parse(readFileSync(repoFile("package.json"), "utf8")) as { scripts: Record<string, string>; engines: { node: string } };
const DIR = repoFile(".github/workflows");
const workflows = Object.fromEntries(
  readdirSync(DIR)
    .filter((f) => f.endsWith(".yml"))
    .map((f) => [f, parseYaml(readFileSync(join(DIR, f), "utf8")) as Workflow]),
);

/**
 * Programs every ubuntu-latest runner has (GitHub's runner image: its base system, git, curl, jq,
 * Docker, Python, PHP, Chromium) and the shell's own builtins.
 */
const ON_UBUNTU_LATEST = new Set([
  "bash", "sh", "git", "curl", "jq", "docker", "python3", "php", "chromium", "sudo", "apt-get",
  "cat", "cp", "mv", "rm", "mkdir", "ls", "tee", "grep", "sed",
  "echo", "printf", "test", "[", "cd", "export", "set", "exit", "true", "false",
]);
/** npm commands a workflow may run, besides `npm run SCRIPT` (checked against package.json). */
const NPM_COMMANDS = new Set(["ci", "test", "run", "publish", "pkg", "pack"]);

/** The commands of a `run:` script, each as words (variables left as `$NAME`), assignments in front dropped. */
function commandsOf(script: string): string[][] {
  const commands: string[][] = [[]];
  for (const line of script.replace(/\\\n/g, " ").split("\n")) {
    for (const token of parseShell(line, (name) => `$${name}`)) {
      if (typeof token === "string") commands.at(-1)!.push(token);
      else if ("comment" in token) break;
      else if ("op" in token && ["&&", "||", ";", "|", "&"].includes(token.op)) commands.push([]);
    }
    commands.push([]);
  }
  return commands.flatMap((words) => {
    const program = words.findIndex((w) => !/^\w+=/.test(w));
    return program < 0 ? [] : [words.slice(program)];
  });
}

/** Why `words` cannot run in `job`, or undefined when it can. */
function missing(words: string[], installed: Set<string>): string | undefined {
  const [program, first, second] = words;
  if (!installed.has(program!) && !ON_UBUNTU_LATEST.has(program!)) return `${program} is neither installed by the job nor on ubuntu-latest`;
  if (program === "npm") {
    if (!NPM_COMMANDS.has(first!)) return `npm ${first} is not a command this check knows`;
    if (first === "run" && !(second! in pkg.scripts)) return `package.json has no script ${second}`;
    if (first === "test" && !pkg.scripts.test) return "package.json has no test script";
    if (first === "ci" && !existsSync(repoFile("package-lock.json"))) return "npm ci needs package-lock.json";
  }
  if ((program === "bash" || program === "sh" || program === "node") && first && !first.startsWith("-") && !existsSync(repoFile(first))) {
    return `${first} does not exist`;
  }
  return undefined;
}

const jobs = Object.entries(workflows).flatMap(([file, w]) => Object.entries(w.jobs).map(([name, job]) => ({ where: `${file} ${name}`, job })));
const setupNode = (job: Job) => job.steps?.find((s) => s.uses?.startsWith("actions/setup-node@"));

describe("the GitHub Actions workflows", () => {
  it("are the CI and release workflows", () => {
    expect(Object.keys(workflows).sort()).toEqual(["ci.yml", "release.yml"]);
  });

  it("run only commands that exist", () => {
    const problems: string[] = [];
    let checked = 0;
    for (const { where, job } of jobs) {
      const installed = new Set(setupNode(job) ? ["node", "npm", "npx"] : []);
      for (const step of job.steps ?? []) {
        for (const words of commandsOf(step.run ?? "")) {
          checked++;
          const why = missing(words, installed);
          if (why) problems.push(`${where}: \`${words.join(" ")}\`: ${why}`);
          // What an earlier step installs, later steps may run.
          if (words[0] === "sudo" ? words[1] === "apt-get" && words[2] === "install" : words[0] === "apt-get" && words[1] === "install") {
            words.filter((w) => !w.startsWith("-") && !["sudo", "apt-get", "install"].includes(w)).forEach((p) => installed.add(p));
          }
        }
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(5);
  });

  it("set up Node for every job that runs it, on a line engines supports", () => {
    for (const { where, job } of jobs) {
      const runs = (job.steps ?? []).flatMap((s) => commandsOf(s.run ?? "")).some((w) => ["node", "npm", "npx"].includes(w[0]!));
      const setup = setupNode(job);
      if (!runs) continue;
      expect(setup, `${where} runs Node without actions/setup-node`).toBeDefined();
      const asked = String(setup!.with?.["node-version"]);
      const lines = /^\$\{\{\s*matrix\.(\w+)\s*\}\}$/.exec(asked) ? job.strategy!.matrix![/matrix\.(\w+)/.exec(asked)![1]!]!.map(String) : [asked];
      for (const line of lines) {
        expect(line, `${where}: node-version ${line} names a major line`).toMatch(/^\d+$/);
        // setup-node takes a line's newest release.
        expect(semver.satisfies(`${line}.999.0`, pkg.engines.node), `${where}: Node ${line} is outside engines "${pkg.engines.node}"`).toBe(true);
      }
    }
  });

  it("cover the whole suite on Node 24 and the install-to-webhook flow on 20 and 22", () => {
    const ci = workflows["ci.yml"]!;
    expect(Object.keys(ci.on).sort()).toEqual(["pull_request", "push", "workflow_call"]);
    const runs = (job: Job) => (job.steps ?? []).map((s) => s.run?.trim());
    expect(setupNode(ci.jobs.test!)?.with?.["node-version"]).toBe(24);
    expect(runs(ci.jobs.test!)).toContain("bash .ci/run");
    expect(ci.jobs.smoke!.strategy!.matrix!.node).toEqual([20, 22]);
    expect(runs(ci.jobs.smoke!)).toEqual(expect.arrayContaining(["npm ci --no-audit --no-fund", "npm run build", "node tools/smoke.mjs"]));
  });

  it("use actions pinned to a major version or a commit, and reusable workflows of this repository", () => {
    const uses = jobs.flatMap(({ where, job }) => [...(job.uses ? [{ where, uses: job.uses }] : []), ...(job.steps ?? []).flatMap((s) => (s.uses ? [{ where, uses: s.uses }] : []))]);
    expect(uses.length).toBeGreaterThan(5);
    for (const { where, uses: u } of uses) {
      if (u.startsWith("./")) expect(existsSync(repoFile(u)), `${where}: ${u}`).toBe(true);
      else expect(u, where).toMatch(/^[\w.-]+\/[\w./-]+@(v\d+|[0-9a-f]{40})$/);
    }
  });

  it("release on a version tag, after the CI workflow, with the permissions publishing needs", () => {
    const release = workflows["release.yml"]!;
    expect(release.on).toEqual({ push: { tags: ["v*"] } });
    expect(release.permissions).toEqual({ contents: "read" });
    expect(release.jobs.test!.uses).toBe("./.github/workflows/ci.yml");
    expect(workflows["ci.yml"]!.on).toHaveProperty("workflow_call");

    const npm = release.jobs.npm!;
    expect(npm.needs).toBe("test");
    expect(npm.permissions?.["id-token"]).toBe("write");
    const publish = npm.steps!.find((s) => s.run?.startsWith("npm publish"))!;
    expect(publish.run).toBe("npm publish --provenance --access public");
    expect(publish.env?.NODE_AUTH_TOKEN).toBe("${{ secrets.NPM_TOKEN }}");
    expect(setupNode(npm)?.with?.["registry-url"]).toBe("https://registry.npmjs.org");

    const image = release.jobs.image!;
    expect(image.needs).toBe("test");
    expect(image.permissions?.packages).toBe("write");
    const steps = image.steps!.map((s) => s.uses?.replace(/@.*/, ""));
    expect(steps).toEqual(expect.arrayContaining(["docker/setup-qemu-action", "docker/setup-buildx-action", "docker/login-action", "docker/build-push-action"]));
    const build = image.steps!.find((s) => s.uses?.startsWith("docker/build-push-action@"))!.with!;
    expect(build.platforms).toBe("linux/amd64,linux/arm64");
    expect(build.push).toBe(true);
    expect(String(build.tags).trim().split("\n")).toEqual([
      "${{ steps.image.outputs.name }}:${{ steps.image.outputs.version }}",
      "${{ steps.image.outputs.name }}:latest",
    ]);
    expect(image.steps!.find((s) => s.uses?.startsWith("docker/login-action@"))!.with?.registry).toBe("ghcr.io");
  });
});
