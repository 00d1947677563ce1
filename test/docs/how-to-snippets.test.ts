/**
 * The how-to pages' code that is not shell, run as a reader would paste it: the Node webhook
 * snippets of receive-webhooks.md graded by the webhook doctor, the node:test example of
 * javascript-test-helper.md run with `node --test` against the built helper, and the numbers the
 * shared-instance page's proxy configuration depends on. (The shell blocks run in
 * shell-blocks.test.ts; the TypeScript snippets are type-checked in test/platform/readme.test.ts.)
 */
import { serve } from "@hono/node-server";
import { spawnSync } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { doctor } from "../../src/cli/doctor.js";
import { MAX_RESPONSE_DELAY_SECONDS } from "../../src/domain/bounds.js";
import { closedAfterEach, closeServer, repoFile } from "../helpers.js";

const page = (name: string) => readFileSync(repoFile(`docs/how-to/${name}`), "utf8");

/** The one fenced block of `lang` on `text` that contains `marker`. */
function block(text: string, lang: string, marker: string): string {
  const found = [...text.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]!).filter((code) => code.includes(marker));
  expect(found, `one ${lang} block with ${marker}`).toHaveLength(1);
  return found[0]!;
}

// Inside the repository, so that `hono` and `merchant-sandbox/testing` resolve as in a reader's project.
const DIR = repoFile(".tmp/how-to-snippets");
rmSync(DIR, { recursive: true, force: true });
mkdirSync(DIR, { recursive: true });
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

/** Writes a module of the snippets and imports it. */
async function load(file: string, code: string): Promise<any> {
  writeFileSync(join(DIR, file), code);
  return import(pathToFileURL(join(DIR, file)).href);
}

describe("receive-webhooks.md, the Node snippets", () => {
  const text = page("receive-webhooks.md");
  const SECRET = "whsec_how_to_snippets_5d1e";
  const closedAfter = closedAfterEach(closeServer);
  afterEach(() => vi.unstubAllEnvs());
  writeFileSync(join(DIR, "verify-webhook.js"), block(text, "js", "export function verify("));

  const listening = async (server: Server) => {
    closedAfter(server);
    if (!server.listening) await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  };

  /** The doctor's battery against a snippet: it verifies every signature, and freshness is left to the reader. */
  async function expectVerifies(url: string) {
    vi.stubEnv("WEBHOOK_SECRET", SECRET); // the snippets read the secret as a reader's app would
    const card = await doctor({ endpoint: url, secret: SECRET, recordsUrl: null, signature: { algorithm: "sha256", encoding: "hex" }, timeoutSeconds: 5, json: false });
    const failed = card.cases.filter((c) => c.result === "fail").map((c) => `${c.id}: ${c.problem}`);
    expect(failed.map((f) => f.split(":")[0])).toEqual(["stale_sent_at"]);
    expect(text).toContain("Refuse a delivery whose `sent_at` is more than about 5 minutes");
  }

  it("Hono reads the raw text, verifies it, and refuses a bad, missing or tampered signature", async () => {
    const imports = 'import { Hono } from "hono";\nimport { verify } from "./verify-webhook.js";\nconst app = new Hono();\n';
    const { default: app } = await load("hono.js", `${imports}${block(text, "js", "c.req.text()")}\nexport default app;\n`);
    const server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }) as Server;
    await new Promise((done) => server.once("listening", done));
    await expectVerifies(await listening(server));
  });

  it("the Next.js App Router handler does the same with the Web Request", async () => {
    const { POST } = await load("next-app.js", `import { verify } from "./verify-webhook.js";\n${block(text, "js", "export async function POST(req)")}`);
    const server = serve({ fetch: (req: Request) => POST(req), hostname: "127.0.0.1", port: 0 }) as Server;
    await new Promise((done) => server.once("listening", done));
    await expectVerifies(await listening(server));
  });

  it("the Next.js Pages Router handler, with the body parser off, reads the stream", async () => {
    const snippet = await load("next-pages.js", `import { verify } from "./verify-webhook.js";\n${block(text, "js", "bodyParser: false")}`);
    expect(snippet.config).toEqual({ api: { bodyParser: false } });
    // Next.js gives the handler Node's request and response, with res.status() added.
    const server = createServer((req, res) => snippet.default(req, Object.assign(res, { status: (code: number) => Object.assign(res, { statusCode: code }) })));
    await expectVerifies(await listening(server));
  });
});

describe("javascript-test-helper.md", () => {
  // TAP on every Node line: Node 24's default reporter prints "ℹ pass 1" instead.
  it("the node:test example passes with `node --test`, against the built helper", async () => {
    const code = block(page("javascript-test-helper.md"), "js", 'from "node:test"');
    writeFileSync(join(DIR, "payment.test.mjs"), code);
    const run = spawnSync(process.execPath, ["--test", "--test-reporter=tap", join(DIR, "payment.test.mjs")], { encoding: "utf8", timeout: 60_000 });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^# pass 1$/m);
  });
});

describe("shared-team-instance.md", () => {
  it("the proxy waits longer than the longest answer the sandbox holds back on purpose", () => {
    const timeout = /proxy_read_timeout (\d+)s;/.exec(block(page("shared-team-instance.md"), "nginx", "proxy_pass"));
    expect(Number(timeout?.[1])).toBeGreaterThan(MAX_RESPONSE_DELAY_SECONDS);
  });
});
