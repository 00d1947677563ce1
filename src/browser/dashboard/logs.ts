/**
 * The request log: one request opens below the list, by its button or by the URL
 * (/dashboard/logs?seq=N, which an object's story links to), and closes again.
 */
import { byId, closest, ZONE } from "./dom.js";
import { go } from "./router.js";
import { headers, signOut } from "./session.js";

export async function openRequest(seq: string): Promise<void> {
  const r = await fetch(`/dashboard/fragments/logs/${encodeURIComponent(seq)}?tz=${encodeURIComponent(ZONE)}`, { headers: headers() });
  if (r.status === 401) {
    signOut("Your keys were not accepted.");
    return;
  }
  byId("request-detail").innerHTML = await r.text();
  document.getElementById("request-detail-heading")?.focus();
}

export function startLogs(): void {
  document.addEventListener("click", (event) => {
    const button = closest(event, "button[data-request], button[data-close-request]");
    if (!button) return;
    const seq = button.getAttribute("data-request");
    if (seq === null) {
      byId("request-detail").innerHTML = "";
      return;
    }
    // A request named elsewhere (an integration check's evidence) opens in the request log's view.
    if (!button.closest("#view-logs")) {
      go(`/dashboard/logs?seq=${encodeURIComponent(seq)}`);
      return;
    }
    void openRequest(seq);
  });
  document.addEventListener("view:shown", (event) => {
    if ((event as CustomEvent<{ view: string }>).detail.view !== "logs") return;
    const seq = new URLSearchParams(location.search).get("seq");
    if (seq && /^\d+$/.test(seq)) void openRequest(seq);
    else byId("request-detail").innerHTML = "";
  });
}
