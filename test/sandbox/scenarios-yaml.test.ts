/**
 * POST /sandbox/v1/scenarios with a YAML body (application/yaml, text/yaml): the text of a scenario
 * file as is, read by the same function as `run` and `start --scenario` read files, under the same
 * bounds and with the same errors as JSON; YAML that does not parse is 400 INVALID_YAML with each
 * error's line and column; YAML's extras (tags, merge keys, alias bombs) are refused.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BODY_LIMIT_BYTES } from "../../src/http/body-limit.js";
import { parseScenario, ScenarioError } from "../../src/scenarios/load.js";
import { MAX_YAML_ALIASES, YAML_MEDIA_TYPES } from "../../src/scenarios/yaml-text.js";
import { client } from "../client.js";
import { openApiDocument } from "../openapi-check.js";
import { expectError, harness, type Harness } from "../helpers.js";

const PAYOUT_FILE = "scenarios/05-payout-completed.yaml";
const postYaml = (h: Harness, text: string, type = "application/yaml") =>
  h.call("POST", "/sandbox/v1/scenarios", { raw: text, headers: { "content-type": type } });

/** Each refusal leaves the sandbox as it was, and serving. */
async function nothingMade(h: Harness, before: number) {
  expect(h.registry.size).toBe(before);
  expect((await postYaml(h, "name: fine\nmerchants: { shop: {} }\n")).status).toBe(201);
}

describe("a scenario file posted as YAML", () => {
  it.each([...YAML_MEDIA_TYPES, "text/yaml; charset=utf-8", "Application/YAML"])("as %s loads as the file would, into working merchants", async (type) => {
    const h = harness();
    const res = await postYaml(h, readFileSync(PAYOUT_FILE, "utf8"), type);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.name).toBe(parseScenario(readFileSync(PAYOUT_FILE, "utf8"), PAYOUT_FILE).name);
    const shop = client(h.existing(res.body.data.merchants.shop.merchant_id));
    expect(await shop.balance()).toBe(200_000);
    expect(await shop.clock()).toMatchObject({ now: "2026-01-05T09:00:00.000Z", mode: "manual" });
  });

  it("gives the same answer as the same text in { yaml } and as a JSON document", async () => {
    const text = "name: Same\nmerchants:\n  shop: { wallet_balance: 250 }\npayment_links:\n  - { as: link, amount: 500 }\n";
    const shape = (body: { data: { name: string; merchants: Record<string, object>; objects: Record<string, string> } }) => ({
      name: body.data.name,
      merchants: Object.keys(body.data.merchants),
      objects: Object.keys(body.data.objects),
    });
    const h = harness();
    const asYaml = await postYaml(h, text);
    const inField = await h.call("POST", "/sandbox/v1/scenarios", { body: { yaml: text } });
    const asJson = await h.call("POST", "/sandbox/v1/scenarios", { body: { name: "Same", merchants: { shop: { wallet_balance: 250 } }, payment_links: [{ as: "link", amount: 500 }] } });
    expect([asYaml.status, inField.status, asJson.status]).toEqual([201, 201, 201]);
    expect(shape(inField.body)).toEqual(shape(asYaml.body));
    expect(shape(asJson.body)).toEqual(shape(asYaml.body));
  });

  it("each documented YAML request gets the response documented under its name", async () => {
    const op = (openApiDocument() as unknown as { paths: Record<string, { post: OperationDoc }> }).paths["/sandbox/v1/scenarios"]!.post;
    const documented = (name: string) =>
      Object.entries(op.responses).flatMap(([status, r]) => {
        const example = r.content?.["application/json"]?.examples?.[name];
        return example ? [{ status: Number(status), body: example.value as Record<string, unknown> }] : [];
      });
    for (const type of YAML_MEDIA_TYPES) {
      const examples = op.requestBody.content[type]!.examples!;
      expect(Object.keys(examples)).toEqual(["paymentLinkYaml", "invalidYaml"]);
      for (const [name, { value }] of Object.entries(examples)) {
        const [expected] = documented(name);
        const res = await postYaml(harness(), value as string, type);
        expect(res.status, `${type} ${name}: ${JSON.stringify(res.body)}`).toBe(expected!.status);
        // Keys and ids differ per load; the error is the same word for word.
        if (res.status === 201) {
          const data = expected!.body.data as { name: string; objects: object };
          expect([res.body.data.name, Object.keys(res.body.data.objects)]).toEqual([data.name, Object.keys(data.objects)]);
        }
        else expect(res.body).toEqual(expected!.body);
      }
    }
  });
});

interface OperationDoc {
  requestBody: { content: Record<string, { examples?: Record<string, { value: unknown }> }> };
  responses: Record<string, { content?: Record<string, { examples?: Record<string, { value: unknown }> }> }>;
}

describe("YAML that does not parse: 400 INVALID_YAML, each error at its line and column", () => {
  it("an unclosed mapping and an unclosed list: both reported", async () => {
    const h = harness();
    const before = h.registry.size;
    const res = expectError(await postYaml(h, "name: x\nmerchants:\n  shop: { wallet_balance: 1\n  bad: [\n"), 400, "INVALID_YAML");
    expect(res.message).toBe(
      "The request body is not valid YAML: line 4, column 3: Flow map in block collection must be sufficiently indented and end with a } (and 1 more in errors)",
    );
    expect(res.errors).toEqual({
      body: [
        "line 4, column 3: Flow map in block collection must be sufficiently indented and end with a }",
        "line 5, column 1: Flow sequence in block collection must be sufficiently indented and end with a ]",
      ],
    });
    await nothingMade(h, before);
  });

  it.each([
    ["a key given twice", "name: x\nname: y\nmerchants: { shop: {} }\n", "line 2, column 1: Map keys must be unique"],
    ["two documents", "name: x\nmerchants: { shop: {} }\n---\nname: y\n", "line 3, column 1: Source contains multiple documents"],
    ["a JavaScript tag", "name: !!js/function 'return 1'\nmerchants: { shop: {} }\n", "line 1, column 7: Unresolved tag: tag:yaml.org,2002:js/function"],
    ["a local tag", "name: !shell ls\nmerchants: { shop: {} }\n", "line 1, column 7: Unresolved tag: !shell"],
    ["YAML 1.1's !!binary", "name: !!binary aGVsbG8=\nmerchants: { shop: {} }\n", "line 1, column 7: Unresolved tag: tag:yaml.org,2002:binary"],
    ["a mapping as a key", "name: x\nmerchants: { shop: {} }\n? [a, b]\n: c\n", "line 3, column 3: "],
  ])("%s", async (_, text, start) => {
    const h = harness();
    const before = h.registry.size;
    const res = expectError(await postYaml(h, text), 400, "INVALID_YAML");
    expect(res.errors?.body?.[0]).toMatch(new RegExp(`^${start.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
    await nothingMade(h, before);
  });

  it("the CLI's file reader finds the same errors in the same text (one reader for both)", async () => {
    const text = "name: x\nmerchants:\n  shop: { wallet_balance: 1\n  bad: [\nbin: !!binary aGVsbG8=\n";
    const res = expectError(await postYaml(harness(), text), 400, "INVALID_YAML");
    let problems: string[] = [];
    try {
      parseScenario(text, "f.yaml");
    } catch (err) {
      problems = (err as ScenarioError).problems.map((p) => `${p.path}: ${p.detail}`);
    }
    expect(problems).toEqual(res.errors?.body);
    expect(problems).toHaveLength(3);
  });
});

describe("the same bounds and errors as JSON", () => {
  it("a body over the limit is 413 before it is read", async () => {
    const h = harness();
    const before = h.registry.size;
    const text = `name: big\nmerchants: { shop: {} }\ndescription: ${"x".repeat(BODY_LIMIT_BYTES)}\n`;
    expectError(await postYaml(h, text), 413, "PAYLOAD_TOO_LARGE");
    await nothingMade(h, before);
  });

  it.each([
    ["lists", "[".repeat(40) + "]".repeat(40)],
    ["mappings", "{a: ".repeat(39) + "{}" + "}".repeat(39)],
  ])("nested past the bound (%s): JSON's answer, word for word", async (_, deep) => {
    const h = harness();
    const before = h.registry.size;
    const asJson = await h.call("POST", "/sandbox/v1/scenarios", { raw: `{"name":"deep","merchants":{"shop":{}},"description":${"[".repeat(40)}${"]".repeat(40)}}`, headers: { "content-type": "application/json" } });
    const asYaml = await postYaml(h, `name: deep\nmerchants: { shop: {} }\ndescription: ${deep}\n`);
    expect(expectError(asYaml, 422, "VALIDATION_ERROR")).toEqual(expectError(asJson, 422, "VALIDATION_ERROR"));
    await nothingMade(h, before);
  });

  it("a field that breaks its rule, an unknown key and a refused load: the same 422 as JSON", async () => {
    const h = harness();
    const cases: Array<[string, object]> = [
      ["name: x\nmerchants:\n  shop: { limits: { payout_min: -1 } }\n", { name: "x", merchants: { shop: { limits: { payout_min: -1 } } } }],
      ["name: x\nmerchants:\n  shop: { webhok_url: 'https://example.com/h' }\n", { name: "x", merchants: { shop: { webhok_url: "https://example.com/h" } } }],
      ["name: x\nmerchants: { shop: {} }\ntimeline:\n  - { at: +5m, pay_link: { link: nowhere } }\n", { name: "x", merchants: { shop: {} }, timeline: [{ at: "+5m", pay_link: { link: "nowhere" } }] }],
    ];
    for (const [text, doc] of cases) {
      const yaml = expectError(await postYaml(h, text), 422, "VALIDATION_ERROR");
      expect(yaml).toEqual(expectError(await h.call("POST", "/sandbox/v1/scenarios", { body: doc }), 422, "VALIDATION_ERROR"));
    }
  });

  it("merge keys are not expanded: `<<` is an unknown key like any other", async () => {
    const text = "name: x\nbase: &base { wallet_balance: 10 }\nmerchants:\n  shop:\n    <<: *base\n";
    const res = expectError(await postYaml(harness(), text), 422, "VALIDATION_ERROR");
    expect(res.errors).toEqual({ base: ["Unknown field."], "merchants.shop.<<": ["Unknown field."] });
  });

  it(`aliases expand at most ${MAX_YAML_ALIASES} times: a few reused blocks load, a "billion laughs" is refused`, async () => {
    const h = harness();
    const reused = "name: x\nmerchants:\n  a: &m { wallet_balance: 10 }\n  b: *m\n  c: *m\n";
    const ok = await postYaml(h, reused);
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(Object.keys(ok.body.data.merchants)).toEqual(["a", "b", "c"]);
    const before = h.registry.size;
    const laughs = ["name: x", "merchants: { shop: {} }", "l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"];
    for (let i = 1; i <= 9; i++) laughs.push(`l${i}: &l${i} [${Array(10).fill(`*l${i - 1}`).join(", ")}]`);
    const res = expectError(await postYaml(h, laughs.join("\n") + "\n"), 422, "VALIDATION_ERROR");
    expect(res.errors).toEqual({ body: [`expands more aliases than the ${MAX_YAML_ALIASES} allowed (anchors with *references)`] });
    await nothingMade(h, before);
  });
});

describe("other media types", () => {
  it.each(["text/plain", "application/x-yaml", "application/xml"])("%s is still 415, naming the types this route takes", async (type) => {
    const h = harness();
    const res = expectError(await postYaml(h, "name: x\nmerchants: { shop: {} }\n", type), 415, "UNSUPPORTED_MEDIA_TYPE");
    expect(res.message).toBe(`A scenario is posted as JSON or YAML (Content-Type: application/json, application/yaml or text/yaml), not ${type}.`);
  });

  it("every other route still takes JSON only", async () => {
    const h = harness();
    const res = expectError(await h.call("POST", "/sandbox/v1/merchants", { raw: "business_name: x\n", headers: { "content-type": "application/yaml" } }), 415, "UNSUPPORTED_MEDIA_TYPE");
    expect(res.message).toBe("Request bodies must be JSON (Content-Type: application/json), not application/yaml.");
  });
});
