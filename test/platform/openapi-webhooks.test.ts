/**
 * The document's `webhooks` are what the sandbox sends: every event type it can emit is there, the
 * events table of docs/reference/events-and-signatures.md lists the same events with the same `data`
 * fields, and each delivery the sandbox really makes (its exact body, as sent and logged) validates
 * against the documented payload, signed with the header the WebhookSignature scheme names.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EVENT_TYPES } from "../../src/domain/event-records.js";
import { client, PAYOUT_ACCOUNT } from "../client.js";
import { harness, repoFile } from "../helpers.js";
import { documentAjv, openApiDocument } from "../openapi-check.js";

const doc = openApiDocument() as unknown as {
  webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: unknown }> } } }>;
  components: { schemas: Record<string, { properties?: Record<string, unknown> }>; securitySchemes: Record<string, { name: string }> };
};

/** The documented `data` fields of an event (its payload schema is a component, by reference or inline). */
function documentedFields(type: string): string[] {
  const schema = doc.webhooks[type]!.post.requestBody.content["application/json"]!.schema as { $ref?: string; properties?: Record<string, any> };
  const delivery = schema.$ref ? doc.components.schemas[schema.$ref.split("/").pop()!]! : schema;
  let data = (delivery.properties as Record<string, any>).data as { $ref?: string; properties?: Record<string, unknown> };
  if (data.$ref) data = doc.components.schemas[data.$ref.split("/").pop()!]!;
  return Object.keys(data.properties ?? {}).sort();
}

const EVENTS_PAGE = "docs/reference/events-and-signatures.md";

/** The reference page's events table: event -> the `data` fields its row names (backticked; `status: "..."` counts as status). */
function pageTable(): Map<string, string[]> {
  const text = readFileSync(repoFile(EVENTS_PAGE), "utf8");
  const section = text.slice(text.indexOf("## Events"), text.indexOf("\n## ", text.indexOf("## Events") + 5));
  const rows = new Map<string, string[]>();
  for (const line of section.split("\n")) {
    const cells = /^\| `([a-z]+\.[a-z]+)` \| [^|]+ \| (.+) \|$/.exec(line);
    if (!cells) continue;
    const [, event, data] = cells as unknown as [string, string, string];
    const same = /^The same fields as `([a-z.]+)`/.exec(data);
    const own = [...data.matchAll(/`([a-z_]+)(?::[^`]*)?`/g)].map((m) => m[1]!).filter((f) => !f.includes("."));
    rows.set(event, [...new Set([...(same ? rows.get(same[1]!) ?? [] : []), ...own])].sort());
  }
  return rows;
}

describe("webhooks: document, reference page and real deliveries agree", () => {
  it("registers the webhooks with an app's first document, once: /openapi.json serves the same document every time", async () => {
    const h = harness();
    const first = await h.call("GET", "/openapi.json");
    const again = await h.call("GET", "/openapi.json");
    expect(Object.keys(first.body.webhooks).sort()).toEqual([...EVENT_TYPES].sort());
    expect(again.body).toEqual(first.body);
  });

  it("the document has every event type the sandbox emits", () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...EVENT_TYPES].sort());
  });

  it(`${EVENTS_PAGE} lists the same events with the same data fields`, () => {
    const table = pageTable();
    expect([...table.keys()].sort()).toEqual([...EVENT_TYPES].sort());
    for (const type of EVENT_TYPES) {
      // webhook.test carries three fields on purpose: nothing a receiver could credit.
      expect(documentedFields(type).length, `${type} documents its data fields`).toBeGreaterThan(type === "webhook.test" ? 2 : 5);
      expect(table.get(type), type).toEqual(documentedFields(type));
    }
  });

  it("every delivery the sandbox makes validates against its documented payload, signed in the documented header", async () => {
    const h = harness();
    const c = client(await h.merchant({ wallet_balance: 100_000, webhook_capture: { fail_first: 0 } }));
    const account = await c.virtualAccount();
    await c.transferIn(account.account_number, 5_000, { narration: "Order 77" });
    const link = await c.checkout({ amount: 2_500 });
    expect((await c.payLink(link.reference)).status).toBe(200);
    await c.processingPayout({ amount: 1_000, account_number: PAYOUT_ACCOUNT });
    await c.processingPayout({ amount: 1_000, account_number: "0123450001" }); // the sandbox's magic "fails" ending
    await c.advance("5m");
    expect((await c.call("POST", "/sandbox/v1/webhooks/test")).status).toBe(200);

    const deliveries = await c.deliveries();
    const sent = new Set<string>();
    const ajv = documentAjv();
    const header = doc.components.securitySchemes.WebhookSignature!.name.toLowerCase();
    for (const delivery of deliveries) {
      const body = JSON.parse(delivery.request_body!) as { event: string };
      const pointer = `openapi.json#/webhooks/${body.event}/post/requestBody/content/application~1json/schema`;
      const validate = ajv.getSchema(pointer)!;
      expect(validate(body), `${body.event}: ${JSON.stringify(validate.errors)}`).toBe(true);
      const headers = Object.fromEntries(Object.entries(delivery.request_headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
      expect(headers[header], `${body.event} is signed in ${header}`).toMatch(/^[0-9a-f]{64}$/);
      sent.add(body.event);
    }
    expect([...sent].sort()).toEqual([...EVENT_TYPES].sort());
  });
});
