/** @jsxImportSource hono/jsx */
/**
 * The page behind `payment_link` (branded) and `checkout_url` (the legacy processor page): what to
 * pay and where, a live countdown to expiry, the status, and in the sandbox a panel that simulates
 * the customer's bank transfer (optionally with a wrong amount, to show the refusal). Its script is
 * src/browser/checkout/, its look src/browser/styles/checkout.css.
 *
 * Each state (pending, paid, expired) is one view rendered here and nowhere else: after a live
 * change the script fetches it (LinkStateFragment) and shows it, so the words never differ.
 */
import { raw } from "hono/html";
import { Page } from "./layout.js";
import { nairaText, toneOf } from "./dashboard-ui.js";
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

const STATUS_TEXT = { pending: "Awaiting payment", paid: "Paid", expired: "Expired" } as const;
/** Nigeria keeps West Africa Time all year. */
const watTime = (iso: string) =>
  `${new Date(iso).toLocaleString("en-GB", { timeZone: "Africa/Lagos", day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" })} WAT`;
/** The logo placeholder: up to two initials of the business name, as checkouts show without a logo. */
const initials = (name: string) =>
  name.split(/\s+/).filter((w) => /^\p{L}/u.test(w)).slice(0, 2).map((w) => w[0]!.toUpperCase()).join("") || "₦";

function CopyButton(props: { value: string; label: string }) {
  return (
    <button type="button" class="secondary small copy" data-copy={props.value} data-label={props.label}>
      <span class="copy-text">Copy</span>
      <span class="sr-only"> {props.label}</span>
    </button>
  );
}

/** A value that must read whole (a reference, an email): on one line, scrolling in its own box if too long. */
function Fact(props: { label: string; value: string; mono?: boolean; testid?: string }) {
  return (
    <div>
      <dt>{props.label}</dt>
      <dd>
        <span class={props.mono ? "oneline mono" : "oneline"} data-testid={props.testid}>{props.value}</span>
      </dd>
    </div>
  );
}

function When(props: { iso: string }) {
  return <time datetime={props.iso} class="nowrap">{watTime(props.iso)}</time>;
}

/** The amount once, large (quieter once it can no longer be paid): the figure every state is about. */
function Amount(props: { d: LinkPageData; copy?: boolean; quiet?: boolean }) {
  const d = props.d;
  return (
    <>
      <div class="pay-amount-row">
        <p class={props.quiet ? "pay-amount pay-quiet money" : "pay-amount money"} data-testid="amount">{nairaText(d.amount)}</p>
        {props.copy ? <CopyButton value={d.amount.toFixed(2)} label="amount" /> : null}
      </div>
      {d.description ? <p class="pay-desc" data-testid="description">{d.description}</p> : null}
    </>
  );
}

function BackLink(props: { d: LinkPageData; id: string; text: string }) {
  return props.d.redirect_url ? (
    <a href={props.d.redirect_url} id={props.id} class="button secondary pay-wide">
      {props.text} {props.d.business_name}
    </a>
  ) : null;
}

const ClockNote = (props: { d: LinkPageData }) => <p class="muted pay-footnote">Times are West Africa Time on {props.d.business_name}'s sandbox clock.</p>;

/** Pending: what to pay and where. The account's details are on the page only in this state. */
function PendingView(props: { d: LinkPageData }) {
  const d = props.d;
  return (
    <>
      <Amount d={d} copy />
      <p class="pay-time">
        <span>
          Time left <strong id="countdown" class="money">--:--</strong>
        </span>
        <span id="clock-note" class="muted" hidden={d.clock_mode !== "manual"}>The sandbox clock is manual: it moves when advanced.</span>
      </p>
      <dl class="pay-facts">
        <Fact label="Reference" value={d.reference} mono testid="reference" />
        {d.customer_email ? <Fact label="Paying as" value={d.customer_email} testid="customer-email" /> : null}
      </dl>
      <section class="pay-transfer" aria-labelledby="transfer-heading" id="transfer-details">
        <h2 id="transfer-heading">Pay by bank transfer</h2>
        <p class="muted">
          Transfer exactly the amount above to this one-time account. It accepts only that amount and closes {CHECKOUT_VALIDITY_MS / MINUTE} minutes after the link
          was created.
        </p>
        <div class="pay-copy-row">
          <div>
            <p class="muted pay-label">Account number</p>
            <p class="pay-account mono" data-testid="account-number">{d.account_number}</p>
          </div>
          <CopyButton value={d.account_number} label="account number" />
        </div>
        <dl class="details pay-bank">
          <dt>Bank</dt>
          <dd>{d.bank_name}</dd>
          <dt>Account name</dt>
          <dd>{d.account_name}</dd>
        </dl>
        <div id="sent-step">
          <button type="button" id="sent-button" class="pay-wide">I've sent the money</button>
        </div>
        <div id="waiting" class="notice" tabindex={-1} hidden>
          <p class="pay-strong">Waiting for your transfer to arrive</p>
          <p>Transfers usually arrive within a few minutes. Keep this page open: it updates by itself when {d.business_name} receives your transfer.</p>
        </div>
      </section>
      <BackLink d={d} id="cancel-link" text="Cancel and return to" />
    </>
  );
}

function PaidView(props: { d: LinkPageData }) {
  const d = props.d;
  return (
    <section class="pay-outcome" aria-labelledby="receipt-heading" id="receipt" tabindex={-1}>
      <h2 id="receipt-heading">Payment received</h2>
      <Amount d={d} />
      <p>
        Paid to {d.business_name}
        {d.paid_at ? (
          <>
            {" "}on <When iso={d.paid_at} />
          </>
        ) : null}
        . You can close this page.
      </p>
      <dl class="pay-facts">
        <Fact label="Reference" value={d.reference} mono testid="reference" />
        {d.customer_email ? <Fact label="Paid by" value={d.customer_email} testid="customer-email" /> : null}
      </dl>
      <ClockNote d={d} />
      {d.redirect_url ? <p class="notice">Taking you back to {d.business_name}…</p> : null}
      <BackLink d={d} id="return-link" text="Return to" />
    </section>
  );
}

function ExpiredView(props: { d: LinkPageData }) {
  const d = props.d;
  return (
    <section class="pay-outcome" aria-labelledby="expired-heading" id="expired" tabindex={-1}>
      <h2 id="expired-heading">This payment link has expired</h2>
      <Amount d={d} quiet />
      <p>
        It expired on <When iso={d.expires_at} />. Its one-time account is closed: do not transfer to it. Ask {d.business_name} for a new payment link. If you
        already sent money, your bank returns it.
      </p>
      <dl class="pay-facts">
        <Fact label="Reference" value={d.reference} mono testid="reference" />
      </dl>
      <ClockNote d={d} />
      <BackLink d={d} id="return-link" text="Return to" />
    </section>
  );
}

const VIEWS = { pending: PendingView, paid: PaidView, expired: ExpiredView } as const;

/** The status as a live region: the script changes its words only when the status changes. */
function StatusChip(props: { d: LinkPageData }) {
  const status = props.d.status;
  return (
    <span id="status" class={`chip ${toneOf(status)}`} role="status" aria-live="polite" data-status={status}>
      {STATUS_TEXT[status]}
    </span>
  );
}

function StateView(props: { d: LinkPageData }) {
  const View = VIEWS[props.d.status];
  return (
    <div id="state-view" data-state={props.d.status}>
      <View d={props.d} />
    </div>
  );
}

/**
 * The parts of the page that change with the state (the status chip and the state view), alone: what
 * the script fetches after a live change, so it shows the very words a fresh load would.
 */
export function LinkStateFragment(props: { data: LinkPageData }) {
  return (
    <>
      <StatusChip d={props.data} />
      <StateView d={props.data} />
    </>
  );
}

/** The sandbox's stand-in for the customer's bank, apart from what the customer sees. */
function SimulatePanel(props: { d: LinkPageData }) {
  const closed = props.d.status !== "pending";
  return (
    <section class="pay-sandbox" aria-labelledby="simulate-heading" id="simulate">
      <p class="sandbox-tag">Sandbox only</p>
      <h2 id="simulate-heading">Simulate the customer's transfer</h2>
      <p class="muted">A real customer never sees this panel: it stands in for their bank.</p>
      <form id="simulate-form">
        <label for="simulate-amount">Amount to transfer (₦)</label>
        <div class="pay-simulate-row">
          <input id="simulate-amount" name="amount" type="number" step="0.01" min="0.01" value={String(props.d.amount)} inputmode="decimal" disabled={closed} />
          <button type="submit" id="simulate-button" disabled={closed}>Simulate bank transfer</button>
        </div>
        <p class="muted">Change the amount to see how a wrong amount is refused.</p>
      </form>
      <div id="message" role="alert" aria-live="assertive"></div>
    </section>
  );
}

export function LinkPage(props: { data: LinkPageData; variant: "branded" | "processor"; nonce: string }) {
  const d = props.data;
  const processor = props.variant === "processor";
  return (
    <Page title={processor ? `Checkout: ${nairaText(d.amount)}` : `Pay ${d.business_name}`} nonce={props.nonce} script="checkout.js" bodyClass={processor ? "checkout processor" : "checkout"}>
      <main id="main">
        <article class="card pay-card" aria-labelledby="pay-title">
          <header class="pay-head">
            <span class="logo" aria-hidden="true">{initials(d.business_name)}</span>
            <div class="pay-who">
              <p class="muted">{processor ? "Payment processor checkout" : "Secure payment link"}</p>
              <h1 id="pay-title">{processor ? "Complete your payment" : d.business_name}</h1>
              {processor ? <p class="pay-strong" data-testid="merchant">{d.business_name}</p> : null}
            </div>
            <StatusChip d={d} />
          </header>
          <StateView d={d} />
        </article>
        <SimulatePanel d={d} />
        <div id="copy-note" class="sr-only" aria-live="polite"></div>
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
  const { reference, status, expires_at, now, clock_mode, clock_speed, redirect_url } = d;
  return { reference, status, expires_at, now, clock_mode, clock_speed, redirect_url };
}

/** A reference that names no link (404): styled like the page it stands for, with the same viewport. */
export function LinkNotFoundPage(props: { nonce: string }) {
  return (
    <Page title="Payment link not found" nonce={props.nonce} bodyClass="checkout">
      <main id="main">
        <section class="card pay-card pay-outcome" aria-labelledby="not-found-heading">
          <h1 id="not-found-heading">Payment link not found</h1>
          <p>This link does not exist. It may be mistyped or cut short: check the link you were given, or ask the business for a new one.</p>
          <p class="muted">Do not transfer money to an account from a link you cannot open.</p>
        </section>
      </main>
    </Page>
  );
}
