/** @jsxImportSource hono/jsx */
/**
 * The page behind `payment_link` (branded) and `checkout_url` (the legacy processor page): what to
 * pay and where, a live countdown to expiry, the status, and in the sandbox a button that simulates
 * the customer's bank transfer (optionally with a wrong amount, to show the refusal).
 */
import { raw } from "hono/html";
import { Page } from "./layout.js";

export interface LinkPageData {
  reference: string;
  amount: number;
  description: string | null;
  business_name: string;
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

export function LinkPage(props: { data: LinkPageData; variant: "branded" | "processor"; nonce: string }) {
  const d = props.data;
  const processor = props.variant === "processor";
  const title = processor ? `Checkout: ${naira(d.amount)}` : `Pay ${d.business_name}`;
  return (
    <Page title={title} nonce={props.nonce} script={LINK_SCRIPT} css={processor ? PROCESSOR_CSS : ""}>
      <main>
        <header class="card">
          <p class="muted">{processor ? "Payment processor checkout" : "Secure payment link"}</p>
          <h1>{processor ? "Complete your payment" : d.business_name}</h1>
          <p class="amount" data-testid="amount">{naira(d.amount)}</p>
          {d.description ? <p>{d.description}</p> : null}
          <p>
            Status:{" "}
            <span id="status" class={`status ${d.status}`} role="status" aria-live="polite" data-status={d.status}>
              {STATUS_TEXT[d.status]}
            </span>
          </p>
        </header>

        <section class="card" aria-labelledby="transfer-heading" id="transfer-details">
          <h2 id="transfer-heading">Pay by bank transfer</h2>
          <p>Transfer exactly <strong>{naira(d.amount)}</strong> to this one-time account:</p>
          <dl class="details">
            <dt>Bank</dt>
            <dd>{d.bank_name}</dd>
            <dt>Account number</dt>
            <dd class="mono" data-testid="account-number">{d.account_number}</dd>
            <dt>Account name</dt>
            <dd>{d.account_name}</dd>
            <dt>Time left</dt>
            <dd>
              <span id="countdown" aria-live="off">--:--</span>
              <span id="clock-note" class="muted"></span>
            </dd>
          </dl>
          <p class="muted">The account accepts only the exact amount and expires 30 minutes after the link was created.</p>
        </section>

        <section class="card" aria-labelledby="simulate-heading" id="simulate">
          <h2 id="simulate-heading">Sandbox: simulate the customer's transfer</h2>
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
        <p class="muted">Reference <span class="mono">{d.reference}</span></p>
      </main>
      <script type="application/json" id="link-data" nonce={props.nonce}>{raw(JSON.stringify(d).replace(/</g, "\\u003c"))}</script>
    </Page>
  );
}

/** A reference that names no link (404). */
export function LinkNotFoundPage(props: { nonce: string }) {
  return (
    <Page title="Payment link not found" nonce={props.nonce}>
      <main>
        <section class="card">
          <h1>Payment link not found</h1>
          <p>Check the link you were given.</p>
        </section>
      </main>
    </Page>
  );
}

const PROCESSOR_CSS = `:root { --brand:#3730a3; } header.card { border-top: 6px solid #3730a3; }`;

/** Client script: countdown on the merchant's clock, status polling, the simulate button, redirect. */
const LINK_SCRIPT = String.raw`
(function () {
  var data = JSON.parse(document.getElementById("link-data").textContent);
  var statusUrl = "/pay/" + encodeURIComponent(data.reference) + "/status";
  var simulateUrl = "/pay/" + encodeURIComponent(data.reference) + "/simulate";
  var TEXT = { pending: "Awaiting payment", paid: "Paid", expired: "Expired" };
  var remaining = Date.parse(data.expires_at) - Date.parse(data.now);
  var lastTick = Date.now();
  var redirected = false;

  function show(kind, text) {
    var box = document.getElementById("message");
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
  function render(state) {
    data.status = state.status;
    var el = document.getElementById("status");
    el.className = "status " + state.status;
    el.setAttribute("data-status", state.status);
    el.textContent = TEXT[state.status];
    var button = document.getElementById("simulate-button");
    button.disabled = state.status !== "pending";
    if (state.status === "paid") {
      var target = state.redirect_url ? webUrl(state.redirect_url) : null;
      var msg = "Payment received. Thank you!";
      if (target) msg += " Taking you back to the merchant...";
      show("success", msg);
      if (target && !redirected) {
        redirected = true;
        setTimeout(function () { location.assign(target); }, 2000);
      }
    } else if (state.status === "expired") {
      show("error", "This payment link has expired. Ask the merchant for a new one.");
    }
    remaining = Date.parse(state.expires_at) - Date.parse(state.now);
    data.clock_mode = state.clock_mode; data.clock_speed = state.clock_speed;
    lastTick = Date.now();
    tick();
  }
  function tick() {
    if (data.status === "paid") {
      document.getElementById("countdown").textContent = "Paid: the account is closed";
      document.getElementById("clock-note").textContent = "";
      return;
    }
    var left = remaining;
    if (data.clock_mode === "realtime") left -= (Date.now() - lastTick) * data.clock_speed;
    left = Math.max(0, left);
    var s = Math.floor(left / 1000);
    document.getElementById("countdown").textContent = String(Math.floor(s / 60)).padStart(2, "0") + ":" + String(s % 60).padStart(2, "0");
    document.getElementById("clock-note").textContent = data.clock_mode === "manual" ? " (sandbox clock is manual: it moves when advanced)" : "";
  }
  function poll() {
    fetch(statusUrl).then(function (r) { return r.json(); }).then(function (body) { if (body.success) render(body.data); }).catch(function () {});
  }
  document.getElementById("simulate-form").addEventListener("submit", function (event) {
    event.preventDefault();
    var amount = Number(document.getElementById("simulate-amount").value);
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
