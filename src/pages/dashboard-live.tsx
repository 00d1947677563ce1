/** @jsxImportSource hono/jsx */
/**
 * The server's side of the dashboard's live updates (src/browser/dashboard/live.ts): each fragment's
 * ETag, so an unchanged section costs a 304, and the status line that says whether the view is live.
 */
import { createHash } from "node:crypto";

/** A strong validator for one rendered fragment: the same HTML, the same tag. */
export const etagOf = (html: string) => `"${createHash("sha256").update(html).digest("base64url")}"`;

/** If-None-Match holds `etag` (or `*`); weak tags compare equal to strong ones, as RFC 9110 says for this header. */
export function isFresh(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(",").some((tag) => {
    const t = tag.trim().replace(/^W\//, "");
    return t === "*" || t === etag;
  });
}

/**
 * The status line near the top of the signed-in view. Only `live-state` is the live region, and the
 * script writes it only when the state changes: the time beside it moves every update and must not be
 * read out every 2 s.
 */
export function LiveLine() {
  return (
    <div class="row live-line" id="live">
      <p>
        <span id="live-state" role="status" aria-live="polite" aria-atomic="true">Live</span>
        <span id="live-time" class="muted"></span>
      </p>
      <button type="button" class="secondary small" id="live-toggle">Pause updates</button>
      <button type="button" class="secondary small" id="refresh">Refresh</button>
    </div>
  );
}
