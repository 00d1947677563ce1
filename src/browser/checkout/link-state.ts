/**
 * What the page's script knows of its link: the server's data island on load, then each answer of
 * the status poll and of the simulated transfer. Both are checked here, never trusted as they come.
 */

export type LinkStatus = "pending" | "paid" | "expired";

export interface LinkState {
  reference: string;
  status: LinkStatus;
  expires_at: string;
  now: string;
  clock_mode: "manual" | "realtime";
  clock_speed: number;
  redirect_url: string | null;
}

export const isLinkStatus = (value: unknown): value is LinkStatus => value === "pending" || value === "paid" || value === "expired";

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

/** The link's state from a parsed JSON value, or null when it is not one. */
function linkState(value: unknown): LinkState | null {
  if (!isRecord(value)) return null;
  const { reference, status, expires_at, now, clock_mode, clock_speed, redirect_url } = value;
  if (typeof reference !== "string" || !isLinkStatus(status)) return null;
  if (typeof expires_at !== "string" || typeof now !== "string" || typeof clock_speed !== "number") return null;
  if (clock_mode !== "manual" && clock_mode !== "realtime") return null;
  if (redirect_url !== null && typeof redirect_url !== "string") return null;
  return { reference, status, expires_at, now, clock_mode, clock_speed, redirect_url };
}

/** The state the server put in the page's `<script type="application/json" id="link-data">`. */
export function readLinkData(): LinkState | null {
  const text = document.getElementById("link-data")?.textContent;
  if (!text) return null;
  try {
    return linkState(JSON.parse(text));
  } catch {
    return null;
  }
}

/** The link's state from a `{ success, data }` reply of the page's routes, or null (an error envelope). */
export function stateOfReply(body: unknown): LinkState | null {
  return isRecord(body) && body.success === true ? linkState(body.data) : null;
}

/** The error envelope's message, if the reply is one. */
export function messageOfReply(body: unknown): string | null {
  return isRecord(body) && typeof body.message === "string" ? body.message : null;
}

/**
 * Only a web page (http or https): a script URL would run on this origin, where the dashboard keeps
 * merchants' API keys. The server already drops other schemes; this does not rely on it.
 */
export function webUrl(url: string | null): string | null {
  if (url === null) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : null;
  } catch {
    return null;
  }
}
