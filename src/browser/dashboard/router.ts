/**
 * One view at a time, each at its own URL: a link under /dashboard is followed in the page (history
 * pushState), the back button and a reload land on the same view (the server serves the same shell with
 * that view shown), and the focus goes to the new view's title. On a phone the navigation is a menu.
 */
import { byId, closest, setting } from "./dom.js";
import { load } from "./live.js";

const storyPaths = (): Record<string, string> => JSON.parse(setting("storyPaths") || "{}") as Record<string, string>;
const storyLists = (): Record<string, string> => JSON.parse(setting("storyLists") || "{}") as Record<string, string>;
const storyTitles = (): Record<string, string> => JSON.parse(setting("storyTitles") || "{}") as Record<string, string>;

interface Target {
  view: HTMLElement;
  /** The view's nav link id (a story's list). */
  nav: string;
  title: string;
  story?: { kind: string; id: string; listHref: string; listTitle: string };
}

function viewByPath(path: string): HTMLElement | null {
  return document.querySelector<HTMLElement>(`.view[data-path="${CSS.escape(path)}"]`);
}

/** The view a /dashboard path names, or null (the server answers such paths with 404 on a reload). */
function resolve(pathname: string): Target | null {
  const path = pathname.replace(/\/+$/, "") || "/dashboard";
  const view = viewByPath(path === "/dashboard" ? "/dashboard" : path);
  if (view) return { view, nav: view.dataset.view ?? "", title: view.querySelector("h1")?.textContent ?? "" };
  const parts = path.split("/").filter(Boolean);
  if (parts.length !== 3 || parts[0] !== "dashboard") return null;
  const kind = Object.entries(storyPaths()).find(([, p]) => p === parts[1])?.[0];
  if (!kind) return null;
  let id: string;
  try {
    id = decodeURIComponent(parts[2]!);
  } catch {
    return null;
  }
  const list = viewByPath(`/dashboard/${storyLists()[kind] ?? parts[1]}`);
  if (!list) return null;
  const title = `${storyTitles()[kind] ?? kind} ${id}`;
  return {
    view: byId("view-story"),
    nav: list.dataset.view ?? "",
    title,
    story: { kind, id, listHref: list.dataset.path ?? "/dashboard", listTitle: list.querySelector("h1")?.textContent ?? "" },
  };
}

export function currentView(): HTMLElement | null {
  return document.querySelector<HTMLElement>(".view:not([hidden])");
}

/** Shows the view `location` names; `focus`: move the focus to its title (a followed link, not a reload). */
export function showLocation(focus: boolean): void {
  const target = resolve(location.pathname);
  if (!target) return;
  document.querySelectorAll<HTMLElement>(".view").forEach((v) => (v.hidden = v !== target.view));
  const title = target.view.querySelector<HTMLElement>("h1")!;
  if (target.story) {
    title.textContent = target.title;
    const back = byId<HTMLAnchorElement>("story-back");
    back.href = target.story.listHref;
    back.textContent = target.story.listTitle;
    const node = target.view.querySelector<HTMLElement>("[data-section]")!;
    const query = new URLSearchParams({ kind: target.story.kind, id: target.story.id }).toString();
    if (node.dataset.query !== query) {
      node.dataset.query = query;
      node.textContent = "Loading…";
    }
  }
  document.querySelectorAll<HTMLAnchorElement>("#nav a[data-nav]").forEach((a) => {
    if (a.dataset.nav === target.nav) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  });
  document.title = `${target.title} · ${setting("product")}`;
  closeMenu(false);
  document.dispatchEvent(new CustomEvent("view:shown", { detail: { view: target.view.dataset.view } }));
  void load();
  if (focus) title.focus();
}

/** Follows a link in the page: a new history entry, then that view. */
export function go(href: string): void {
  history.pushState(null, "", href);
  showLocation(true);
}

function closeMenu(focusToggle: boolean): void {
  const nav = byId("nav");
  if (!nav.classList.contains("open")) return;
  nav.classList.remove("open");
  const toggle = byId("menu-toggle");
  toggle.setAttribute("aria-expanded", "false");
  if (focusToggle) toggle.focus();
}

export function startRouter(): void {
  document.addEventListener("click", (event) => {
    const link = closest<HTMLAnchorElement>(event, "a[href]");
    if (!link || event.defaultPrevented) return;
    const me = event as MouseEvent;
    if (me.button !== 0 || me.metaKey || me.ctrlKey || me.shiftKey || me.altKey || link.target === "_blank") return;
    const url = new URL(link.href, location.href);
    if (url.origin !== location.origin || !/^\/dashboard(\/|$)/.test(url.pathname) || url.pathname.startsWith("/dashboard/fragments")) return;
    // A link within the shown page (the skip link) is the browser's: it moves the focus to its target.
    if (url.hash && url.pathname === location.pathname && url.search === location.search) return;
    if (!resolve(url.pathname)) return;
    event.preventDefault();
    go(url.pathname + url.search);
  });
  window.addEventListener("popstate", () => showLocation(true));
  const toggle = byId("menu-toggle");
  toggle.addEventListener("click", () => {
    const nav = byId("nav");
    const open = !nav.classList.contains("open");
    nav.classList.toggle("open", open);
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
    if (open) nav.querySelector<HTMLElement>("a[aria-current=page], a")?.focus();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && byId("nav").classList.contains("open")) closeMenu(true);
  });
}
