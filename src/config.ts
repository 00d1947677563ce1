/**
 * Every setting of the server, as one zod schema with its default. Each can come from a flag
 * (`--trust-proxy`) or an environment variable (`MERCHANT_SANDBOX_TRUST_PROXY`); flags win.
 * Parsing returns errors as values: nothing here exits the process.
 */
import { parseArgs } from "node:util";
import { z } from "zod";

const bool = z.union([z.boolean(), z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1")]);

export const SettingsSchema = z.object({
  host: z.string().min(1).default("127.0.0.1").describe("Address to listen on"),
  port: z.coerce.number().int().min(0).max(65535).default(4010).describe("Port to listen on (0 = any free port)"),
  trust_proxy: bool.default(false).describe("Take the client IP from X-Forwarded-For (only behind your own proxy)"),
  public_url: z.url().optional().describe("Base URL for payment_link/checkout_url (default: the request's origin)"),
  seed: z.string().min(1).optional().describe("Seed for deterministic identifiers, account numbers and PANs"),
  fixtures: z.string().min(1).optional().describe("Folder with replacement fixture files"),
});
export type Settings = z.infer<typeof SettingsSchema>;

const KEYS = Object.keys(SettingsSchema.shape) as Array<keyof Settings>;
const flag = (key: string) => key.replaceAll("_", "-");

export function parseSettings(argv: string[], env: NodeJS.ProcessEnv): { settings: Settings } | { error: string } {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        host: { type: "string" },
        port: { type: "string" },
        "trust-proxy": { type: "boolean" },
        "public-url": { type: "string" },
        seed: { type: "string" },
        fixtures: { type: "string" },
      },
    }));
  } catch (err) {
    return { error: (err as Error).message };
  }
  const raw: Record<string, unknown> = {};
  for (const key of KEYS) {
    const fromEnv = env[`MERCHANT_SANDBOX_${key.toUpperCase()}`];
    const fromFlag = values[flag(key)];
    if (fromFlag !== undefined) raw[key] = fromFlag;
    else if (fromEnv !== undefined && fromEnv !== "") raw[key] = fromEnv;
  }
  const result = SettingsSchema.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const key = String(issue.path[0]);
    return { error: `invalid setting ${key} (--${flag(key)} / MERCHANT_SANDBOX_${key.toUpperCase()}): ${issue.message}` };
  }
  return { settings: result.data };
}

export function settingsHelp(): string {
  return KEYS.map((key) => {
    const schema = SettingsSchema.shape[key];
    const def = schema.safeParse(undefined);
    const shown = def.success && def.data !== undefined ? ` (default: ${String(def.data)})` : "";
    return `  --${flag(key).padEnd(14)} MERCHANT_SANDBOX_${key.toUpperCase().padEnd(12)} ${schema.description ?? ""}${shown}`;
  }).join("\n");
}
