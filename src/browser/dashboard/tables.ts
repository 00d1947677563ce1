/**
 * The tables: a filter bar, a pager button or a query link rewrites its table's fields of the section's
 * `data-query` (the other table's fields stay) and reloads the section; the focus then goes back to the
 * control used, or to what the link names. A table's scroll region is a Tab stop only while it scrolls
 * sideways.
 */
import { byId, closest } from "./dom.js";
import { loadSection } from "./live.js";

const TABLE_FIELDS = ["q", "status", "page", "per_page", "event"];

const sectionOf = (el: Element) => el.closest<HTMLElement>("[data-section]")!;

// The section's query with this table's fields (those after `prefix`) replaced by `fields`.
function setQuery(node: HTMLElement, prefix: string, fields: [string, string][]): Promise<void> {
  const params = new URLSearchParams(node.dataset.query ?? "");
  TABLE_FIELDS.forEach((name) => params.delete(prefix + name));
  fields.forEach(([name, value]) => {
    if (value !== "") params.set(name, value);
  });
  node.dataset.query = params.toString();
  return loadSection(node);
}

function focusById(id: string | null, fallback?: string): void {
  const el = (id ? document.getElementById(id) : null) ?? (fallback ? document.getElementById(fallback) : null);
  if (!el) return;
  if (!el.matches("a, button, input, select, textarea, [tabindex]")) el.setAttribute("tabindex", "-1");
  el.focus();
  el.scrollIntoView({ block: "nearest" });
}

function fitRegions(): void {
  document.querySelectorAll(".scroll-x").forEach((region) => {
    if (region.scrollWidth > region.clientWidth + 1) region.setAttribute("tabindex", "0");
    else region.removeAttribute("tabindex");
  });
}

let fitting = false;
function fitSoon(): void {
  if (fitting) return;
  fitting = true;
  requestAnimationFrame(() => {
    fitting = false;
    fitRegions();
  });
}

export function startTables(): void {
  document.addEventListener("submit", (event) => {
    const form = event.target as HTMLFormElement;
    if (!form.hasAttribute("data-filter")) return;
    event.preventDefault();
    // Enter in the search box submits through the form's button: the box keeps the focus then.
    const active = document.activeElement;
    const used = (active && form.contains(active) && active.id) || ((event as SubmitEvent).submitter?.id ?? "");
    const fields: [string, string][] = [];
    for (const el of Array.from(form.elements) as HTMLInputElement[]) if (el.name) fields.push([el.name, el.value.trim()]);
    void setQuery(sectionOf(form), form.getAttribute("data-filter") ?? "", fields).then(() => {
      if (used) focusById(used);
    });
  });
  document.addEventListener("click", (event) => {
    const target = closest(event, "button[data-page-to], a[data-query-set]");
    if (!target) return;
    event.preventDefault();
    const node = sectionOf(target);
    if (target.hasAttribute("data-page-to")) {
      const prefix = target.getAttribute("data-page-prefix") ?? "";
      const fields: [string, string][] = [[`${prefix}page`, target.getAttribute("data-page-to") ?? "1"]];
      const params = new URLSearchParams(node.dataset.query ?? "");
      TABLE_FIELDS.filter((name) => name !== "page").forEach((name) => {
        const v = params.get(prefix + name);
        if (v !== null) fields.push([prefix + name, v]);
      });
      const id = target.id;
      // The last page has no Next: the focus then goes to the count of what is shown.
      void setQuery(node, prefix, fields).then(() => focusById(id, id.replace(/-(next|prev)$/, "-count")));
      return;
    }
    const prefix = target.getAttribute("data-query-prefix") ?? "";
    const set: [string, string][] = [];
    new URLSearchParams(target.getAttribute("data-query-set") ?? "").forEach((value, name) => set.push([prefix + name, value]));
    const focus = target.getAttribute("data-focus");
    void setQuery(node, prefix, set).then(() => focusById(focus));
  });
  new MutationObserver(fitSoon).observe(byId("app"), { childList: true, subtree: true });
  window.addEventListener("resize", fitSoon);
  // An opened panel (a delivery's payload) may widen its table.
  document.addEventListener("toggle", fitSoon, true);
}
