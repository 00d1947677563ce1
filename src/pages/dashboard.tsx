/** @jsxImportSource hono/jsx */
/**
 * /dashboard: sign in with a merchant's API key and secret (kept in this browser tab's sessionStorage
 * only), then every section is rendered on the server (fragments) and refreshed by a small script.
 */
import { Hono } from "hono";
import type { Child } from "hono/jsx";
import { requireMerchant } from "../http/auth.js";
import type { AppEnv } from "../http/env.js";
import { cspNonce, pageSecurityHeaders } from "../http/security-headers.js";
import type { Tenant } from "../engine/tenant.js";
import { Cards, Ledger, Outcomes, Overview, PaymentLinks, Payouts, VirtualAccounts, Vtu } from "./dashboard-fragments.js";
import { RequestDetail, RequestLogList } from "./dashboard-logs.js";
import { Page } from "./layout.js";
import { Checks } from "./dashboard-checks.js";
import type { DoctorDesk } from "../doctor/desk.js";
import { WebhookDoctor } from "./dashboard-doctor.js";
import { baseUrl } from "../http/base-url.js";
import { ApiKeys, SandboxSettings, SETTINGS_SCRIPT, WebhookSettings } from "./dashboard-settings.js";
import { LIVE_SCRIPT, LiveLine, etagOf, idiomorphScript, isFresh } from "./dashboard-live.js";
import { ACTIONS_SCRIPT } from "./dashboard-actions.js";
import { Events } from "./dashboard-events.js";
import { readTimeZone, TimeZone } from "./dashboard-tables.js";
import type { Deps } from "../http/deps.js";
import { TABLES_SCRIPT } from "./dashboard-tables-script.js";

/**
 * `render`: the section's server fragment, refreshed. `body` instead: markup the script fills in and
 * never replaces (the settings sections, whose secrets stay out of server HTML).
 * `after`: what the section holds below its refreshed content (kept through the refreshes).
 * `query`: the section's `data-query` as sent (its tables' search, filters and page).
 */
type Section = { id: string; title: string; after?: Child } & (
  | { render: (t: Tenant, baseUrl: string, doctor: DoctorDesk, query: URLSearchParams) => Child; body?: never }
  | { body: Child; render?: never }
);
const SECTIONS: Section[] = [
  { id: "overview", title: "Wallet and clock", render: (t) => <Overview tenant={t} /> },
  { id: "payouts", title: "Payouts", render: (t, _base, _doctor, q) => <Payouts tenant={t} query={q} /> },
  { id: "links", title: "Payment links", render: (t, base, _doctor, q) => <PaymentLinks tenant={t} baseUrl={base} query={q} /> },
  { id: "accounts", title: "Virtual accounts", render: (t, _base, _doctor, q) => <VirtualAccounts tenant={t} query={q} /> },
  { id: "events", title: "Events and webhook deliveries", render: (t, _base, _doctor, q) => <Events tenant={t} query={q} /> },
  { id: "doctor", title: "Webhook doctor", render: (t, _base, doctor) => <WebhookDoctor tenant={t} card={doctor.last(t)} running={doctor.isRunning(t)} /> },
  // The request log; one request opens below the list.
  { id: "logs", title: "Logs", render: (t, _base, _doctor, q) => <RequestLogList tenant={t} query={q} />, after: <div id="request-detail" aria-live="polite"></div> },
  { id: "vtu", title: "VTU purchases", render: (t, _base, _doctor, q) => <Vtu tenant={t} query={q} /> },
  { id: "cards", title: "Cardholders and cards", render: (t, _base, _doctor, q) => <Cards tenant={t} query={q} /> },
  { id: "outcomes", title: "Outcome rules", render: (t, _base, _doctor, q) => <Outcomes tenant={t} query={q} /> },
  { id: "ledger", title: "Ledger", render: (t, _base, _doctor, q) => <Ledger tenant={t} query={q} /> },
  { id: "checks", title: "Integration checks", render: (t) => <Checks tenant={t} /> },
  // The spec's "API Keys" and "Webhook Settings" pages.
  { id: "api-keys", title: "API Keys", body: <ApiKeys /> },
  { id: "webhook-settings", title: "Webhook Settings", body: <WebhookSettings /> },
  // The merchant's sandbox settings (PATCH /sandbox/v1/merchant) and reset.
  { id: "sandbox-settings", title: "Sandbox settings", body: <SandboxSettings /> },
];

function Shell(props: { nonce: string }) {
  return (
    <Page title="merchant-sandbox dashboard" nonce={props.nonce} script={idiomorphScript() + DASHBOARD_SCRIPT} wide skipTo="content">
      <main id="content" tabindex={-1}>
        <h1>merchant-sandbox dashboard</h1>
        <section class="card" id="signin" aria-labelledby="signin-heading">
          <h2 id="signin-heading">Sign in with your API keys</h2>
          <form id="signin-form">
            <label for="api-key">API key (X-Api-Key)</label>
            <input id="api-key" name="apiKey" autocomplete="off" required />
            <label for="api-secret">API secret (X-Api-Secret)</label>
            <input id="api-secret" name="apiSecret" type="password" autocomplete="off" required />
            <p class="muted">The keys stay in this browser tab (sessionStorage) and are sent only to this sandbox.</p>
            <button type="submit">Sign in</button>
          </form>
          <div id="signin-error" role="alert"></div>
        </section>
        <div id="app" hidden>
          <nav class="row" aria-label="Sections">
            {SECTIONS.map((s) => <a href={`#${s.id}`}>{s.title}</a>)}
            <button type="button" class="secondary" id="refresh">Refresh</button>
            <button type="button" class="secondary" id="signout">Sign out</button>
          </nav>
          <LiveLine />
          <div id="toast" role="status" aria-live="polite"></div>
          {SECTIONS.map((s) => (
            <section class="card" id={s.id} aria-labelledby={`${s.id}-heading`}>
              <h2 id={`${s.id}-heading`} tabindex={-1}>{s.title}</h2>
              {s.render ? <div data-section={s.id}>Loading…</div> : s.body}
              {/* Outside the refreshed fragment, so the result of an action outlives the refresh it causes. */}
              <div class="action-result" id={`${s.id}-result`} role="status" aria-live="polite" tabindex={-1}></div>
              {s.after}
            </section>
          ))}
        </div>
      </main>
    </Page>
  );
}

export function dashboardRoutes(opts: Deps) {
  const app = new Hono<AppEnv>();
  app.get("/dashboard", pageSecurityHeaders(), (c) => c.html(<Shell nonce={cspNonce(c)} />));
  app.use("/dashboard/fragments/*", requireMerchant({ registry: opts.registry, trustProxy: opts.trustProxy, accountRules: false }));
  // One request of the log, whole (the Logs view opens it).
  app.get("/dashboard/fragments/logs/:seq", async (c) => {
    const seq = Number(c.req.param("seq"));
    if (!Number.isSafeInteger(seq) || seq < 1) return c.html(<p class="error">Unknown request.</p>, 404);
    const tenant = c.var.tenant;
    await opts.driver.catchUpForRead(tenant);
    return c.html(<TimeZone.Provider value={readTimeZone(c.req.query("tz"))}><RequestDetail tenant={tenant} seq={seq} /></TimeZone.Provider>);
  });
  app.get("/dashboard/fragments/:section", async (c) => {
    const section = SECTIONS.find((s) => s.id === c.req.param("section"));
    if (!section?.render) return c.html(<p class="error">Unknown section.</p>, 404);
    const tenant = c.var.tenant;
    await opts.driver.catchUpForRead(tenant);
    const query = new URL(c.req.url).searchParams;
    const html = await (
      <TimeZone.Provider value={readTimeZone(query.get("tz") ?? undefined)}>{section.render(tenant, baseUrl(opts.publicUrl, c.req.url), opts.doctor, query)}</TimeZone.Provider>
    ).toString();
    // The dashboard asks every 2 s with the ETag of what it shows: an unchanged section costs a 304.
    const etag = etagOf(html);
    c.header("ETag", etag);
    c.header("Cache-Control", "private, no-cache");
    if (isFresh(c.req.header("if-none-match"), etag)) return c.body(null, 304);
    return c.html(html);
  });
  return app;
}

/** Sign-in, section loading (live updates: dashboard-live.tsx), and the data-post actions (dashboard-actions.ts). */
const DASHBOARD_SCRIPT = String.raw`
(function () {
  var KEY = "merchant-sandbox:credentials";
  // The reader's time zone: the server shows each time in it beside UTC.
  var ZONE = (function () { try { return Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { return ""; } })();
  function creds() { try { return JSON.parse(sessionStorage.getItem(KEY)); } catch (e) { return null; } }
  function headers(extra) {
    var c = creds() || {};
    var h = { "x-api-key": c.apiKey || "", "x-api-secret": c.apiSecret || "" };
    for (var k in extra) h[k] = extra[k];
    return h;
  }
  // An action's result goes to its section's result slot (else the page's toast) and takes the focus:
  // the control that was used may be replaced by the refresh the action causes.
  function resultSlot(origin) {
    var section = origin && origin.closest && origin.closest("section");
    return (section && section.querySelector(".action-result")) || document.getElementById("toast");
  }
  function show(slot, kind, text, focus) {
    slot.className = (slot.id === "toast" ? "" : "action-result ") + kind;
    slot.textContent = text;
    if (focus) { slot.setAttribute("tabindex", "-1"); slot.focus(); }
  }
${LIVE_SCRIPT}
  function signOut(message) {
    sessionStorage.removeItem(KEY);
    clearSettings();
    document.getElementById("request-detail").innerHTML = "";
    Array.prototype.forEach.call(document.querySelectorAll(".action-result"), function (slot) { slot.className = "action-result"; slot.textContent = ""; });
    document.getElementById("app").hidden = true;
    document.getElementById("signin").hidden = false;
    document.getElementById("signin-error").className = message ? "error" : "";
    document.getElementById("signin-error").textContent = message || "";
  }
  // After sign-in the focus goes to the first section: the sign-in form it was in is now hidden.
  function start(focusFirst) {
    document.getElementById("signin").hidden = true;
    document.getElementById("app").hidden = false;
    if (focusFirst) document.querySelector("#app section h2").focus();
    loadSettings();
    load();
  }
  document.getElementById("signin-form").addEventListener("submit", function (event) {
    event.preventDefault();
    var form = event.target;
    var c = { apiKey: form.apiKey.value.trim(), apiSecret: form.apiSecret.value.trim() };
    fetch("/sandbox/v1/merchant", { headers: { "x-api-key": c.apiKey, "x-api-secret": c.apiSecret } }).then(function (r) {
      if (!r.ok) { signOut("Those keys do not match a merchant."); return; }
      sessionStorage.setItem(KEY, JSON.stringify(c));
      form.reset();
      start(true);
    });
  });
${ACTIONS_SCRIPT}
  // The Logs view: open one request, close it.
  function openRequest(seq) {
    return fetch("/dashboard/fragments/logs/" + encodeURIComponent(seq) + "?tz=" + encodeURIComponent(ZONE), { headers: headers({}) }).then(function (r) {
      if (r.status === 401) { signOut("Your keys were not accepted."); return ""; }
      return r.text();
    }).then(function (html) {
      document.getElementById("request-detail").innerHTML = html;
      var heading = document.getElementById("request-detail-heading");
      if (heading) heading.focus();
    });
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-request], button[data-close-request]");
    if (!button) return;
    if (button.hasAttribute("data-request")) openRequest(button.getAttribute("data-request"));
    else document.getElementById("request-detail").innerHTML = "";
  });
${SETTINGS_SCRIPT}
${TABLES_SCRIPT}
  // A section link moves the focus to that section's heading (a jump the keyboard follows): the next
  // Tab is the section's first control, and a screen reader says where it landed.
  document.querySelector("#app nav").addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[href^='#']");
    var heading = link && document.getElementById(link.getAttribute("href").slice(1) + "-heading");
    if (!heading) return;
    // The browser's own jump would move the focus to the section after this handler; take it over.
    event.preventDefault();
    history.replaceState(null, "", link.getAttribute("href"));
    heading.focus();
  });
  document.getElementById("refresh").addEventListener("click", load);
  document.getElementById("signout").addEventListener("click", function () { signOut(""); });
  if (creds()) start(false);
})();
`;
