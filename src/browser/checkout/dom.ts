/** Typed lookups of the page's elements: a missing or mistyped one is a bug in the page, said loudly. */

export function byId<T extends HTMLElement>(id: string, type: new () => T): T {
  const el = document.getElementById(id);
  if (!(el instanceof type)) throw new Error(`payment page: #${id} is missing or not a ${type.name}`);
  return el;
}

/** Writes `text` only when it differs, so a live region hears only real changes. */
export function setText(el: Element, text: string): void {
  if (el.textContent !== text) el.textContent = text;
}

/**
 * A one-line value (a reference, an email) never wraps; when it is longer than its box it scrolls
 * inside it, and then takes keyboard focus so it can be scrolled without a pointer.
 */
export function markScrollingValues(root: ParentNode = document): void {
  for (const el of root.querySelectorAll<HTMLElement>(".oneline")) {
    if (el.scrollWidth > el.clientWidth) el.tabIndex = 0;
    else el.removeAttribute("tabindex");
  }
}
