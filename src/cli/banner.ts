/**
 * What `merchant-sandbox start` prints once it listens: where everything is, and the keys of every
 * merchant a developer is meant to use (the demo merchants and the `--scenario` merchants, whether
 * made now or restored from `--data`), with a note when a scenario file changed since.
 */
import type { RunningSandbox } from "../server.js";
import type { Tenant } from "../engine/tenant.js";

export function startBanner(sandbox: RunningSandbox, data: string | undefined): string {
  const lines = [
    `merchant-sandbox listening on ${sandbox.url}`,
    `  Start here:     ${sandbox.url}/  (links, guides and keys)`,
    `  API base URL:   ${sandbox.url}/api/v1`,
    `  API reference:  ${sandbox.url}/docs  (OpenAPI: ${sandbox.url}/openapi.json)`,
    `  Dashboard:      ${sandbox.url}/dashboard`,
    `  Data:           ${dataLine(sandbox, data)}`,
  ];
  const describe = (title: string, t: Tenant) => {
    const clock = t.clock.settings();
    lines.push(
      `  ${title} ${t.id} (${t.config.business_name}), clock ${clock.mode}${clock.mode === "realtime" && clock.speed !== 1 ? ` x${clock.speed}` : ""}:`,
      `    X-Api-Key:      ${t.config.api_key}`,
      `    X-Api-Secret:   ${t.config.api_secret}`,
      `    Webhook secret: ${t.config.webhook_secret}`,
    );
  };
  for (const m of sandbox.demo) {
    const tenant = sandbox.registry.get(m.merchant_id);
    if (tenant) describe("Demo merchant", tenant);
  }
  for (const s of sandbox.scenarioMerchants) {
    describe(`Scenario ${s.file} merchant "${s.alias}"${s.restored ? " (restored from --data)" : ""}:`, s.tenant);
  }
  const changed = [...new Set(sandbox.scenarioMerchants.filter((s) => s.changed).map((s) => s.file))];
  for (const file of changed) {
    const made = sandbox.scenarioMerchants.filter((s) => s.file === file).map((s) => s.tenant.id);
    lines.push(
      `  NOTE: ${file} has changed since its merchants were created; the saved merchants are kept as they were.`,
      sandbox.node
        ? `        To load the new version, delete those merchants (DELETE /sandbox/v1/merchant with their keys: ${made.join(", ")}) and start a node again.`
        : `        To load the new version, delete their files (${made.map((id) => `${id}.json`).join(", ")} in ${data}) or start with an empty --data folder.`,
    );
  }
  lines.push(`  New merchant:   curl -X POST ${sandbox.url}/sandbox/v1/merchants -H 'Content-Type: application/json' -d '{}'`);
  return lines.join("\n") + "\n";
}

/** Where the merchants are kept. A PostgreSQL URL is shown without its password. */
function dataLine(sandbox: RunningSandbox, data: string | undefined): string {
  if (sandbox.node) return `${sandbox.node.target} (PostgreSQL, shared by every node started with it; this node: ${sandbox.node.options.nodeId})`;
  return data ? `${data} (${sandbox.restored} merchant file(s) restored)` : "in memory (use --data DIR to keep state)";
}
