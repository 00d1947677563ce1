/**
 * A live change of state (pending to paid or expired) shows the server's own render of the new state:
 * the page fetches its state view and status chip (GET /pay/{reference}/view, the same components a
 * fresh load renders), so what a customer reads after a live change is word for word what a fresh
 * load says, and the one-time account leaves the page with the view that held it.
 */
import { setText } from "./dom.js";
import { isLinkStatus, type LinkStatus } from "./link-state.js";

export interface FreshView {
  view: HTMLElement;
  chip: HTMLElement;
  status: LinkStatus;
}

/** The state view as the server renders it now, or null when it cannot be read. */
export async function fetchView(url: string): Promise<FreshView | null> {
  try {
    const res = await fetch(url, { cache: "no-store", headers: { accept: "text/html" } });
    if (!res.ok) return null;
    // Parsed as an inert document: only its elements are taken.
    const doc = new DOMParser().parseFromString(await res.text(), "text/html");
    const view = doc.getElementById("state-view");
    const chip = doc.getElementById("status");
    const status = view?.dataset.state;
    return view && chip && isLinkStatus(status) ? { view, chip, status } : null;
  } catch {
    return null;
  }
}

/**
 * Puts `fresh` in place of the page's state view, and updates the status chip in place (a live region
 * that is replaced is not announced). Focus that was in the old view moves to the new one's panel.
 */
export function showView(fresh: FreshView): void {
  const current = document.getElementById("state-view");
  const chip = document.getElementById("status");
  if (!current || !chip) return;
  const hadFocus = current.contains(document.activeElement);
  const view = document.adoptNode(fresh.view);
  current.replaceWith(view);
  if (chip.dataset.status !== fresh.status) {
    chip.className = fresh.chip.className;
    chip.dataset.status = fresh.status;
    setText(chip, fresh.chip.textContent ?? "");
  }
  if (hadFocus) view.querySelector<HTMLElement>("[tabindex='-1']")?.focus();
}
