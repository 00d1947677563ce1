/**
 * Live updates: every 2 s each section of the shown view (and the merchant in the top bar) asks for its
 * fragment with the ETag of what it shows; an unchanged one is answered 304 and costs no DOM work, a
 * changed one is merged into the page (idiomorph), so open details, focus, a text selection, scroll and
 * typed input survive. A status line says whether the view is live or paused, and why.
 */
import { Idiomorph } from "idiomorph";
import { byId, ZONE } from "./dom.js";
import { creds, headers, signOut } from "./session.js";

const REFRESH_MS = 2000;

interface SectionNode extends HTMLElement {
  liveUrl?: string;
  liveTag?: string | null;
  liveSeq?: number;
  liveLoading?: boolean;
}

const live = { byUser: false, unreachable: false, updatedAt: null as Date | null };

/** The sections being shown: the current view's and the top bar's. */
export function sectionNodes(): SectionNode[] {
  const view = document.querySelector(".view:not([hidden])");
  const inView = view ? Array.from(view.querySelectorAll<SectionNode>("[data-section]")) : [];
  return [...Array.from(document.querySelectorAll<SectionNode>(".topbar [data-section]")), ...inView];
}

/**
 * Rows carry `data-key`; idiomorph matches elements by id only, so before each merge a keyed row gets an
 * id made from its section and key, on both sides: a new row at the top is then inserted, not written
 * over the first row (which would move an open delivery's details onto another delivery).
 */
function keyRows(root: ParentNode, section: string): void {
  root.querySelectorAll<HTMLElement>("[data-key]").forEach((el) => {
    if (!el.id) el.id = `row-${section}-${el.dataset.key}`;
  });
}

// What the user changed wins over the server's copy: an open <details>, a typed value, a ticked box, a
// chosen option. Untouched fields still take the server's new value.
function userOwns(name: string, el: Element): boolean {
  if (name === "open") return el.tagName === "DETAILS";
  if (name === "value") return (el instanceof HTMLInputElement && el.type !== "hidden" && el.value !== el.defaultValue) || (el instanceof HTMLTextAreaElement && el.value !== el.defaultValue);
  if (name === "checked") return el instanceof HTMLInputElement && el.checked !== el.defaultChecked;
  if (name === "selected") return el instanceof HTMLOptionElement && el.selected !== el.defaultSelected;
  return false;
}

function merge(node: SectionNode, html: string): void {
  const section = node.dataset.section ?? "";
  const incoming = document.createElement("div");
  incoming.innerHTML = html;
  keyRows(incoming, section);
  keyRows(node, section);
  const active = document.activeElement as HTMLElement | null;
  const hadFocus = !!active && active !== document.body && node.contains(active);
  Idiomorph.morph(node, Array.from(incoming.childNodes), {
    morphStyle: "innerHTML",
    callbacks: { beforeAttributeUpdated: (name: string, el: Element) => !userOwns(name, el) },
  });
  // idiomorph keeps a matched element in place, and restores focus only to fields: put it back on a
  // button that was moved, or on the section's heading if what had it is gone.
  if (hadFocus && active && document.activeElement !== active) {
    const target = active.isConnected ? active : node.closest("section")?.querySelector<HTMLElement>("h2");
    target?.focus({ preventScroll: true });
  }
  node.dispatchEvent(new CustomEvent("section:updated", { bubbles: true, detail: { section } }));
}

function reached(ok: boolean): void {
  live.unreachable = !ok;
  if (ok) live.updatedAt = new Date();
  renderLive();
}

/**
 * One section's fragment, with its data-query (a table's search, filters and page; a story's object).
 * The ETag goes along only for the same URL: a new query must get its own content, not a 304.
 */
export async function loadSection(node: SectionNode): Promise<void> {
  const query = node.dataset.query;
  const url = `/dashboard/fragments/${node.dataset.section}?${query ? `${query}&` : ""}tz=${encodeURIComponent(ZONE)}`;
  const extra: Record<string, string> = node.liveUrl === url && node.liveTag ? { "if-none-match": node.liveTag } : {};
  const seq = (node.liveSeq ?? 0) + 1;
  node.liveSeq = seq;
  node.liveLoading = true;
  try {
    const r = await fetch(url, { headers: headers(extra), cache: "no-store" });
    if (r.status === 401) {
      signOut("Your keys were not accepted.");
      return;
    }
    if (r.status === 304) {
      reached(true);
      return;
    }
    if (!r.ok && r.status !== 404) throw new Error(`HTTP ${r.status}`);
    const tag = r.headers.get("etag");
    const html = await r.text();
    // A later load of this node (a new query, an action's refresh) has the newer answer.
    if (seq !== node.liveSeq) return;
    merge(node, html);
    node.liveUrl = url;
    node.liveTag = tag;
    // A section with nothing to say for this merchant (a get-started panel once it has started) is hidden.
    const card = node.closest<HTMLElement>("section.card");
    if (card && node.dataset.section !== "story") card.hidden = node.querySelector("[data-empty-section]") !== null;
    reached(true);
  } catch {
    reached(false);
  } finally {
    if (seq === node.liveSeq) node.liveLoading = false;
  }
}

export function load(): Promise<unknown> {
  return Promise.all(sectionNodes().map(loadSection));
}

function formName(form: HTMLFormElement): string {
  const heading = form.closest("section")?.querySelector("h2");
  return form.getAttribute("aria-label") ?? heading?.textContent ?? "a form";
}

// Why this section waits: a form in it holds input not yet sent, or the selection is in it.
function waiting(node: HTMLElement): { form?: string; selection?: true } | null {
  const form = node.querySelector<HTMLFormElement>("form[data-unsaved]");
  if (form) return { form: formName(form) };
  const sel = document.getSelection();
  if (sel && !sel.isCollapsed && sel.rangeCount && sel.getRangeAt(0).intersectsNode(node)) return { selection: true };
  return null;
}

const two = (n: number) => (n < 10 ? "0" : "") + n;
const clock = (d: Date) => `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;

export function renderLive(): void {
  let state: string;
  if (live.byUser) state = "Paused by you";
  else if (document.hidden) state = "Paused: tab in the background";
  else if (live.unreachable) state = "Can't reach the sandbox; retrying";
  else {
    const reasons = sectionNodes().map(waiting).filter((r) => r !== null);
    const forms = reasons.flatMap((r) => (r.form ? [r.form] : []));
    if (forms.length) state = `Paused while you type in ${forms.join(", ")}`;
    else if (reasons.length) state = "Paused: text is selected";
    else state = "Live";
  }
  const node = byId("live-state");
  // Written only on a change of state, so a screen reader hears each state once.
  if (node.textContent !== state) node.textContent = state;
  const at = live.updatedAt ? clock(live.updatedAt) : "";
  byId("live-time").textContent = !at ? "" : state === "Live" ? `: updated ${at}` : ` (last updated ${at})`;
  byId("live-toggle").textContent = live.byUser ? "Resume updates" : "Pause updates";
}

function tick(): void {
  if (!creds() || byId("app").hidden) return;
  renderLive();
  if (live.byUser || document.hidden) return;
  sectionNodes().forEach((node) => {
    if (!node.liveLoading && !waiting(node)) void loadSection(node);
  });
}

// A form is "unsaved" while a field differs from what the page gave it; sending or resetting it ends that.
function markForm(form: HTMLFormElement | null | undefined): void {
  if (!form || !form.closest("[data-section]")) return;
  const changed = Array.from(form.elements).some((el) => {
    if (el instanceof HTMLSelectElement) return Array.from(el.options).some((o) => o.selected !== o.defaultSelected);
    if (el instanceof HTMLInputElement && (el.type === "checkbox" || el.type === "radio")) return el.checked !== el.defaultChecked;
    return (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) && el.value !== el.defaultValue;
  });
  if (changed) form.setAttribute("data-unsaved", "");
  else form.removeAttribute("data-unsaved");
  renderLive();
}

export function startLive(): void {
  const formOf = (event: Event) => (event.target as HTMLInputElement | null)?.form;
  document.addEventListener("input", (event) => markForm(formOf(event)));
  document.addEventListener("change", (event) => markForm(formOf(event)));
  const settled = (event: Event) => {
    (event.target as HTMLElement).removeAttribute("data-unsaved");
    renderLive();
  };
  document.addEventListener("submit", settled, true);
  document.addEventListener("reset", settled, true);
  document.addEventListener("selectionchange", renderLive);
  // Back from the background: catch up at once rather than at the next tick.
  document.addEventListener("visibilitychange", tick);
  byId("live-toggle").addEventListener("click", () => {
    live.byUser = !live.byUser;
    tick();
    renderLive();
  });
  setInterval(tick, REFRESH_MS);
}
