/** @jsxImportSource hono/jsx */
/**
 * The dashboard's live updates: every 2 s each section asks for its fragment with the ETag of what it
 * shows; an unchanged section is answered 304 and costs no DOM work, a changed one is merged into the
 * page (idiomorph), so open details, focus, a text selection, scroll and typed input survive. A status
 * line says whether the view is live or paused, and why.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

/**
 * idiomorph (0BSD, ~10 KB minified), inlined into the page under its nonce: the dashboard works
 * offline and needs no script route. Resolved from this module (src/, dist/ or the CLI bundle), so it
 * is read from the installed dependency wherever the package runs.
 */
export function idiomorphScript(): string {
  // Read on the first dashboard page, not at module load: resolving the package walks node_modules
  // (~2-10 ms of every cold start, for a page most starts never serve).
  idiomorph ??= readFileSync(createRequire(import.meta.url).resolve("idiomorph/dist/idiomorph.min.js"), "utf8");
  return idiomorph;
}
let idiomorph: string | undefined;

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
      <button type="button" class="secondary" id="live-toggle">Pause updates</button>
    </div>
  );
}

/**
 * Runs inside the dashboard script's closure (it uses headers(), creds() and signOut()). Defines
 * loadSection(node) and load(), the contract the table controls share: a section's URL is its id plus
 * its `data-query`, and `section:updated` is fired on the node after its content changed.
 *
 * Rows carry `data-key` (a reference or id); idiomorph matches elements by id only, so before each
 * merge a keyed row without an id gets one made from its section and key, on both sides: a new payout
 * at the top of the table is then inserted, not written over the first row (which would move an open
 * delivery's details onto another delivery).
 */
export const LIVE_SCRIPT = String.raw`
  var REFRESH_MS = 2000;
  var live = { byUser: false, unreachable: false, updatedAt: null };
  function sectionNodes() { return Array.prototype.slice.call(document.querySelectorAll("[data-section]")); }
  function keyRows(root, section) {
    Array.prototype.forEach.call(root.querySelectorAll("[data-key]"), function (el) {
      if (!el.id) el.id = "row-" + section + "-" + el.getAttribute("data-key");
    });
  }
  // What the user changed wins over the server's copy: an open <details>, a typed value, a ticked box,
  // a chosen option. Untouched fields still take the server's new value.
  function userOwns(name, el) {
    if (name === "open") return el.tagName === "DETAILS";
    if (name === "value") return (el.tagName === "INPUT" || el.tagName === "TEXTAREA") && el.type !== "hidden" && el.value !== el.defaultValue;
    if (name === "checked") return el.tagName === "INPUT" && el.checked !== el.defaultChecked;
    if (name === "selected") return el.tagName === "OPTION" && el.selected !== el.defaultSelected;
    return false;
  }
  function merge(node, html) {
    var section = node.getAttribute("data-section");
    var incoming = document.createElement("div");
    incoming.innerHTML = html;
    keyRows(incoming, section);
    keyRows(node, section);
    var active = document.activeElement;
    var hadFocus = active && active !== document.body && node.contains(active);
    Idiomorph.morph(node, Array.prototype.slice.call(incoming.childNodes), {
      morphStyle: "innerHTML",
      callbacks: { beforeAttributeUpdated: function (name, el) { return !userOwns(name, el); } },
    });
    // idiomorph keeps a matched element in place, and restores focus only to fields: put it back on a
    // button that was moved, or on the section's heading if what had it is gone.
    if (hadFocus && document.activeElement !== active) {
      var target = active.isConnected ? active : node.closest("section").querySelector("h2");
      if (target) target.focus({ preventScroll: true });
    }
    node.dispatchEvent(new CustomEvent("section:updated", { bubbles: true, detail: { section: section } }));
  }
  function reached(ok) {
    live.unreachable = !ok;
    if (ok) live.updatedAt = new Date();
    renderLive();
  }
  // One section's fragment, with its data-query (a table's search, filters and page). The ETag goes
  // along only for the same URL: a new query must get its own content, not a 304 for the old one.
  function loadSection(node) {
    var query = node.getAttribute("data-query");
    // The browser's time zone goes along too: the server writes each time in UTC and in that zone.
    var url = "/dashboard/fragments/" + node.getAttribute("data-section") + "?" + (query ? query + "&" : "") + "tz=" + encodeURIComponent(ZONE);
    var extra = node.liveUrl === url && node.liveTag ? { "if-none-match": node.liveTag } : {};
    var seq = (node.liveSeq || 0) + 1;
    node.liveSeq = seq;
    node.liveLoading = true;
    return fetch(url, { headers: headers(extra), cache: "no-store" }).then(function (r) {
      if (r.status === 401) { signOut("Your keys were not accepted."); return; }
      if (r.status === 304) { reached(true); return; }
      if (!r.ok) throw new Error("HTTP " + r.status);
      var tag = r.headers.get("etag");
      return r.text().then(function (html) {
        // A later load of this node (a new query, an action's refresh) has the newer answer.
        if (seq !== node.liveSeq) return;
        merge(node, html);
        node.liveUrl = url;
        node.liveTag = tag;
        reached(true);
      });
    }).catch(function () { reached(false); }).then(function () { if (seq === node.liveSeq) node.liveLoading = false; });
  }
  function load() { return Promise.all(sectionNodes().map(loadSection)); }
  function formName(form) {
    var heading = form.closest("section") && form.closest("section").querySelector("h2");
    return form.getAttribute("aria-label") || (heading ? heading.textContent : "a form");
  }
  // Why this section waits: a form in it holds input not yet sent, or the selection is in it.
  function waiting(node) {
    var form = node.querySelector("form[data-unsaved]");
    if (form) return { form: formName(form) };
    var sel = document.getSelection();
    if (sel && !sel.isCollapsed && sel.rangeCount && sel.getRangeAt(0).intersectsNode(node)) return { selection: true };
    return null;
  }
  function clock(d) {
    function two(n) { return (n < 10 ? "0" : "") + n; }
    return two(d.getHours()) + ":" + two(d.getMinutes()) + ":" + two(d.getSeconds());
  }
  function renderLive() {
    var state;
    if (live.byUser) state = "Paused by you";
    else if (document.hidden) state = "Paused: tab in the background";
    else if (live.unreachable) state = "Can't reach the sandbox; retrying";
    else {
      var reasons = sectionNodes().map(waiting).filter(Boolean);
      var forms = reasons.filter(function (r) { return r.form; }).map(function (r) { return r.form; });
      if (forms.length) state = "Paused while you type in " + forms.join(", ");
      else if (reasons.length) state = "Paused: text is selected";
      else state = "Live";
    }
    var node = document.getElementById("live-state");
    // Written only on a change of state, so a screen reader hears each state once.
    if (node.textContent !== state) node.textContent = state;
    var at = live.updatedAt ? clock(live.updatedAt) : "";
    document.getElementById("live-time").textContent = !at ? "" : state === "Live" ? ": updated " + at : " (last updated " + at + ")";
    var toggle = document.getElementById("live-toggle");
    toggle.textContent = live.byUser ? "Resume updates" : "Pause updates";
  }
  function tick() {
    if (!creds() || document.getElementById("app").hidden) return;
    renderLive();
    if (live.byUser || document.hidden) return;
    sectionNodes().forEach(function (node) { if (!node.liveLoading && !waiting(node)) loadSection(node); });
  }
  // A form is "unsaved" while a field differs from what the page gave it; sending or resetting it ends that.
  function markForm(form) {
    if (!form || !form.closest("[data-section]")) return;
    var changed = Array.prototype.some.call(form.elements, function (el) {
      if (el.tagName === "SELECT") return Array.prototype.some.call(el.options, function (o) { return o.selected !== o.defaultSelected; });
      if (el.type === "checkbox" || el.type === "radio") return el.checked !== el.defaultChecked;
      return "value" in el && el.tagName !== "BUTTON" && el.value !== el.defaultValue;
    });
    if (changed) form.setAttribute("data-unsaved", ""); else form.removeAttribute("data-unsaved");
    renderLive();
  }
  document.addEventListener("input", function (event) { markForm(event.target.form); });
  document.addEventListener("change", function (event) { markForm(event.target.form); });
  document.addEventListener("submit", function (event) { event.target.removeAttribute("data-unsaved"); renderLive(); }, true);
  document.addEventListener("reset", function (event) { event.target.removeAttribute("data-unsaved"); renderLive(); }, true);
  document.addEventListener("selectionchange", renderLive);
  // Back from the background: catch up at once rather than at the next tick.
  document.addEventListener("visibilitychange", tick);
  document.getElementById("live-toggle").addEventListener("click", function () {
    live.byUser = !live.byUser;
    tick();
    renderLive();
  });
  setInterval(tick, REFRESH_MS);
`;
