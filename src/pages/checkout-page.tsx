/** @jsxImportSource hono/jsx */
/**
 * The page behind `payment_link` (branded) and `checkout_url` (the legacy processor page): what to
 * pay and where, a live countdown to expiry, the status, and in the sandbox a button that simulates
 * the customer's bank transfer (optionally with a wrong amount, to show the refusal).
 */
import { raw } from "hono/html";
import { Page } from "./layout.js";
import { CHECKOUT_VALIDITY_MS, MINUTE } from "../domain/limits.js";

export interface LinkPageData {
  reference: string;
  amount: number;
  description: string | null;
  business_name: string;
  customer_email: string | null;
  bank_name: string;
  account_number: string;
  account_name: string;
  status: "pending" | "paid" | "expired";
  expires_at: string;
  paid_at: string | null;
  now: string;
  clock_mode: "manual" | "realtime";
  clock_speed: number;
  redirect_url: string | null;
}

const naira = (n: number) => `₦${n.toLocaleString("en-NG", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const STATUS_TEXT = { pending: "Awaiting payment", paid: "Paid", expired: "Expired" } as const;
/** Nigeria keeps West Africa Time all year; the script formats the same way after a live change. */
const watTime = (iso: string) =>
  `${new Date(iso).toLocaleString("en-GB", { timeZone: "Africa/Lagos", day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" })} WAT`;
/** The logo placeholder: up to two initials of the business name, as checkouts show without a logo. */
const initials = (name: string) =>
  name.split(/\s+/).filter((w) => /^\p{L}/u.test(w)).slice(0, 2).map((w) => w[0]!.toUpperCase()).join("") || "₦";

function CopyButton(props: { value: string; label: string }) {
  return (
    <button type="button" class="secondary copy" data-copy={props.value} data-label={props.label}>
      <span class="copy-text">Copy</span>
      <span class="sr-only"> {props.label}</span>
    </button>
  );
}

/** What the customer needs to pay; only while the link is pending (the script removes it after). */
function TransferPanel(props: { d: LinkPageData }) {
  const d = props.d;
  return (
    <section class="card" aria-labelledby="transfer-heading" id="transfer-details">
      <h2 id="transfer-heading">Pay by bank transfer</h2>
      <p>Transfer exactly <strong>{naira(d.amount)}</strong> to this one-time account:</p>
      <div class="copy-row">
        <div>
          <p class="muted label" id="copy-amount-label">Amount</p>
          <p class="big" data-testid="transfer-amount">{naira(d.amount)}</p>
        </div>
        <CopyButton value={d.amount.toFixed(2)} label="amount" />
      </div>
      <div class="copy-row">
        <div>
          <p class="muted label">Account number</p>
          <p class="big mono" data-testid="account-number">{d.account_number}</p>
        </div>
        <CopyButton value={d.account_number} label="account number" />
      </div>
      <dl class="details">
        <dt>Bank</dt>
        <dd>{d.bank_name}</dd>
        <dt>Account name</dt>
        <dd>{d.account_name}</dd>
      </dl>
      <p class="muted">The account accepts only the exact amount and expires {CHECKOUT_VALIDITY_MS / MINUTE} minutes after the link was created.</p>
      <div id="sent-step">
        <button type="button" id="sent-button" class="wide">I've sent the money</button>
      </div>
      <div id="waiting" class="notice" tabindex={-1} hidden>
        <p class="strong">Waiting for your transfer to arrive</p>
        <p>
          Transfers usually arrive within a few minutes. Keep this page open: it updates by itself when {d.business_name} receives{" "}
          {naira(d.amount)}.
        </p>
      </div>
      {d.redirect_url ? (
        <p class="gap-top">
          <a href={d.redirect_url} id="cancel-link">Cancel and return to {d.business_name}</a>
        </p>
      ) : null}
    </section>
  );
}

function ReceiptPanel(props: { d: LinkPageData }) {
  const d = props.d;
  return (
    <section class="card outcome paid" aria-labelledby="receipt-heading" id="receipt" tabindex={-1} hidden={d.status !== "paid"}>
      <h2 id="receipt-heading">Payment received</h2>
      <p>{d.business_name} has received your payment. You can close this page.</p>
      <dl class="details">
        <dt>Amount</dt>
        <dd>{naira(d.amount)}</dd>
        <dt>Paid to</dt>
        <dd>{d.business_name}</dd>
        <dt>Paid at</dt>
        <dd id="receipt-paid-at">{d.paid_at ? watTime(d.paid_at) : ""}</dd>
        <dt>Reference</dt>
        <dd class="mono">{d.reference}</dd>
        {d.customer_email ? (
          <>
            <dt>Receipt for</dt>
            <dd>{d.customer_email}</dd>
          </>
        ) : null}
      </dl>
      {d.redirect_url ? (
        <p class="gap-top">
          <a href={d.redirect_url} id="return-link">Return to {d.business_name}</a>
        </p>
      ) : null}
    </section>
  );
}

function ExpiredPanel(props: { d: LinkPageData }) {
  return (
    <section class="card outcome expired" aria-labelledby="expired-heading" id="expired" tabindex={-1} hidden={props.d.status !== "expired"}>
      <h2 id="expired-heading">This payment link has expired</h2>
      <p>
        Its one-time account is closed: do not transfer to it. Ask {props.d.business_name} for a new payment link. If you already sent
        money, your bank returns it.
      </p>
    </section>
  );
}

export function LinkPage(props: { data: LinkPageData; variant: "branded" | "processor"; nonce: string }) {
  const d = props.data;
  const processor = props.variant === "processor";
  const title = processor ? `Checkout: ${naira(d.amount)}` : `Pay ${d.business_name}`;
  return (
    <Page title={title} nonce={props.nonce} script={LINK_SCRIPT} css={LINK_CSS + (processor ? PROCESSOR_CSS : "")}>
      <main>
        <header class="card">
          <div class="merchant">
            <span class="logo" aria-hidden="true">{initials(d.business_name)}</span>
            <div>
              <p class="muted">{processor ? "Payment processor checkout" : "Secure payment link"}</p>
              {processor ? <p class="strong" data-testid="merchant">{d.business_name}</p> : null}
            </div>
          </div>
          <h1>{processor ? "Complete your payment" : d.business_name}</h1>
          <p class="amount" data-testid="amount">{naira(d.amount)}</p>
          {d.description ? <p data-testid="description">{d.description}</p> : null}
          {d.customer_email ? <p class="muted" data-testid="customer-email">Paying as {d.customer_email}</p> : null}
          <p>
            Status:{" "}
            <span id="status" class={`status ${d.status}`} role="status" aria-live="polite" data-status={d.status}>
              {STATUS_TEXT[d.status]}
            </span>
          </p>
          <p>
            Time left: <span id="countdown" aria-live="off">--:--</span>
            <span id="clock-note" class="muted"></span>
          </p>
        </header>

        {d.status === "pending" ? <TransferPanel d={d} /> : null}
        <ReceiptPanel d={d} />
        <ExpiredPanel d={d} />
        <p class="muted">Reference <span class="mono">{d.reference}</span></p>
        <div id="copy-note" class="sr-only" aria-live="polite"></div>

        <section class="sandbox-only" aria-labelledby="simulate-heading" id="simulate">
          <p class="sandbox-tag">Sandbox only</p>
          <h2 id="simulate-heading">Simulate the customer's transfer</h2>
          <p class="muted">A real customer never sees this panel: it stands in for their bank.</p>
          <form id="simulate-form">
            <label for="simulate-amount">Amount to transfer (₦)</label>
            <div class="row">
              <input id="simulate-amount" name="amount" type="number" step="0.01" min="0.01" value={String(d.amount)} inputmode="decimal" />
              <button type="submit" id="simulate-button">Simulate bank transfer</button>
            </div>
            <p class="muted">Change the amount to see how a wrong amount is refused.</p>
          </form>
          <div id="message" role="alert" aria-live="assertive"></div>
        </section>
      </main>
      <script type="application/json" id="link-data" nonce={props.nonce}>{raw(JSON.stringify(scriptData(d)).replace(/</g, "\\u003c"))}</script>
    </Page>
  );
}

/**
 * What the script needs, and no more: the account's details stay out of it, so once the link is paid
 * or expired and their panel is gone, no copy of the account number is left on the page.
 */
function scriptData(d: LinkPageData) {
  const { reference, status, expires_at, paid_at, now, clock_mode, clock_speed, redirect_url } = d;
  return { reference, status, expires_at, paid_at, now, clock_mode, clock_speed, redirect_url };
}

/** A reference that names no link (404): styled like the page it stands for, with the same viewport. */
export function LinkNotFoundPage(props: { nonce: string }) {
  return (
    <Page title="Payment link not found" nonce={props.nonce} css={LINK_CSS}>
      <main>
        <section class="card outcome expired">
          <h1>Payment link not found</h1>
          <p>This link does not exist. It may be mistyped or cut short: check the link you were given, or ask the business for a new one.</p>
          <p class="muted">Do not transfer money to an account from a link you cannot open.</p>
        </section>
      </main>
    </Page>
  );
}

/** The payment pages' own additions to BASE_CSS (the dashboard keeps its look). */
const LINK_CSS = `
main { overflow-wrap:anywhere; }
.merchant { display:flex; gap:12px; align-items:center; margin-bottom:8px; } .merchant p { margin:0; }
.logo { flex:none; width:48px; height:48px; border-radius:50%; background:var(--brand); color:var(--brand-ink); display:flex;
  align-items:center; justify-content:center; font-weight:700; font-size:1.1rem; }
.strong { font-weight:700; }
.copy-row { display:flex; justify-content:space-between; align-items:center; gap:12px; padding:8px 0; border-bottom:1px solid var(--line); }
.copy-row p { margin:0; } .big { font-size:1.6rem; font-weight:700; letter-spacing:.02em; }
.copy-row + dl.details { margin-top:12px; }
button.wide { width:100%; margin-top:12px; }
#waiting { margin-top:12px; } #waiting p { margin:4px 0; }
.outcome.paid { border-top:6px solid var(--ok); } .outcome.expired { border-top:6px solid var(--bad); }
.sandbox-only { border:2px dashed var(--warn); background:#fffaf0; border-radius:12px; padding:20px; margin:32px 0 16px; }
.sandbox-tag { display:inline-block; margin:0 0 8px; padding:2px 10px; border-radius:999px; background:var(--warn); color:#fff; font-weight:700; font-size:.85rem; }
.sr-only { position:absolute; width:1px; height:1px; overflow:hidden; clip:rect(0 0 0 0); white-space:nowrap; }
`;

const PROCESSOR_CSS = `:root { --brand:#3730a3; } header.card { border-top: 6px solid #3730a3; }`;

/**
 * Client script: countdown on the merchant's clock, status polling, copy buttons, the "I've sent the
 * money" step, the simulate button, and redirect. The status region and the panels change only when
 * the status does, so a screen reader hears each change once.
 */
const LINK_SCRIPT = String.raw`
(function () {
  var data = JSON.parse(document.getElementById("link-data").textContent);
  var statusUrl = "/pay/" + encodeURIComponent(data.reference) + "/status";
  var simulateUrl = "/pay/" + encodeURIComponent(data.reference) + "/simulate";
  var TEXT = { pending: "Awaiting payment", paid: "Paid", expired: "Expired" };
  var remaining = Date.parse(data.expires_at) - Date.parse(data.now);
  var lastTick = Date.now();
  var redirected = false;
  var settled = null; // the status whose panels and message are showing

  function byId(id) { return document.getElementById(id); }
  function show(kind, text) {
    var box = byId("message");
    box.className = kind;
    box.textContent = text;
  }
  // Only to a web page (http or https): a script URL would run on this origin, where the dashboard
  // keeps merchants' API keys. The server already drops other schemes; this does not rely on it.
  function webUrl(url) {
    try {
      var parsed = new URL(url);
      return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : null;
    } catch (e) {
      return null;
    }
  }
  function watTime(iso) {
    return new Date(iso).toLocaleString("en-GB", { timeZone: "Africa/Lagos", day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" }) + " WAT";
  }
  // Once paid or expired the account must not be used again: its details leave the page, and the
  // receipt or the expired panel takes their place (focus follows, if it was in the old panel).
  function settle(state, live) {
    var transfer = byId("transfer-details");
    var panel = byId(state.status === "paid" ? "receipt" : "expired");
    var hadFocus = transfer && transfer.contains(document.activeElement);
    if (transfer) transfer.remove();
    if (state.status === "paid" && state.paid_at) byId("receipt-paid-at").textContent = watTime(state.paid_at);
    panel.hidden = false;
    if (live && hadFocus) panel.focus();
  }
  function render(state) {
    data.status = state.status;
    var el = byId("status");
    if (el.getAttribute("data-status") !== state.status) {
      el.className = "status " + state.status;
      el.setAttribute("data-status", state.status);
      el.textContent = TEXT[state.status];
    }
    byId("simulate-button").disabled = state.status !== "pending";
    if (state.status !== settled && state.status !== "pending") {
      settle(state, settled !== null);
      if (state.status === "paid") {
        var target = state.redirect_url ? webUrl(state.redirect_url) : null;
        var msg = "Payment received. Thank you!";
        if (target) msg += " Taking you back to the merchant...";
        show("success", msg);
        if (target && !redirected) {
          redirected = true;
          setTimeout(function () { location.assign(target); }, 2000);
        }
      } else {
        show("error", "This payment link has expired. Ask the merchant for a new one.");
      }
    }
    settled = state.status;
    remaining = Date.parse(state.expires_at) - Date.parse(state.now);
    data.clock_mode = state.clock_mode; data.clock_speed = state.clock_speed;
    lastTick = Date.now();
    tick();
  }
  function setText(id, text) {
    var el = byId(id);
    if (el.textContent !== text) el.textContent = text;
  }
  function tick() {
    if (data.status === "paid") {
      setText("countdown", "Paid: the account is closed");
      setText("clock-note", "");
      return;
    }
    var left = remaining;
    if (data.clock_mode === "realtime") left -= (Date.now() - lastTick) * data.clock_speed;
    left = Math.max(0, left);
    var s = Math.floor(left / 1000);
    setText("countdown", String(Math.floor(s / 60)).padStart(2, "0") + ":" + String(s % 60).padStart(2, "0"));
    setText("clock-note", data.clock_mode === "manual" ? " (sandbox clock is manual: it moves when advanced)" : "");
  }
  function poll() {
    fetch(statusUrl).then(function (r) { return r.json(); }).then(function (body) { if (body.success) render(body.data); }).catch(function () {});
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-copy]");
    if (!button) return;
    var label = button.getAttribute("data-label");
    var text = button.querySelector(".copy-text");
    var note = byId("copy-note");
    navigator.clipboard.writeText(button.getAttribute("data-copy")).then(function () {
      text.textContent = "Copied";
      note.textContent = label.charAt(0).toUpperCase() + label.slice(1) + " copied";
      setTimeout(function () { text.textContent = "Copy"; }, 2000);
    }, function () {
      note.textContent = "Could not copy: select the " + label + " and copy it yourself";
    });
  });
  var sent = byId("sent-button");
  if (sent) sent.addEventListener("click", function () {
    byId("sent-step").hidden = true;
    var waiting = byId("waiting");
    waiting.hidden = false;
    waiting.focus();
  });
  document.getElementById("simulate-form").addEventListener("submit", function (event) {
    event.preventDefault();
    var amount = Number(byId("simulate-amount").value);
    show("notice", "Sending the transfer...");
    fetch(simulateUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ amount: amount }) })
      .then(function (r) { return r.json(); })
      .then(function (body) {
        if (body.success) render(body.data);
        else show("error", body.message || "The transfer was refused.");
      })
      .catch(function () { show("error", "The sandbox could not be reached."); });
  });
  render(data);
  setInterval(tick, 1000);
  setInterval(poll, 2000);
})();
`;
