/**
 * The document served at /openapi.json, built from the routes' definitions. One function, so the
 * test suite checks exactly what merchants download.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { baseUrl } from "./base-url.js";
import { TAGS } from "./openapi.js";
import { registerWebhooks } from "./openapi-webhooks.js";

/** A property schema that no value satisfies (zod-to-openapi writes `{ not: {} }`, with a description). */
const isNothing = (schema: unknown): boolean =>
  typeof schema === "object" && schema !== null && "not" in schema && Object.keys((schema as { not: object }).not).length === 0;

/**
 * Writes "no value allowed" as the JSON Schema `false`, which generators understand: openapi-typescript
 * turns `{ not: {} }` into `unknown` (a business body with a bvn would type-check) but `false` into
 * `never`. Validators read both the same way.
 */
function forbidWithFalse(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(forbidWithFalse);
  if (typeof node !== "object" || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "properties" && typeof value === "object" && value !== null) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, isNothing(schema) ? false : forbidWithFalse(schema)]));
    } else {
      out[key] = forbidWithFalse(value);
    }
  }
  return out;
}

/** OpenAPI 3.1's license by SPDX identifier (the config's type is 3.0's, which lacks `identifier`). */
const MIT = { name: "MIT", identifier: "MIT" };

/**
 * States every schema `default` in its description instead of declaring it. Generators given a
 * `default` (openapi-typescript with its default options among them) make the property required,
 * which turns the spec's optional fields (and the control API's) into mandatory ones. Route fields use
 * `withDefault` (src/http/openapi.ts) already; this catches the domain's record schemas (snapshots,
 * merchant settings), whose defaults fill in fields older snapshots lack.
 */
function stateDefaults(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(stateDefaults);
  if (typeof node !== "object" || node === null) return node;
  const { default: value, ...rest } = node as Record<string, unknown>;
  const out = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, k === "example" || k === "examples" ? v : stateDefaults(v)]));
  if (value === undefined) return out;
  const stated = `Default: ${JSON.stringify(value)}.`;
  const description = typeof out.description === "string" ? out.description : "";
  return { ...out, description: description.includes("Default:") ? description : `${description}${description ? " " : ""}${stated}` };
}

export function openApiDocument(app: OpenAPIHono<any>, serverUrl: string): Record<string, unknown> {
  registerOnce(app);
  const document = app.getOpenAPI31Document({
    openapi: "3.1.0",
    info: {
      title: "Merchant Payments Service (merchant-sandbox)",
      version: "1.0.0",
      description:
        "The Merchant Payments Service API (/api/v1) as served by merchant-sandbox, plus the sandbox's control API (/sandbox/v1). " +
        "Authenticate with the X-Api-Key and X-Api-Secret headers. Every failure has one shape: " +
        "{ success: false, message, error_code, errors?, retry_after?, data?, request_id? }.",
      contact: { name: "merchant-sandbox maintainers" },
      license: MIT,
    },
    servers: [{ url: serverUrl }],
    tags: TAGS,
  });
  return stateDefaults(forbidWithFalse(document)) as Record<string, unknown>;
}

/** Serves the document at /openapi.json. */
export function serveDocument(app: OpenAPIHono<any>, publicUrl: string | undefined): void {
  app.get("/openapi.json", (c) => c.json(openApiDocument(app, baseUrl(publicUrl, c.req.url))));
}

const registered = new WeakSet<OpenAPIHono<any>>();

/**
 * The security schemes and the webhooks, registered with the first document rather than at every start
 * (their payload schemas are built then): after the routes either way, so the document is the same.
 */
function registerOnce(app: OpenAPIHono<any>): void {
  if (registered.has(app)) return;
  registered.add(app);
  app.openAPIRegistry.registerComponent("securitySchemes", "ApiKey", { type: "apiKey", in: "header", name: "X-Api-Key" });
  app.openAPIRegistry.registerComponent("securitySchemes", "ApiSecret", { type: "apiKey", in: "header", name: "X-Api-Secret" });
  // What the sandbox sends, for merchants to check: an HMAC of the raw body with their webhook secret.
  app.openAPIRegistry.registerComponent("securitySchemes", "WebhookSignature", {
    type: "apiKey",
    in: "header",
    name: "X-Webhook-Signature",
    description: "HMAC-SHA256 (per merchant: SHA-512) of the exact raw request body with the merchant's webhook_secret, lowercase hex (or base64).",
  });
  registerWebhooks(app);
}
