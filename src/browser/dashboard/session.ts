/**
 * The signed-in merchant's keys, kept in this tab's sessionStorage only, and the merchants signed in
 * before in this tab (switching back is one click). Signing out is announced as an event: each module
 * clears what it showed.
 */
export interface Credentials {
  apiKey: string;
  apiSecret: string;
}
export interface KnownMerchant extends Credentials {
  name: string;
}

const KEY = "merchant-sandbox:credentials";
const KNOWN = "merchant-sandbox:merchants";
/** Most merchants remembered for switching. */
const MAX_KNOWN = 8;

function read<T>(key: string): T | null {
  try {
    return JSON.parse(sessionStorage.getItem(key) ?? "null") as T | null;
  } catch {
    return null;
  }
}

export function creds(): Credentials | null {
  const c = read<Credentials>(KEY);
  return c && typeof c.apiKey === "string" && typeof c.apiSecret === "string" ? c : null;
}

export function setCreds(c: Credentials): void {
  sessionStorage.setItem(KEY, JSON.stringify(c));
}

/** The signed-in keys as request headers, with `extra`. */
export function headers(extra: Record<string, string> = {}): Record<string, string> {
  const c = creds();
  return { "x-api-key": c?.apiKey ?? "", "x-api-secret": c?.apiSecret ?? "", ...extra };
}

export function knownMerchants(): KnownMerchant[] {
  const list = read<KnownMerchant[]>(KNOWN);
  return Array.isArray(list) ? list.filter((m) => m && typeof m.apiKey === "string" && typeof m.apiSecret === "string") : [];
}

/** Remembers a merchant this tab signed in to (newest first, each key once). */
export function remember(m: KnownMerchant): void {
  const list = [m, ...knownMerchants().filter((k) => k.apiKey !== m.apiKey)].slice(0, MAX_KNOWN);
  sessionStorage.setItem(KNOWN, JSON.stringify(list));
}

export function forget(apiKey: string): void {
  sessionStorage.setItem(KNOWN, JSON.stringify(knownMerchants().filter((k) => k.apiKey !== apiKey)));
}

/**
 * Ends the session; `message` says why (shown on the sign-in form). Keys the sandbox refused are
 * forgotten; signing out by hand forgets every merchant this tab knew, so no secret stays behind.
 */
export function signOut(message = ""): void {
  const c = creds();
  if (!message) sessionStorage.removeItem(KNOWN);
  else if (c) forget(c.apiKey);
  sessionStorage.removeItem(KEY);
  document.dispatchEvent(new CustomEvent("dashboard:signout", { detail: { message } }));
}

/** Asks the sandbox whose keys these are: the merchant's settings, or null when they match none. */
export async function whoIs(c: Credentials): Promise<{ business_name: string; merchant_id: string } | null> {
  const r = await fetch("/sandbox/v1/merchant", { headers: { "x-api-key": c.apiKey, "x-api-secret": c.apiSecret } });
  if (!r.ok) return null;
  const json = (await r.json()) as { data: { business_name: string; merchant_id: string } };
  return json.data;
}
