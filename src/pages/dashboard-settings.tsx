/** @jsxImportSource hono/jsx */
/**
 * The dashboard's "API Keys" and "Webhook Settings" sections, the two pages the spec says a merchant
 * gets its keys and sets its webhook from. Unlike the other sections they are not server fragments:
 * their values are secrets, so the browser fills them from what it already holds (the signed-in keys)
 * and from GET /sandbox/v1/merchant, and no refreshed HTML ever carries a secret. Not refreshed every
 * 5 s either, so a half-typed URL or a revealed secret stays as the user left it.
 */

/** A secret's slot: masked until "Reveal"; Copy copies the value whether shown or not. */
function Secret(props: { id: string; name: string }) {
  return (
    <dd>
      <span id={props.id} class="mono secret" data-masked="true">••••••••••••</span>{" "}
      <span class="row">
        <button type="button" class="secondary" data-reveal={props.id} aria-controls={props.id} aria-expanded="false" aria-label={`Reveal ${props.name}`}>Reveal</button>
        <button type="button" class="secondary" data-copy={props.id} aria-label={`Copy ${props.name}`}>Copy</button>
      </span>
    </dd>
  );
}

function Shown(props: { id: string; name: string }) {
  return (
    <dd>
      <span id={props.id} class="mono"></span>{" "}
      <button type="button" class="secondary" data-copy={props.id} aria-label={`Copy ${props.name}`}>Copy</button>
    </dd>
  );
}

export function ApiKeys() {
  return (
    <>
      <p class="muted">Send both with every request, as the X-Api-Key and X-Api-Secret headers. Keep the secret on your server.</p>
      <dl class="details">
        <dt>Merchant id</dt>
        <dd><span id="keys-merchant-id" class="mono"></span></dd>
        <dt>API key</dt>
        <Shown id="keys-api-key" name="API key" />
        <dt>API secret</dt>
        <Secret id="keys-api-secret" name="API secret" />
      </dl>
    </>
  );
}

export function WebhookSettings() {
  return (
    <>
      <dl class="details">
        <dt>Webhook URL</dt>
        <dd><span id="webhook-current" class="mono"></span></dd>
        <dt>Signature header</dt>
        <dd><span class="mono">X-Webhook-Signature</span></dd>
        <dt>Signature</dt>
        <dd><span id="webhook-scheme"></span></dd>
        <dt>Webhook secret</dt>
        <Secret id="webhook-secret" name="webhook secret" />
      </dl>
      {/* novalidate: the sandbox's own validation answers, in its words, beside the field. */}
      <form id="webhook-form" class="gap-top" novalidate>
        <label for="webhook-url">New webhook URL</label>
        <input id="webhook-url" name="webhook_url" type="url" inputmode="url" autocomplete="off" aria-describedby="webhook-url-hint webhook-url-error" />
        <p id="webhook-url-hint" class="muted">An http(s) URL. Leave empty to use the sandbox's own receiver (deliveries are logged, not sent).</p>
        <p id="webhook-url-error" class="error" hidden></p>
        <button type="submit">Save webhook URL</button>
      </form>
    </>
  );
}

/**
 * Runs inside the dashboard script's closure (it uses its headers(), show() and resultSlot()). The
 * secrets live in `secretValues` only; the page shows them on "Reveal".
 */
export const SETTINGS_SCRIPT = String.raw`
  var secretValues = {};
  var MASK = "••••••••••••";
  function setText(id, text) { document.getElementById(id).textContent = text; }
  function setSecret(id, value) {
    secretValues[id] = value;
    var node = document.getElementById(id);
    if (node.getAttribute("data-masked") !== "true") node.textContent = value;
  }
  function fillWebhook(m) {
    setText("webhook-current", m.webhook_url || "Not set: the sandbox's own receiver");
    setText("webhook-scheme", "HMAC-" + m.webhook.signature_algorithm.toUpperCase() + " of the raw body, " + m.webhook.signature_encoding + " encoded");
    setSecret("webhook-secret", m.webhook_secret);
  }
  function loadSettings() {
    var c = creds() || {};
    setText("keys-api-key", c.apiKey || "");
    secretValues["keys-api-key"] = c.apiKey || "";
    setSecret("keys-api-secret", c.apiSecret || "");
    return fetch("/sandbox/v1/merchant", { headers: headers({}) }).then(function (r) { return r.ok ? r.json() : null; }).then(function (json) {
      if (!json) return;
      setText("keys-merchant-id", json.data.merchant_id);
      fillWebhook(json.data);
    });
  }
  function clearSettings() {
    secretValues = {};
    ["keys-merchant-id", "keys-api-key", "webhook-current", "webhook-scheme"].forEach(function (id) { setText(id, ""); });
    Array.prototype.forEach.call(document.querySelectorAll("[data-reveal]"), function (button) { if (button.getAttribute("aria-expanded") === "true") toggleSecret(button); });
    document.getElementById("webhook-form").reset();
    fieldError("");
  }
  function toggleSecret(button) {
    var id = button.getAttribute("data-reveal");
    var node = document.getElementById(id);
    var reveal = node.getAttribute("data-masked") === "true";
    node.setAttribute("data-masked", reveal ? "false" : "true");
    node.textContent = reveal ? (secretValues[id] || "") : MASK;
    button.setAttribute("aria-expanded", reveal ? "true" : "false");
    button.textContent = reveal ? "Hide" : "Reveal";
    button.setAttribute("aria-label", button.getAttribute("aria-label").replace(reveal ? /^Reveal/ : /^Hide/, reveal ? "Hide" : "Reveal"));
  }
  function fieldError(message) {
    var input = document.getElementById("webhook-url");
    var error = document.getElementById("webhook-url-error");
    error.textContent = message;
    error.hidden = !message;
    if (message) input.setAttribute("aria-invalid", "true"); else input.removeAttribute("aria-invalid");
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-reveal], button[data-copy]");
    if (!button) return;
    if (button.hasAttribute("data-reveal")) { toggleSecret(button); return; }
    var slot = resultSlot(button);
    var name = button.getAttribute("aria-label").replace(/^Copy /, "");
    // A secret is copied from its kept value (the page may show it masked); anything else, as shown.
    var id = button.getAttribute("data-copy");
    var shown = document.getElementById(id);
    var value = id in secretValues ? secretValues[id] : shown && shown.textContent;
    if (!value || !navigator.clipboard) { show(slot, "error", "Could not copy the " + name + ": this browser gives no clipboard here.", false); return; }
    navigator.clipboard.writeText(value).then(
      function () { show(slot, "success", "Copied the " + name + " to the clipboard.", false); },
      function () { show(slot, "error", "Could not copy the " + name + ": the browser refused.", false); });
  });
  // The user's text stays in the field whatever the answer; a refusal is said beside it.
  document.getElementById("webhook-form").addEventListener("submit", function (event) {
    event.preventDefault();
    var input = document.getElementById("webhook-url");
    var url = input.value.trim();
    var slot = resultSlot(input);
    show(slot, "notice", "Working…", false);
    fetch("/sandbox/v1/merchant", { method: "PATCH", headers: headers({ "content-type": "application/json" }), body: JSON.stringify({ webhook_url: url === "" ? null : url }) })
      .then(function (r) { return r.json().then(function (json) { return { ok: r.ok, json: json }; }); })
      .then(function (res) {
        if (res.ok) {
          fieldError("");
          fillWebhook(res.json.data);
          show(slot, "success", res.json.data.webhook_url ? "Webhook URL saved: new deliveries go to " + res.json.data.webhook_url + "." : "Webhook URL cleared: deliveries go to the sandbox's own receiver.", true);
          return;
        }
        var own = res.json.errors && res.json.errors.webhook_url;
        fieldError(own ? own.join(" ") : "");
        show(slot, "error", res.json.error_code + ": " + (own ? "webhook_url: " + own.join(" ") : res.json.message), !own);
        if (own) input.focus();
      })
      .catch(function () { show(slot, "error", "The sandbox could not be reached.", true); });
  });
`;
