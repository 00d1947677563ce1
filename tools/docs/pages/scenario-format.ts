/**
 * docs/reference/scenario-format.md: the scenario file's keys, each object kind's fields and each step
 * kind, read from the zod schema that validates scenario files (as JSON Schema: types, bounds, defaults).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { OUTCOMES } from "../../../src/domain/outcomes.js";
import { DEFAULT_INBOUND_SETTLE_SECONDS } from "../../../src/domain/va-payments.js";
import { NewMerchantSchema } from "../../../src/domain/merchant-settings.js";
import { scenarioSchema, SCENARIO_START } from "../../../src/scenarios/schema.js";
import { boundsOf, typeOf, type Node } from "../json-schema.js";
import { code, fenced, spokenSeconds, table, type ReferencePage } from "../markdown.js";
import { REPO_ROOT } from "../repo-root.js";
import { servedDocument } from "./control-api.js";

/** The scenario schema as JSON Schema: what a file may hold, with bounds and defaults. */
export const scenarioJsonSchema = () => z.toJSONSchema(scenarioSchema(), { io: "input", unrepresentable: "any" }) as Node & { properties: Record<string, Node> };

/** What the schema does not say about a field, keyed `table.field`. */
const NOTES: Record<string, string> = {
  "any.merchant": "The merchant's alias; may be left out when the scenario has one merchant",
  "any.as": "The object's name: `$name` stands for it in later requests and checks",
  "cardholders.approved": "Approve KYC at load (otherwise it follows the KYC delay like any cardholder)",
  "cards.cardholder": "The cardholder's `as`",
  "cards.fund": "USD to fund the card with at load (charged to the wallet as usual)",
  "outcomes.outcome": "One of the target's outcomes (below)",
  "outcomes.match": "Values the request must have, compared as text, in any case",
  "virtual_accounts.cac_number": "`RC` or `BN` then digits",
  "timeline.at": "`+30s`, `+5m`, `+2h`, `+1d` after `start` on the merchant's clock, or an ISO time",
  "timeline.transfer": "An incoming bank transfer to a virtual account (fields below)",
  "timeline.pay_link": "A customer pays a payment link (fields below)",
  "transfer.status": "At arrival: `success` is credited at once; `pending` or `processing` nothing until it ends",
  "transfer.outcome": "How a `pending` or `processing` transfer ends",
  "transfer.settle_after_seconds": `When it ends (default ${spokenSeconds(DEFAULT_INBOUND_SETTLE_SECONDS)})`,
  "pay_link.link": "The payment link's `as`",
  "pay_link.amount": "Default: the link's exact amount",
  "request.path": "May hold `$name` and captured `$values`",
  "request.timeout_seconds": "The client's time-out, in wall-clock seconds",
  "expect.body": "A subset of the JSON answer",
  "expect.connection": "No answer arrives: the connection is `reset`, or the client gives up after `timeout_seconds` (`timeout`, with `request.timeout_seconds`). Takes no `status` or `body` beside it",
  "capture.*": "`{ ref: data.reference }` makes `$ref` available to later steps.",
  "advance.seconds": "One of `seconds`, `by` or `to`",
  "advance.by": "`15s`, `30m`, `2h`, `1d`",
  "advance.to": "An ISO time",
  "expect_webhook.data": "A subset of the event's `data`",
  "expect_webhook.deliveries": "How many deliveries of matching events the receiver got (with `webhook_capture`)",
  "expect_balance.balance": "The wallet balance in Naira",
};

const noteOf = (tableName: string, field: string, node: Node) => NOTES[`${tableName}.${field}`] ?? NOTES[`any.${field}`] ?? node.description ?? "";

/** An object's fields as a table: name, type, required or default, bounds, note. */
export function fieldsTable(tableName: string, node: Node): string {
  const required = new Set(node.required ?? []);
  return table(
    ["Field", "Type", "Required", "Bounds", "Notes"],
    Object.entries(node.properties ?? {}).map(([field, f]) => [
      code(field),
      typeOf(f),
      required.has(field) ? "yes" : f.default !== undefined ? `no (default ${code(JSON.stringify(f.default))})` : "no",
      boundsOf(f),
      noteOf(tableName, field, f),
    ]),
  );
}

/** What each top-level key holds. */
const TOP: Record<keyof ReturnType<typeof scenarioSchema>["shape"], string> = {
  name: "The scenario's name, shown by `run`",
  description: "What it shows, in prose",
  seed: "Makes identifiers, account numbers, PANs, nonces and the event log identical on every run",
  start: "Sim time at which every merchant's clock starts (manual clocks)",
  merchants: "An alias for each merchant, with its settings",
  virtual_accounts: "Virtual accounts to create",
  cardholders: "Cardholders to create",
  cards: "Cards to issue",
  payment_links: "Payment links to create",
  outcomes: "Outcome rules, with the control API's fields; a window starts when the scenario is loaded",
  timeline: "Simulated outside events at offsets on the merchant's clock",
  steps: "Checks, run in order by `merchant-sandbox run`",
};

/** The key naming a step's kind: the one beside `name`, `expect` and `capture`. */
const kindOf = (step: Node) => Object.keys(step.properties ?? {}).find((k) => !["name", "expect", "capture"].includes(k))!;

export const EXAMPLE_SCENARIO = "scenarios/01-virtual-account-funding.yaml";

export function scenarioFormatPage(): ReferencePage {
  const schema = scenarioJsonSchema();
  const p = schema.properties;
  const required = new Set(schema.required ?? []);
  const alias = p.merchants!.propertyNames!;
  const merchant = p.merchants!.additionalProperties as Node;
  const ownKeys = Object.keys(merchant.properties ?? {}).filter((k) => !(k in NewMerchantSchema.shape));
  const item = (key: string) => p[key]!.items!;
  const steps = item("steps").anyOf!;
  const timeline = item("timeline");
  const loadTypes = Object.keys(servedDocument().paths["/sandbox/v1/scenarios"]?.post?.requestBody?.content ?? {});
  return {
    name: "scenario-format.md",
    sources: ["src/scenarios/schema.ts", "src/domain/records.ts", EXAMPLE_SCENARIO],
    body: `
# Scenario format

A scenario is a YAML (or JSON) file: merchants, the objects they start with, outcome rules, a timeline of
outside events, and steps that check what happens. One zod schema (\`src/scenarios/schema.ts\`) validates it,
with the bounds of [Bounds](bounds.md); an error names the file, the path in the document and what was expected.
A scenario is used three ways: \`merchant-sandbox run FILE...\` runs its steps ([CLI](cli.md#run));
\`merchant-sandbox start --scenario FILE\` loads it at start; \`POST /sandbox/v1/scenarios\` (no authentication;
${loadTypes.map(code).join(", ")}) loads it into a running sandbox and answers with the new merchants' keys,
all or nothing, without running its steps. Step by step: [Scenarios in CI](../how-to/scenarios-in-ci.md).

Names (merchant aliases, \`as\`, \`capture\` keys) are at most ${alias.maxLength} characters: letters, digits,
\`_\` and \`-\`, starting with a letter or \`_\`. Every clock starts at \`start\` (default \`${SCENARIO_START}\`) in manual mode.

## Top-level keys

${table(
  ["Key", "Type", "Required", "Bounds", "What it holds"],
  Object.entries(p).map(([key, node]) => [
    code(key),
    typeOf(node),
    required.has(key) ? "yes" : node.default !== undefined && !Array.isArray(node.default) ? `no (default ${code(String(node.default))})` : "no",
    boundsOf(node),
    TOP[key as keyof typeof TOP],
  ]),
)}

## merchants

Each alias maps to the [merchant settings](configuration.md#merchant-settings) and \`wallet_balance\`, plus:

${table(
  ["Field", "Type", "Notes"],
  ownKeys.map((k) => [code(k), typeOf(merchant.properties![k]!), "Fixed keys instead of fresh ones (with `--shared`, only through `start --scenario`)"]),
)}

Here \`webhook_capture: { fail_first: N }\` gives the merchant a receiver that answers 500 to the first N deliveries, then
200: with \`run\`, a real local receiver whose deliveries \`expect_webhook\` checks; elsewhere, the sandbox's built-in capture.

${["virtual_accounts", "cardholders", "cards", "payment_links", "outcomes"].map((key) => `## ${key}\n\n${fieldsTable(key, item(key))}`).join("\n\n")}

An outcome rule's \`target\` and the outcomes each takes:

${table(
  ["`target`", "`outcome`"],
  Object.entries(OUTCOMES).map(([target, outcomes]) => [code(target), outcomes.map(code).join(", ")]),
)}

## timeline

Each entry has \`at\` and exactly one of \`transfer\` or \`pay_link\`.

${fieldsTable("timeline", timeline)}

\`transfer\`:

${fieldsTable("transfer", timeline.properties!.transfer!)}

\`pay_link\`:

${fieldsTable("pay_link", timeline.properties!.pay_link!)}

## steps

Each step has an optional \`name\` and one of ${steps.map((s) => code(kindOf(s))).join(", ")}.

${steps
  .map((step) => {
    const kind = kindOf(step);
    const extra = Object.keys(step.properties ?? {}).filter((k) => k !== "name" && k !== kind);
    const extraTables = extra.map((k) =>
      step.properties![k]!.properties ? `\`${k}\`:\n\n${fieldsTable(k, step.properties![k]!)}` : `\`${k}\`: ${typeOf(step.properties![k]!)}. ${NOTES[`${k}.*`] ?? ""}`,
    );
    return [`### ${kind}`, fieldsTable(kind, step.properties![kind]!), ...extraTables].join("\n\n");
  })
  .join("\n\n")}

## An example

\`${EXAMPLE_SCENARIO}\`, one of the scenarios \`npm test\` runs:

${fenced(readFileSync(join(REPO_ROOT, EXAMPLE_SCENARIO), "utf8"), "yaml")}
`,
  };
}
