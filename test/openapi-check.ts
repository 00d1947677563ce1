/**
 * Checks that a response the test suite received matches the schema the OpenAPI document gives for
 * its route and status. Every `harness().call()` runs it, so the whole suite keeps the document true.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { isIP } from "node:net";
import { createApp } from "../src/app.js";
import { openApiDocument as servedDocument } from "../src/http/openapi-document.js";
import { buildRegistry } from "../src/server.js";

type Doc = { paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }>> };

let compiled: { ajv: Ajv2020; routes: Array<{ method: string; pattern: RegExp; template: string }> } | undefined;

/**
 * An Ajv that knows the document: every `format` it uses is checked (ajv-formats), rather than
 * ignored with a warning per schema.
 */
export function documentAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addFormat("ip", (value: string) => isIP(value) !== 0);
  ajv.addSchema(openApiDocument() as object, "openapi.json");
  return ajv;
}

export function openApiDocument(): Doc {
  const { registry } = buildRegistry({});
  return servedDocument(createApp({ registry }), "http://127.0.0.1:4010") as unknown as Doc;
}

/** The document's validators and its routes as patterns, compiled on first use. */
function compile() {
  if (compiled) return compiled;
  const doc = openApiDocument();
  const ajv = documentAjv();
  const routes = Object.entries(doc.paths).flatMap(([template, ops]) =>
    Object.keys(ops).map((method) => ({
      method: method.toUpperCase(),
      template,
      pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`),
    })),
  );
  // Literal paths before templated ones: /virtual-cards/cardholders before /virtual-cards/{id}.
  routes.sort((a, b) => (a.template.includes("{") ? 1 : 0) - (b.template.includes("{") ? 1 : 0));
  compiled = { ajv, routes };
  return compiled;
}

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");

/** Returns a description of the mismatch, or undefined when the response is as documented. */
export function checkResponse(method: string, url: string, status: number, body: unknown): string | undefined {
  const path = new URL(url, "http://localhost").pathname;
  if (!path.startsWith("/api/v1/") && !path.startsWith("/sandbox/v1/")) return undefined;
  const { ajv, routes } = compile();
  const route = routes.find((r) => r.method === method.toUpperCase() && r.pattern.test(path));
  if (!route) return status === 404 ? undefined : `${method} ${path} answered ${status} but is not in the OpenAPI document`;
  const ref = `openapi.json#/paths/${pointer(route.template, route.method.toLowerCase())}/responses/${status}/content/application~1json/schema`;
  let validate;
  try {
    validate = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
  } catch {
    return `${method} ${route.template} answered ${status}, which the OpenAPI document does not describe`;
  }
  if (validate(body)) return undefined;
  return `${method} ${route.template} ${status} does not match its documented schema: ${ajv.errorsText(validate.errors)}`;
}
