/**
 * docs/reference/configuration.md: every start setting from the one schema that parses them, and the
 * merchant settings with the defaults a new merchant gets.
 */
import { z } from "zod";
import { defaultOf, SETTING_KEYS, SettingsSchema, type Settings } from "../../../src/config.js";
import { DEFAULTS } from "../../../src/domain/merchant.js";
import { SETTINGS as MERCHANT_SETTINGS } from "../../../src/sandbox/merchants/routes.js";
import { code, fenced, table, thousands, type ReferencePage } from "../markdown.js";

const flag = (key: string) => `--${key.replaceAll("_", "-")}`;
export const envOf = (key: string) => `MERCHANT_SANDBOX_${key.toUpperCase()}`;

/** What the schema's one-line description leaves out, where the README said more. */
const MORE: Partial<Record<keyof Settings, string>> = {
  host: "The Docker image sets `0.0.0.0`.",
  trust_proxy: "Otherwise the client IP is the socket's.",
  fixtures: "They are validated at start.",
  shared: "For a sandbox others reach over a network.",
  max_merchants: "Past it sign-up answers 429 `MERCHANT_LIMIT_REACHED`; `DELETE /sandbox/v1/merchant` frees a place.",
  request_log: "`merchant-sandbox logs` prints it.",
};

/** The schema under its default/optional wrappers: where its bounds and options live. */
function inner(schema: z.ZodType): z.ZodType {
  let s = schema as z.ZodType & { unwrap?: () => z.ZodType };
  while (typeof s.unwrap === "function" && !(s instanceof z.ZodNumber)) s = s.unwrap() as typeof s;
  return s;
}

/** The values a setting takes: a number's range, an enum's options, a switch's two states. */
function valuesOf(key: keyof Settings): string {
  const s = inner(SettingsSchema.shape[key]);
  if (s instanceof z.ZodNumber) {
    const min = s.minValue ?? 0;
    const max = thousands(s.maxValue ?? Infinity);
    return s.safeParse(min).success ? `${thousands(min)} to ${max}` : `above ${thousands(min)}, at most ${max}`;
  }
  if (s instanceof z.ZodEnum) return s.options.map((o) => code(String(o))).join(", ");
  if (s.safeParse(true).success) return "`true`, `false` (or `1`, `0`)";
  return "";
}

function settingRows(): string[][] {
  return SETTING_KEYS.map((key) => {
    const def = defaultOf(key);
    const meaning = [SettingsSchema.shape[key].description ?? "", MORE[key] ?? ""].filter(Boolean).join(". ");
    return [code(flag(key)), code(envOf(key)), def ? code(def) : "", valuesOf(key), meaning];
  });
}

const EXAMPLE_FILE = { port: Number(defaultOf("port")), request_log: Number(defaultOf("request_log")), scenario: ["scenarios/05-payout-completed.yaml"] };

export function configurationPage(): ReferencePage {
  return {
    name: "configuration.md",
    sources: ["src/config.ts", "src/sandbox/merchants/routes.ts", "src/domain/merchant.ts"],
    body: `
# Configuration

## Start settings

\`merchant-sandbox start\` takes each setting from a flag, an environment variable or a config file. A flag
beats its variable, and both beat the file. \`merchant-sandbox --help\` prints the same list. One sandbox for a
team or a CI fleet: [A shared team instance](../how-to/shared-team-instance.md).

${table(
  ["Flag", "Environment", "Default", "Values", "Meaning"],
  [...settingRows(), [code("--config"), code(envOf("config")), "", "a file path", "A JSON or YAML file of these settings (see below)"]],
)}

The quotas and the connection cap have no fixed default: they follow \`--shared\` (and \`--trust-proxy\`), as their
meaning says; every bound is in [Bounds](bounds.md).

### The config file

\`--config FILE\` (or \`${envOf("config")}\`) names a file whose keys are the setting names above, in
snake_case (\`request_log\`) or as the flag spells them (\`request-log\`). A file ending \`.json\` is read as
strict JSON, any other as YAML. An unknown key stops the start with the list of known ones. Lists (\`scenario\`)
are a list or one comma-separated string.

${fenced(JSON.stringify(EXAMPLE_FILE, null, 2), "json")}

## Merchant settings

A merchant's settings are given to \`POST /sandbox/v1/merchants\` (sign-up), \`PATCH /sandbox/v1/merchant\`
and scenario files (see [Control API](control-api.md) and [Scenario format](scenario-format.md)).
Sign-up and scenarios also take \`wallet_balance\`, the opening balance in Naira (default
${thousands(DEFAULTS.wallet_balance)}), credited as one ledger entry.

${MERCHANT_SETTINGS}

The demo merchants' settings are in \`fixtures/merchants.json\`.
`,
  };
}
