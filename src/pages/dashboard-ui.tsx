/** @jsxImportSource hono/jsx */
/**
 * The dashboard's small components, one of each: status chips, money, times, empty states with a
 * next step, copyable snippets, and the links to an object's story. The look is in
 * src/browser/styles/components.css.
 */
import { createContext, useContext, type Child } from "hono/jsx";

// ---- Money -------------------------------------------------------------------------------------

/** Naira from a Naira amount (the views' unit), two decimals, grouped. */
export const nairaText = (n: number) => `₦${n.toLocaleString("en-NG", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const usdText = (n: number) => `$${n.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** An amount as a table cell or inline figure: tabular, right-aligned in cells, never broken. `sign`: a debit or credit. */
export function Money(props: { amount: number; currency?: "NGN" | "USD"; sign?: "+" | "−"; testid?: string }) {
  const text = (props.sign ?? "") + (props.currency === "USD" ? usdText(props.amount) : nairaText(props.amount));
  return <span class="money" data-testid={props.testid}>{text}</span>;
}

// ---- Status chips ------------------------------------------------------------------------------

type Tone = "ok" | "warn" | "bad" | "info" | "neutral";
const TONES: Record<string, Tone> = {
  completed: "ok", success: "ok", successful: "ok", paid: "ok", delivered: "ok", active: "ok", approved: "ok", APPROVED: "ok", ok: "ok", pass: "ok", passed: "ok",
  processing: "info", pending: "warn", pending_approval: "warn", PENDING: "warn", held: "warn", deferred: "warn", frozen: "warn", warn: "warn", no_url: "neutral",
  failed: "bad", fail: "bad", declined: "bad", expired: "neutral", terminated: "neutral", rejected: "bad",
};
export const toneOf = (status: string): Tone => TONES[status] ?? "neutral";

/** A status as text in a coloured chip (the text says it; the colour only helps). */
export function Chip(props: { status: string; label?: string; testid?: string }) {
  const tone = toneOf(props.status);
  return <span class={`chip ${tone}`} data-testid={props.testid}>{props.label ?? props.status.replaceAll("_", " ")}</span>;
}

// ---- Times -------------------------------------------------------------------------------------

/** The merchant's clock for this render, in ms (the fragment route provides it): relative times count from it. */
export const ClockNow = createContext<number | null>(null);

const UNITS: [number, string][] = [
  [86_400_000, "d"],
  [3_600_000, "h"],
  [60_000, "min"],
  [1_000, "s"],
];

/** "5 min ago", "in 2 h", "just now"; past 30 days the date. Counted on the merchant's clock. */
function relativeTime(ms: number, now: number): string {
  const diff = ms - now;
  const abs = Math.abs(diff);
  if (abs < 5_000) return "just now";
  if (abs >= 30 * 86_400_000) return new Date(ms).toISOString().slice(0, 10);
  const [size, unit] = UNITS.find(([s]) => abs >= s)!;
  const n = Math.floor(abs / size);
  return diff < 0 ? `${n} ${unit} ago` : `in ${n} ${unit}`;
}

/** Relative when the render knows the clock (else UTC), with UTC and `local` in a tip on hover and focus. */
export function TimeTip(props: { iso: string; utc: string; local: string | null; focusable?: boolean }) {
  const now = useContext(ClockNow);
  const ms = Date.parse(props.iso);
  const shown = now !== null && Number.isFinite(ms) ? relativeTime(ms, now) : props.utc;
  return (
    <time class="when" datetime={props.iso} tabindex={props.focusable ? 0 : undefined}>
      {shown}
      <span class="tip" role="tooltip">{props.utc}{props.local ? `\n${props.local}` : ""}</span>
    </time>
  );
}

// ---- Empty states and snippets -------------------------------------------------------------------

/**
 * A block of text to copy (a curl call, a scenario). `{{key}}` and `{{secret}}` in `text` are shown as
 * $MS_KEY and $MS_SECRET and filled in with the signed-in merchant's keys only when copied (the script
 * does it), so no secret is ever in the server's HTML.
 */
export function Snippet(props: { id: string; text: string; what: string }) {
  const shown = props.text.replaceAll("{{key}}", "$MS_KEY").replaceAll("{{secret}}", "$MS_SECRET");
  const withKeys = props.text.includes("{{");
  return (
    <div class="snippet">
      <pre id={props.id} data-template={withKeys ? props.text : undefined}>{shown}</pre>
      {/* The visible text starts the accessible name, as voice control users say what they see. */}
      <button type="button" class="secondary small copy" data-copy={props.id} aria-label={`Copy ${props.what}${withKeys ? " with your keys" : ""}`}>Copy</button>
      {withKeys ? <span class="muted"> Copying fills in your keys.</span> : null}
    </div>
  );
}

/** What a list says when it has nothing yet: what would be here, and the first step to make one. */
export function EmptyState(props: { id: string; title: string; children?: Child; snippet?: { text: string; what: string } }) {
  return (
    <div class="empty" data-testid="empty-state">
      <h3>{props.title}</h3>
      {props.children}
      {props.snippet ? <Snippet id={`${props.id}-snippet`} text={props.snippet.text} what={props.snippet.what} /> : null}
    </div>
  );
}

/** A curl call as a snippet: the sandbox's own URL, the keys filled in on copy. */
export function curl(baseUrl: string, method: string, path: string, body?: unknown): string {
  const lines = [`curl -s -X ${method} ${baseUrl}${path}`, `  -H "X-Api-Key: {{key}}" -H "X-Api-Secret: {{secret}}"`];
  if (body !== undefined) lines.push(`  -H "Content-Type: application/json"`, `  -d '${JSON.stringify(body)}'`);
  return lines.join(" \\\n");
}

// ---- Stories -----------------------------------------------------------------------------------

/** The objects that have a story view, and where it lives under /dashboard. */
export const STORY_PATHS = {
  payout: "payouts",
  vtu: "vtu",
  checkout: "payment-links",
  va_payment: "transfers",
  card: "cards",
} as const;
export type StoryKind = keyof typeof STORY_PATHS;

/** The list view each kind of story belongs to (its navigation link is current on the story). */
export const STORY_LISTS: Record<StoryKind, string> = { payout: "payouts", vtu: "vtu", checkout: "payment-links", va_payment: "virtual-accounts", card: "cards" };

export const storyHref = (kind: StoryKind, id: string | number) => `/dashboard/${STORY_PATHS[kind]}/${encodeURIComponent(String(id))}`;

/** A link to an object's story, its id as the text. */
export function StoryLink(props: { kind: StoryKind; id: string | number; children?: Child }) {
  return <a href={storyHref(props.kind, props.id)} class="mono">{props.children ?? String(props.id)}</a>;
}
