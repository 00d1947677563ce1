/** Small DOM helpers the dashboard's modules share. */

/** The element with this id; the shell always renders the ids the modules ask for. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`dashboard: no #${id} on the page`);
  return el as T;
}

/** The nearest element matching `selector` from an event's target, or null. */
export function closest<T extends Element = HTMLElement>(event: Event, selector: string): T | null {
  const target = event.target;
  return target instanceof Element ? (target.closest(selector) as T | null) : null;
}

/** A body attribute the server set for the script (data-*). */
export const setting = (name: string): string => document.body.dataset[name] ?? "";

/** The reader's time zone: the server shows each time in it beside UTC. */
export const ZONE = (() => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch {
    return "";
  }
})();
