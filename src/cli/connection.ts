/**
 * How a CLI command reaches a running sandbox as one merchant: `--url` (default http://127.0.0.1:4010,
 * env MERCHANT_SANDBOX_URL), `--key` and `--secret` (env MERCHANT_SANDBOX_API_KEY and
 * MERCHANT_SANDBOX_API_SECRET), and a GET of a control route with them.
 */
export const DEFAULT_SANDBOX_URL = "http://127.0.0.1:4010";

/** The parseArgs options every such command takes. */
export const CONNECTION_OPTIONS = {
  url: { type: "string" },
  key: { type: "string" },
  secret: { type: "string" },
} as const;

export const CONNECTION_USAGE = `  --url URL         The sandbox (default ${DEFAULT_SANDBOX_URL}; env MERCHANT_SANDBOX_URL)
  --key KEY         The merchant's API key (env MERCHANT_SANDBOX_API_KEY)
  --secret SECRET   The merchant's API secret (env MERCHANT_SANDBOX_API_SECRET)`;

export interface Connection {
  url: string;
  key: string;
  secret: string;
}

/** The connection from the flags, then the environment; or what is missing. */
export function connectionFrom(values: { url?: string; key?: string; secret?: string }, env: NodeJS.ProcessEnv): Connection | { error: string } {
  const url = (values.url ?? env.MERCHANT_SANDBOX_URL ?? DEFAULT_SANDBOX_URL).replace(/\/+$/, "");
  const key = values.key ?? env.MERCHANT_SANDBOX_API_KEY;
  const secret = values.secret ?? env.MERCHANT_SANDBOX_API_SECRET;
  if (!/^https?:\/\/[^/]/.test(url)) return { error: `--url must be an http(s) URL, not ${JSON.stringify(url)}` };
  if (!key || !secret) return { error: "the merchant's keys are needed: --key and --secret (or MERCHANT_SANDBOX_API_KEY and MERCHANT_SANDBOX_API_SECRET)" };
  return { url, key, secret };
}

/** GET `path` as the merchant: the JSON body of a success (`{ success: true, data }`), or why there is none (unreachable, refused). */
export async function getJson(conn: Connection, path: string): Promise<{ body: { success: true; data: unknown } } | { error: string }> {
  let res: Response;
  try {
    res = await fetch(`${conn.url}${path}`, { headers: { "x-api-key": conn.key, "x-api-secret": conn.secret } });
  } catch (err) {
    const cause = (err as { cause?: { message?: string } }).cause?.message;
    return { error: `cannot reach the sandbox at ${conn.url}${cause ? ` (${cause})` : ""}: is it running? (merchant-sandbox start)` };
  }
  let body: { success?: boolean; data?: unknown; message?: string; error_code?: string };
  try {
    body = (await res.json()) as typeof body;
  } catch {
    return { error: `${conn.url}${path} answered ${res.status} without JSON: is it a merchant-sandbox?` };
  }
  if (!res.ok || body.success !== true) return { error: `${conn.url}${path} answered ${res.status} ${body.error_code ?? ""}: ${body.message ?? "refused"}`.replace("  ", " ") };
  return { body: body as { success: true; data: unknown } };
}
