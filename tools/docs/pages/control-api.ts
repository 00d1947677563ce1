/**
 * docs/reference/control-api.md: every /sandbox/v1 operation of the OpenAPI document the sandbox
 * serves, built from the same app, grouped by tag. Schemas stay in the document (/docs, /openapi.json).
 */
import { createApp } from "../../../src/app.js";
import { openApiDocument } from "../../../src/http/openapi-document.js";
import { buildRegistry } from "../../../src/server.js";
import { answer, code, table, type ReferencePage } from "../markdown.js";

interface Operation {
  operationId: string;
  summary?: string;
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: { content: Record<string, unknown> };
}

export interface ServedDocument {
  tags: Array<{ name: string; description?: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, { name: string }> };
}

export const CONTROL_PREFIX = "/sandbox/v1/";

let built: ServedDocument | undefined;

/** The document `GET /openapi.json` serves, from an app built as `start` builds it (once: two pages read it). */
export function servedDocument(): ServedDocument {
  if (built) return built;
  const { registry } = buildRegistry({});
  built = openApiDocument(createApp({ registry }), "http://127.0.0.1:4010") as unknown as ServedDocument;
  return built;
}

/** Every control operation, in the document's order. */
export function controlOperations(doc: ServedDocument) {
  return Object.entries(doc.paths)
    .filter(([path]) => path.startsWith(CONTROL_PREFIX))
    .flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ method: method.toUpperCase(), path, op })));
}

/** `/sandbox/v1/events?type=&since=`: the path with its query parameters, as a request line shows them. */
const withQuery = (path: string, op: Operation) => {
  const query = (op.parameters ?? []).filter((p) => p.in === "query").map((p) => `${p.name}=`);
  return query.length ? `${path}?${query.join("&")}` : path;
};

/** "none", or the headers of the schemes the operation requires. */
function authOf(doc: ServedDocument, op: Operation): string {
  const schemes = (op.security ?? []).flatMap((requirement) => Object.keys(requirement));
  return schemes.length ? schemes.map((s) => code(doc.components.securitySchemes[s]!.name)).join(" and ") : "**none**";
}

export function controlApiPage(): ReferencePage {
  const doc = servedDocument();
  const operations = controlOperations(doc);
  const sections = doc.tags
    .map((tag) => ({ tag, ops: operations.filter(({ op }) => op.tags?.includes(tag.name)) }))
    .filter(({ ops }) => ops.length > 0)
    .map(
      ({ tag, ops }) => `## ${tag.name}

${tag.description ?? ""}

${table(
  ["Method", "Path", "What it does", "Auth"],
  ops.map(({ method, path, op }) => [method, code(withQuery(path, op)), op.summary ?? "", authOf(doc, op)]),
)}`,
    );
  return {
    name: "control-api.md",
    sources: ["src/sandbox/", "src/http/openapi-document.ts"],
    body: `
# Control API

The control API (\`${CONTROL_PREFIX}...\`) is the sandbox's own: the levers a test or a demo needs. It uses
the merchant's own \`X-Api-Key\` and \`X-Api-Secret\`, except where the table says **none**. Every lever goes
through the same domain functions as the API, so a lever can only produce states the real service could reach.
A lever that the object's current state does not allow answers ${answer("INVALID_STATE")}, and the message
names that state (approving a completed payout, paying an expired link, failing a settled VTU purchase).

The control API checks credentials only: the merchant's IP allowlist and request cap do not apply to it, so a
merchant can never lock itself out of the settings that change them.

Each operation's request and response schemas, with examples, are in the API reference a running sandbox
serves at \`/docs\`, and in its OpenAPI document at \`/openapi.json\` (search for the path). Errors:
[Errors](errors.md).

${sections.join("\n\n")}
`,
  };
}
