/**
 * The dashboard's script: sign-in (a merchant's keys, the demo merchant on a local start, or one
 * signed in before in this tab), then the shown view, its live updates and its actions. Each part is
 * its own module; this one wires them together.
 */
import { startActions } from "./actions.js";
import { byId, setting } from "./dom.js";
import { clearResults } from "./feedback.js";
import { load, startLive } from "./live.js";
import { startLogs } from "./logs.js";
import { showLocation, startRouter } from "./router.js";
import { startScenarios } from "./scenarios.js";
import { creds, knownMerchants, remember, setCreds, signOut, whoIs, type Credentials, type KnownMerchant } from "./session.js";
import { clearSettings, loadSettings, startSettings } from "./settings.js";
import { startTables } from "./tables.js";

/** The skip link leads to what is shown: the sign-in's heading while signed out (the app's main is hidden then), the view once in. */
function skipTo(id: string): void {
  const target = byId(id);
  if (!target.matches("a, button, input, select, textarea, [tabindex]")) target.tabIndex = -1;
  document.querySelector<HTMLAnchorElement>(".skip-link")?.setAttribute("href", `#${id}`);
}

function showSignIn(message: string, canCancel: boolean): void {
  byId("app").hidden = true;
  byId("signin").hidden = false;
  skipTo("signin-heading");
  const error = byId("signin-error");
  error.className = message ? "error" : "";
  error.textContent = message;
  byId("signin-cancel").hidden = !canCancel;
  renderKnown();
}

/** The merchants signed in before in this tab: each is one click away. */
function renderKnown(): void {
  const box = byId("signin-recent");
  box.replaceChildren();
  const current = creds()?.apiKey;
  const known = knownMerchants().filter((m) => m.apiKey !== current);
  if (!known.length) return;
  const p = document.createElement("p");
  p.className = "muted";
  p.textContent = "Merchants you used in this tab:";
  const list = document.createElement("ul");
  for (const m of known) {
    const li = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "secondary small";
    button.dataset.known = m.apiKey;
    button.textContent = `Switch to ${m.name}`;
    li.appendChild(button);
    list.appendChild(li);
  }
  box.append(p, list);
}

function start(focusTitle: boolean): void {
  byId("signin").hidden = true;
  byId("app").hidden = false;
  skipTo("content");
  void loadSettings();
  showLocation(focusTitle);
}

/** Signs in with `c` when the sandbox knows the keys; says why not otherwise. */
async function signIn(c: Credentials): Promise<boolean> {
  const who = await whoIs(c).catch(() => null);
  if (!who) {
    showSignIn("Those keys do not match a merchant.", creds() !== null);
    return false;
  }
  const switching = creds() !== null && creds()?.apiKey !== c.apiKey;
  setCreds(c);
  remember({ ...c, name: who.business_name });
  if (switching) {
    clearSettings();
    clearResults();
  }
  start(true);
  return true;
}

async function useDemo(): Promise<void> {
  // The front page's JSON names the demo merchant's keys on a local start (never with --shared).
  const r = await fetch("/", { headers: { accept: "application/json" } });
  const json = r.ok ? ((await r.json()) as { data?: { keys?: { demo_merchant?: { api_key: string; api_secret: string } | null } } }) : null;
  const demo = json?.data?.keys?.demo_merchant;
  if (!demo) {
    showSignIn("This sandbox has no demo merchant now (it was deleted, or the sandbox is shared).", creds() !== null);
    return;
  }
  await signIn({ apiKey: demo.api_key, apiSecret: demo.api_secret });
}

startLive();
startActions();
startSettings();
startTables();
startRouter();
startLogs();
startScenarios(async (m: KnownMerchant) => {
  await signIn(m);
});

byId<HTMLFormElement>("signin-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = event.target as HTMLFormElement;
  const field = (name: string) => (form.elements.namedItem(name) as HTMLInputElement).value.trim();
  void signIn({ apiKey: field("apiKey"), apiSecret: field("apiSecret") }).then((ok) => {
    if (ok) form.reset();
  });
});
document.getElementById("use-demo")?.addEventListener("click", () => void useDemo());
byId("signin-recent").addEventListener("click", (event) => {
  const key = (event.target as HTMLElement).closest<HTMLElement>("[data-known]")?.dataset.known;
  const m = knownMerchants().find((k) => k.apiKey === key);
  if (m) void signIn(m);
});
byId("switch-merchant").addEventListener("click", () => {
  showSignIn("", true);
  (document.getElementById("use-demo") ?? byId("api-key")).focus();
});
byId("signin-cancel").addEventListener("click", () => start(true));
document.querySelectorAll("[data-signout]").forEach((b) => b.addEventListener("click", () => signOut("")));
byId("refresh").addEventListener("click", () => void load());
document.addEventListener("dashboard:signout", (event) => {
  clearSettings();
  clearResults();
  byId("request-detail").innerHTML = "";
  showSignIn((event as CustomEvent<{ message: string }>).detail.message, false);
});

if (setting("demo") !== "on") document.getElementById("use-demo")?.remove();
if (creds()) start(false);
else showSignIn("", false);
