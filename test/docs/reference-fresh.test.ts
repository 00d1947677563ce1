/**
 * The reference pages (docs/reference/) are generated from the code by `npm run docs`
 * (tools/docs/generate-reference.ts). Each page on disk is exactly what the generator writes now, and
 * each generated table is complete: every setting, command, control operation, error code, magic value,
 * bound, scenario key, event, check rule and doctor case has its row.
 */
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CHECK_USAGE } from "../../src/cli/check.js";
import { DOCTOR_USAGE } from "../../src/cli/doctor.js";
import { LISTEN_USAGE } from "../../src/cli/listen.js";
import { LOGS_USAGE } from "../../src/cli/logs.js";
import { defaultOf, SETTING_KEYS } from "../../src/config.js";
import * as BOUNDS from "../../src/domain/bounds.js";
import { CHECK_RULES } from "../../src/domain/checks.js";
import { EVENT_TYPES } from "../../src/domain/event-records.js";
import { HOUR } from "../../src/domain/limits.js";
import { NewMerchantSchema } from "../../src/domain/merchant-settings.js";
import { CARD_FUND_MAGIC, KYC_MAGIC, LATE_FAILURE_MS, magicPhone, PAYOUT_MAGIC, SLOW_RESPONSE_SECONDS, VTU_MAGIC_DIGIT } from "../../src/domain/outcomes.js";
import { CASES } from "../../src/doctor/battery.js";
import { STATUS_OF } from "../../src/http/errors.js";
import { scenarioSchema } from "../../src/scenarios/schema.js";
import { generatedFiles, GENERATED_MARK, REFERENCE_DIR, stalePages } from "../../tools/docs/generate-reference.js";
import { ordinal } from "../../tools/docs/markdown.js";
import { boundRows, UNSHOWN_BOUNDS } from "../../tools/docs/pages/bounds.js";
import { openApiDocument } from "../openapi-check.js";

const files = generatedFiles();
const page = (name: string) => files.get(`${REFERENCE_DIR}/${name}`)!;
/** A page's text from one heading to the next of the same level (or the end). */
const section = (text: string, heading: string) => {
  const start = text.indexOf(`\n${heading}\n`);
  expect(start, heading).toBeGreaterThan(-1);
  const level = heading.split(" ")[0]!;
  const end = text.indexOf(`\n${level} `, start + heading.length + 1);
  return text.slice(start, end < 0 ? undefined : end);
};
/** Table rows (not the header or the rule) as their cells. */
const rows = (text: string) =>
  text
    .split("\n")
    .filter((l) => l.startsWith("| ") && !/^\|(---\|)+$/.test(l))
    .map((l) => l.slice(2, -2).split(/ (?<!\\)\| /));

describe("docs/reference/", () => {
  it.each([...files.keys()])("%s is what npm run docs writes", (path) => {
    const onDisk = existsSync(path) ? readFileSync(path, "utf8") : null;
    expect(onDisk === files.get(path), `${path} is stale: run npm run docs`).toBe(true);
  });

  it("holds no generated page the generator no longer writes", () => {
    expect(stalePages(files).filter((p) => !files.has(p)), "left over: run npm run docs").toEqual([]);
  });

  it.each([...files])("%s starts with the notice naming its sources, which exist", (_path, text) => {
    const notice = text.split("\n")[0]!;
    expect(notice.startsWith(GENERATED_MARK)).toBe(true);
    expect(notice).toMatch(/Do not edit: change the code and run npm run docs\. -->$/);
    const sources = /from (.+)\. Do not edit/.exec(notice)![1]!.split(", ");
    for (const source of sources) expect(existsSync(source), source).toBe(true);
  });
});

describe("the generated tables are complete", () => {
  it("configuration: every start setting with its flag, variable and default, and --config", () => {
    const table = rows(section(page("configuration.md"), "## Start settings"));
    for (const key of SETTING_KEYS) {
      const flag = `--${key.replaceAll("_", "-")}`;
      const row = table.find((r) => r[0] === `\`${flag}\``);
      expect(row, flag).toBeDefined();
      expect(row![1]).toBe(`\`MERCHANT_SANDBOX_${key.toUpperCase()}\``);
      expect(row![2]).toBe(defaultOf(key) ? `\`${defaultOf(key)}\`` : "");
    }
    expect(table.filter((r) => r[0]!.startsWith("`--"))).toHaveLength(SETTING_KEYS.length + 1);
  });

  it("configuration: every merchant setting, nested ones included", () => {
    const text = section(page("configuration.md"), "## Merchant settings");
    const table = rows(text);
    const leaves = (shape: Record<string, unknown>, path: string[] = []): string[][] =>
      Object.entries(shape).flatMap(([key, schema]) => {
        let inner = schema as { unwrap?: () => unknown; shape?: Record<string, unknown> };
        while (!inner.shape && typeof inner.unwrap === "function") inner = inner.unwrap() as typeof inner;
        return inner.shape ? leaves(inner.shape, [...path, key]) : [[...path, key]];
      });
    for (const leaf of leaves(NewMerchantSchema.shape)) {
      const [top, last] = [leaf[0]!, leaf.at(-1)!];
      const documented = leaf.length === 1 ? text.includes(`\`${top}\``) : table.some((r) => r[0]!.includes(top) && r.join(" ").includes(last));
      expect(documented, leaf.join(".")).toBe(true);
    }
  });

  it("cli: every command's usage, verbatim, each with its section", () => {
    const text = page("cli.md");
    for (const usage of [CHECK_USAGE, DOCTOR_USAGE, LISTEN_USAGE, LOGS_USAGE]) expect(text).toContain(usage.trim());
    const commands = [...text.matchAll(/^ {0,7}(?:Usage: )?merchant-sandbox ([a-z]+)/gm)].map((m) => m[1]!);
    expect(new Set(commands)).toEqual(new Set(["start", "run", "listen", "check", "doctor", "logs"]));
    for (const command of new Set(commands)) expect(text, command).toContain(`\n## ${command}\n`);
  });

  it("control API: every /sandbox/v1 operation of the served document, once", () => {
    const listed = rows(page("control-api.md")).filter((r) => /^[A-Z]+$/.test(r[0]!)).map((r) => `${r[0]} ${r[1]!.replace(/^`|`$/g, "").split("?")[0]}`);
    const operations = Object.entries(openApiDocument().paths)
      .filter(([path]) => path.startsWith("/sandbox/v1/"))
      .flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`));
    expect(listed.sort()).toEqual(operations.sort());
  });

  it("errors: every code with the status the server answers it with", () => {
    const listed = rows(page("errors.md")).slice(1).map((r) => [r[0]!.replace(/`/g, ""), Number(r[1])]);
    expect(listed).toEqual(Object.entries(STATUS_OF));
  });

  describe("magic values", () => {
    const text = page("magic-values.md");
    const table = rows(text);
    const row = (ending: string) => table.find((r) => r[0] === "Payout" && r[1]!.includes(`ending \`${ending}\``))!.join(" | ");

    it("every payout ending of PAYOUT_MAGIC, and no other", () => {
      const listed = table.filter((r) => r[0] === "Payout").flatMap((r) => [...r[1]!.matchAll(/ending `(\d{4})`/g)].map((m) => m[1]));
      expect(listed.sort()).toEqual(Object.keys(PAYOUT_MAGIC).sort());
    });

    it("each payout ending's timing as the table enforces it", () => {
      for (const [ending, magic] of Object.entries(PAYOUT_MAGIC)) {
        if (magic.queries) expect(row(ending), ending).toContain(`${ordinal(magic.queries)} `);
        if (magic.delay_ms) expect(row(ending), ending).toMatch(new RegExp(`\\b${magic.delay_ms / HOUR} h\\b`));
        if (magic.response === "slow_response") expect(row(ending), ending).toContain(`${SLOW_RESPONSE_SECONDS} s`);
        if (magic.error) expect(row(ending), ending).toContain(magic.error);
      }
      expect(LATE_FAILURE_MS % HOUR, "a whole number of hours, as the page words it").toBe(0);
    });

    it("every VTU phone of VTU_MAGIC_DIGIT, and the repeated digits it forces", () => {
      const phones = table.filter((r) => r[0]!.startsWith("VTU")).flatMap((r) => [...r[1]!.matchAll(/`(080\d{8})`/g)].map((m) => m[1]));
      const digits = Object.entries(VTU_MAGIC_DIGIT).filter(([, m]) => m.plan !== null).map(([d]) => d);
      expect(phones.sort()).toEqual(digits.map(magicPhone).sort());
      expect(text).toContain(`one repeated digit \`${digits[0]}\`–\`${digits.at(-1)}\``);
      for (const [digit] of Object.entries(VTU_MAGIC_DIGIT).filter(([, m]) => m.plan === null)) expect(text, digit).toContain(`all \`${digit}\`s`);
    });

    it("the KYC and card-funding magic values, and no other", () => {
      const prefixes = [...text.matchAll(/email starting `([^`]+)`/g)].map((m) => m[1]);
      expect(prefixes.sort()).toEqual(Object.keys(KYC_MAGIC).sort());
      const amounts = [...text.matchAll(/amount exactly `([\d.]+)` USD/g)].map((m) => m[1]);
      expect(amounts.sort()).toEqual(Object.keys(CARD_FUND_MAGIC).map((cents) => (Number(cents) / 100).toFixed(2)).sort());
    });
  });

  it("bounds: every constant of src/domain/bounds.ts is shown by a row, or said to be internal", () => {
    const covered = new Set(boundRows().flatMap((r) => r.covers ?? []));
    const missing = Object.keys(BOUNDS).filter((name) => !covered.has(name as keyof typeof BOUNDS) && !(name in UNSHOWN_BOUNDS));
    expect(missing, "bounds.ts constants bounds.md does not show").toEqual([]);
    for (const r of boundRows()) expect(`${r.limit} ${r.past}`, r.bound).toMatch(/\d|one at a time/);
    expect(rows(page("bounds.md")).length).toBeGreaterThan(boundRows().length);
  });

  it("scenario format: every top-level key, list kind and step kind", () => {
    const text = page("scenario-format.md");
    const top = rows(section(text, "## Top-level keys")).slice(1).map((r) => r[0]!.replace(/`/g, ""));
    expect(top).toEqual(Object.keys(scenarioSchema().shape));
    for (const kind of ["merchants", "virtual_accounts", "cardholders", "cards", "payment_links", "outcomes", "timeline", "steps"]) expect(text, kind).toContain(`\n## ${kind}\n`);
    for (const step of ["request", "advance", "expect_webhook", "expect_balance"]) expect(text, step).toContain(`\n### ${step}\n`);
  });

  it("events: every event type", () => {
    const listed = rows(section(page("events-and-signatures.md"), "## Events")).slice(1).map((r) => r[0]!.replace(/`/g, ""));
    expect(listed).toEqual([...EVENT_TYPES]);
  });

  it("integration checks: every rule with its severity, in the catalogue's order", () => {
    const listed = rows(page("integration-checks.md")).slice(1).map((r) => [r[0]!.replace(/`/g, ""), r[1]]);
    expect(listed).toEqual(CHECK_RULES.map((r) => [r.id, r.severity]));
  });

  it("webhook doctor: every case, in the order it is sent", () => {
    const listed = rows(section(page("webhook-doctor.md"), "## The battery")).slice(1).map((r) => r[0]!.replace(/`/g, ""));
    expect(listed).toEqual(CASES.map((c) => c.id));
  });
});
