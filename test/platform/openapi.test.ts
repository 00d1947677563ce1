import { execFile, spawnSync } from "node:child_process";
import { promisify } from "node:util";
import { mkdirSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { Validator } from "@seriousme/openapi-schema-validator";
import { generateTypes } from "merchant-sandbox-ts5-tools";
import { DEMO_KEYS, harness, signUpAt, startFromArgs, stopServers } from "../helpers.js";
import { openApiDocument } from "../openapi-check.js";

const execFileAsync = promisify(execFile);
afterEach(stopServers);

/** The spec's Endpoints section, path by path. */
const SPEC_ENDPOINTS = [
  "GET /api/v1/wallet/balance",
  "POST /api/v1/virtual-account/create",
  "GET /api/v1/virtual-account/{account_number}",
  "GET /api/v1/virtual-accounts",
  "GET /api/v1/transaction/status",
  "POST /api/v1/checkout/create",
  "GET /api/v1/checkout/status",
  "GET /api/v1/payout/banks",
  "POST /api/v1/payout/verify-account",
  "POST /api/v1/payout/transfer",
  "GET /api/v1/payout/status",
  "POST /api/v1/vtu/airtime",
  "GET /api/v1/vtu/data-plans",
  "POST /api/v1/vtu/data",
  "GET /api/v1/vtu/cable-plans",
  "POST /api/v1/vtu/cable",
  "GET /api/v1/vtu/discos",
  "POST /api/v1/vtu/electricity",
  "GET /api/v1/vtu/exam-types",
  "POST /api/v1/vtu/exam",
  "GET /api/v1/vtu/transaction/status",
  "POST /api/v1/virtual-cards/cardholders",
  "GET /api/v1/virtual-cards/cardholders/{id}",
  "POST /api/v1/virtual-cards",
  "GET /api/v1/virtual-cards",
  "GET /api/v1/virtual-cards/{id}",
  "POST /api/v1/virtual-cards/{id}/fund",
  "POST /api/v1/virtual-cards/{id}/unload",
  "POST /api/v1/virtual-cards/{id}/freeze",
  "POST /api/v1/virtual-cards/{id}/unfreeze",
  "POST /api/v1/virtual-cards/{id}/terminate",
  "GET /api/v1/virtual-cards/{id}/transactions",
];

const operations = (doc: { paths: Record<string, Record<string, unknown>> }) =>
  Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));

describe("OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document (served at /openapi.json)", async () => {
    const h = harness();
    const res = await h.app.request("/openapi.json");
    const doc = (await res.json()) as any;
    expect(doc.openapi).toBe("3.1.0");
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("documents every /api/v1 and /sandbox/v1 route the app serves, and every endpoint of the spec", () => {
    const h = harness();
    const served = new Set(
      h.app.routes
        .filter((r) => /^\/(api|sandbox)\/v1\//.test(r.path) && r.method !== "ALL")
        .map((r) => `${r.method} ${r.path.replace(/:([^/]+)/g, "{$1}").replace(/\/$/, "")}`),
    );
    const documented = new Set(operations(openApiDocument()));
    expect([...served].filter((op) => !documented.has(op))).toEqual([]);
    expect(SPEC_ENDPOINTS.filter((op) => !documented.has(op))).toEqual([]);
    expect(served.size).toBeGreaterThan(50);
  });

  it("describes each route's responses per status, errors included", () => {
    const doc = openApiDocument() as unknown as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    const transfer = doc.paths["/api/v1/payout/transfer"]!.post!.responses;
    expect(Object.keys(transfer).sort()).toEqual(["201", "400", "401", "403", "409", "413", "415", "422", "429", "500", "503", "504"]);
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        expect(Object.keys(op.responses).some((s) => s.startsWith("2")), `${method} ${path} documents a success`).toBe(true);
        expect(op.responses["500"], `${method} ${path} documents 500`).toBeDefined();
      }
    }
  });
});

describe("/docs", () => {
  it("serves the interactive reference with its own assets: no CDN, works offline", async () => {
    const h = harness();
    const page = await h.app.request("/docs");
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('src="/docs/scalar.js"');
    expect(html).toContain("/openapi.json");
    expect(html.match(/(src|href)="https?:\/\//g)).toBeNull();
    const script = await h.app.request("/docs/scalar.js");
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toContain("javascript");
    expect((await script.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
  });
});

describe("/docs try it", () => {
  const scalarConfig = async (h: ReturnType<typeof harness>) => {
    const html = await (await h.app.request("/docs")).text();
    return JSON.parse(/<script type="application\/json" id="scalar-config">(.*)<\/script>/.exec(html)![1]!) as { authentication?: any };
  };

  it("pre-fills the demo merchant's keys, selected for every operation, while the demo merchant exists", async () => {
    const h = harness({ tryItMerchant: "mch_demo" });
    expect((await scalarConfig(h)).authentication).toEqual({
      preferredSecurityScheme: [["ApiKey", "ApiSecret"]],
      securitySchemes: { ApiKey: { value: DEMO_KEYS["x-api-key"] }, ApiSecret: { value: DEMO_KEYS["x-api-secret"] } },
    });
    expect((await h.demo().call("DELETE", "/sandbox/v1/merchant")).status).toBe(200);
    expect((await scalarConfig(h)).authentication).toBeUndefined();
  });

  it("fills in nothing without a demo merchant", async () => {
    expect((await scalarConfig(harness())).authentication).toBeUndefined();
  });
});

describe("a client generated from /openapi.json", () => {
  it("type-checks with openapi-typescript's default options + openapi-fetch, and runs each flow as the spec says", async () => {
    const running = await startFromArgs([]);
    const doc = (await (await fetch(`${running.url}/openapi.json`)).json()) as object;
    mkdirSync("test/client-fixture/generated", { recursive: true });
    writeFileSync("test/client-fixture/generated/api.d.ts", await generateTypes(doc));
    const tsc = spawnSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "test/client-fixture/tsconfig.json"], { encoding: "utf8" });
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.status).toBe(0);

    const { keys } = await signUpAt(running.url);
    // Run as a merchant's program would: its own process, importing only the client and generated types.
    // (Asynchronously: this process serves the sandbox it calls.)
    const run = await execFileAsync(process.execPath, ["--import", "tsx", "test/client-fixture/run.ts", running.url, keys["x-api-key"], keys["x-api-secret"]], {
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout)).toEqual({
      individual: { status: 200, type: "individual" },
      business: { status: 200, type: "business" },
      incomplete: { code: "VALIDATION_ERROR", fields: ["cac_number"] },
      checkout: { status: 200, amount: 12500, link: "string" },
      payout: { status: 201, fee: 25, settled: "completed" },
      duplicate: { code: "DUPLICATE_REFERENCE", fields: [] },
      badAccount: { verify: { code: "INVALID_ACCOUNT", fields: [] }, transfer: { code: "INVALID_ACCOUNT", fields: [] } },
      airtime: { status: 200, purchase: "success" },
      card: { beforeKyc: { code: "KYC_NOT_APPROVED", fields: [] }, status: 200, brand: "VISA", missing: { code: "NOT_FOUND", fields: [] } },
    });
  });
});
