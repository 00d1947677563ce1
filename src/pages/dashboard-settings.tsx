/** @jsxImportSource hono/jsx */
/**
 * The dashboard's "API Keys" and "Webhook Settings" sections, the two pages the spec says a merchant
 * gets its keys and sets its webhook from. Unlike the other sections they are not server fragments:
 * their values are secrets, so the browser fills them from what it already holds (the signed-in keys)
 * and from GET /sandbox/v1/merchant, and no refreshed HTML ever carries a secret. Not refreshed by the live
 * updates either, so a half-typed URL or a revealed secret stays as the user left it.
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
      <h3>Test your receiver</h3>
      <p id="send-test-hint" class="muted">
        Sends one signed <span class="mono">webhook.test</span> event to the webhook URL now (no money moved) and shows what your
        receiver answered. It is listed with the other events and deliveries.
      </p>
      <button type="button" data-post="/sandbox/v1/webhooks/test" aria-describedby="send-test-hint">Send test event</button>
    </>
  );
}


/** The id of a setting's control (and the stem of its hint's and error's ids). */
const settingId = (name: string) => `set-${name.replace(/[._]/g, "-")}`;

/** One labelled setting of the editor; `name` is its dotted path in PATCH /sandbox/v1/merchant. */
function Setting(props: { name: string; label: string; type?: "number" | "text"; step?: string; hint?: string; dataType?: string; inputmode?: "numeric" | "decimal" }) {
  const id = settingId(props.name);
  return (
    <div data-field>
      <label for={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? "number"}
        step={props.step}
        min={props.type === "text" ? undefined : "0"}
        inputmode={props.inputmode}
        data-type={props.dataType}
        autocomplete="off"
        aria-describedby={props.hint ? `${id}-hint` : undefined}
      />
      {props.hint ? <p id={`${id}-hint`} class="muted">{props.hint}</p> : null}
    </div>
  );
}

function Choice(props: { name: string; label: string; options: string[] }) {
  const id = settingId(props.name);
  return (
    <div data-field>
      <label for={id}>{props.label}</label>
      <select id={id} name={props.name}>{props.options.map((o) => <option value={o}>{o}</option>)}</select>
    </div>
  );
}

function Flag(props: { name: string; label: string }) {
  const id = settingId(props.name);
  return (
    <div data-field class="row">
      <input id={id} name={props.name} type="checkbox" />
      <label for={id}>{props.label}</label>
    </div>
  );
}

/**
 * The settings PATCH /sandbox/v1/merchant takes (the webhook URL is in Webhook Settings), filled from
 * GET /sandbox/v1/merchant; and reset, behind a confirm step. Not refreshed: what is being typed stays.
 */
export function SandboxSettings() {
  return (
    <>
      {/* novalidate: the sandbox's own validation answers, in its words, under each field. */}
      <form id="settings-form" data-post="/sandbox/v1/merchant" data-method="PATCH" data-keep data-changed-only novalidate>
        <fieldset>
          <legend>Business</legend>
          <Setting name="business_name" label="Business name" type="text" />
          <Setting name="kyc.bvn" label="Merchant BVN (11 digits; empty keeps it)" type="text" inputmode="numeric" />
          <Setting name="kyc.nin" label="Merchant NIN (11 digits; empty keeps it)" type="text" inputmode="numeric" />
          <Setting name="ip_allowlist" label="IP allowlist" type="text" dataType="list" hint="Addresses separated by commas or spaces; empty turns allowlisting off." />
        </fieldset>
        <fieldset>
          <legend>Products</legend>
          <Flag name="capabilities.payouts" label="Payouts" />
          <Flag name="capabilities.vtu" label="VTU" />
          <Flag name="capabilities.virtual_cards" label="Virtual cards" />
          <Flag name="capabilities.checkout" label="Payment links" />
        </fieldset>
        <fieldset>
          <legend>Limits (₦)</legend>
          <Setting name="limits.payout_min" label="Smallest payout" step="0.01" />
          <Setting name="limits.payout_max" label="Largest payout" step="0.01" />
          <Setting name="limits.payout_hourly_amount" label="Paid out per hour" step="0.01" />
          <Setting name="limits.payout_daily_amount" label="Paid out per 24 hours" step="0.01" />
          <Setting name="limits.payout_review_threshold" label="Held for approval from" step="0.01" />
          <Setting name="limits.payout_attempts_per_hour" label="Payout attempts per hour (0 = no cap)" step="1" />
          <Setting name="limits.payout_attempts_per_ip_per_hour" label="Payout attempts per IP per hour (0 = no cap)" step="1" />
          <Setting name="limits.requests_per_minute" label="Requests per minute (0 = off)" step="1" />
        </fieldset>
        <fieldset>
          <legend>Delays (seconds of sandbox time)</legend>
          <Setting name="delays.payout_settlement_seconds" label="Payout settlement" step="1" />
          <Setting name="delays.vtu_settlement_seconds" label="VTU settlement" step="1" />
          <Setting name="delays.kyc_approval_seconds" label="KYC approval" step="1" />
        </fieldset>
        <fieldset>
          <legend>Cards</legend>
          <Setting name="card_funding_fee_usd" label="Card funding fee (USD)" step="0.01" />
          <Setting name="usd_ngn_rate" label="USD to NGN rate" step="0.01" />
        </fieldset>
        <fieldset>
          <legend>Webhooks</legend>
          <Choice name="webhook.signature_algorithm" label="Signature algorithm" options={["sha256", "sha512"]} />
          <Choice name="webhook.signature_encoding" label="Signature encoding" options={["hex", "base64"]} />
          <Setting name="webhook.timeout_seconds" label="Time-out (wall-clock seconds)" step="0.1" />
          <Setting name="webhook.retry_schedule_seconds" label="Retry schedule (seconds)" type="text" dataType="numbers" hint="Waits before each retry, e.g. 60, 300, 1800; empty = no retries." />
        </fieldset>
        <fieldset>
          <legend>Clock</legend>
          <Choice name="clock.mode" label="Mode" options={["manual", "realtime"]} />
          <Setting name="clock.speed" label="Speed (realtime: sandbox seconds per real second)" step="any" />
        </fieldset>
        <button type="submit">Save settings</button>
      </form>
      <h3>Reset</h3>
      <form id="reset-form" data-post="/sandbox/v1/reset" data-confirm="reset-confirm" class="gap-top" novalidate>
        <p class="muted">Empties the merchant: ledger, payouts, payment links, virtual accounts, VTU purchases, cards, events, deliveries, outcome rules and timers. Keys, settings and the clock stay.</p>
        <div data-field>
          <label for="reset-balance">Starting wallet balance (₦, optional; 0 if empty)</label>
          <input id="reset-balance" name="wallet_balance" type="number" step="0.01" min="0" autocomplete="off" />
        </div>
        <button type="button" class="secondary" data-ask="reset-confirm" aria-expanded="false" aria-controls="reset-confirm">Empty this merchant…</button>
        <div id="reset-confirm" hidden>
          <p><strong>This cannot be undone.</strong> Everything above is deleted now.</p>
          <div class="row">
            <button type="submit" class="danger">Yes, empty this merchant</button>
            <button type="button" class="secondary" data-cancel="reset-confirm">Cancel</button>
          </div>
        </div>
      </form>
    </>
  );
}
