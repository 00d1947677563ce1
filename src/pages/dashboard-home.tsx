/** @jsxImportSource hono/jsx */
/**
 * The dashboard's Home: the balance and the clock, a "get started" panel while the merchant is new,
 * the latest activity across its objects, and the integration checks' verdict in one line.
 */
import { cardView } from "../domain/cards.js";
import { checkoutView } from "../domain/checkout.js";
import { listCards, listCheckouts, listPayouts, listVaPayments, listVtuPurchases } from "../domain/lists.js";
import { payoutView } from "../domain/payouts.js";
import { plural, spokenList } from "../domain/prose.js";
import { vaPaymentView } from "../domain/va-payments.js";
import { vtuRecordView } from "../domain/vtu.js";
import { walletView } from "../domain/wallet.js";
import { integrationChecks } from "../engine/integration-checks.js";
import { contextOf, type Tenant } from "../engine/tenant.js";
import { ClockStatus, QuickAdvances } from "./dashboard-clock.js";
import { CallStep, firstCalls } from "./dashboard-first-steps.js";
import { sampleOf, SampleTag } from "./dashboard-sample.js";
import { Table, when } from "./dashboard-tables.js";
import { Chip, EmptyState, Money, StoryLink, type StoryKind } from "./dashboard-ui.js";

/** The latest objects Home lists. */
const LATEST = 8;

export function HomeSummary({ tenant }: { tenant: Tenant }) {
  const wallet = walletView(contextOf(tenant), tenant.state);
  return (
    <div>
      {tenant.requestLog.all().some((e) => e.sample) ? (
        <p class="notice" data-testid="sample-notice">
          This merchant started with sample activity, tagged <span class="tag">sample</span> in the lists: the sandbox made it through the API at start, as a
          model integration would (a name enquiry before each transfer). Your own requests and objects appear beside it, untagged.
        </p>
      ) : null}
      <div class="grid">
        <div>
          <p class="muted">Wallet balance</p>
          <p class="stat"><Money amount={wallet.balance} testid="balance" /></p>
          {/* novalidate: the sandbox's own validation answers, under the field, keeping the input. */}
          <form id="fund-form" data-post="/sandbox/v1/wallet/fund" class="row" novalidate>
            <div data-field>
              <label for="fund-amount">Fund wallet (₦)</label>
              <input id="fund-amount" name="amount" type="number" step="0.01" min="0.01" />
            </div>
            <button type="submit">Fund</button>
          </form>
        </div>
        <div>
          <ClockStatus tenant={tenant} />
          <QuickAdvances />
          <p><a href="/dashboard/clock">Advance by any duration, or see what is due</a></p>
        </div>
      </div>
    </div>
  );
}

/**
 * New: nothing of the merchant's own yet. No request of its own in the request log (the demo's
 * sample requests do not count), and every payout, payment link, virtual account, VTU purchase,
 * cardholder and card it holds was made by that sample activity (a scenario's objects count as its own).
 */
function isNewMerchant(tenant: Tenant): boolean {
  if (!tenant.requestLog.all().every((e) => e.sample)) return false;
  const { payouts, checkouts, virtualAccounts, vtu, cardholders, cards } = tenant.state;
  const sample = sampleOf(tenant);
  return (
    [...payouts.keys()].every((ref) => sample("payout", ref)) &&
    [...checkouts.keys()].every((ref) => sample("checkout", ref)) &&
    [...virtualAccounts.keys()].every((n) => sample("virtual_account", n)) &&
    [...vtu.values()].every((p) => sample("vtu", p.transaction_id)) &&
    [...cardholders.keys()].every((id) => sample("cardholder", id)) &&
    [...cards.keys()].every((id) => sample("card", id))
  );
}

/** The first calls, while the merchant is new; after that an empty section (the shell hides it). */
export function GetStarted({ tenant, baseUrl }: { tenant: Tenant; baseUrl: string }) {
  if (!isNewMerchant(tenant)) return <div data-empty-section=""></div>;
  const calls = firstCalls(tenant);
  return (
    <div data-testid="get-started">
      <p>
        Point your integration at <span class="mono">{baseUrl}</span> instead of the real service: the same paths, bodies, errors and webhooks. Make your
        first calls (Copy fills in your keys):
      </p>
      <ol>
        <CallStep id="start-balance" baseUrl={baseUrl} call={calls.balance} title="Read the wallet balance" />
        <CallStep id="start-account" baseUrl={baseUrl} call={calls.virtualAccount} title="Create a virtual account for a customer" />
        <CallStep id="start-verify" baseUrl={baseUrl} call={calls.verify} title="Verify a bank account (name enquiry)" />
        <CallStep id="start-payout" baseUrl={baseUrl} call={calls.payout} title="Pay it, with the name the verification returned" />
      </ol>
      <p>
        Then advance the clock to settle the payout, and read its webhook in <a href="/dashboard/events">Events and deliveries</a>. Every endpoint, with
        examples: <a href="/docs">the API docs</a>.
      </p>
    </div>
  );
}

interface Activity {
  what: string;
  kind: StoryKind;
  id: string | number;
  /** Made by the sample activity. */
  sampled: boolean;
  status: string;
  statusLabel?: string;
  amount: number;
  currency?: "USD";
  created_at: string;
}

/** The newest LATEST objects of each kind: together, they hold the newest LATEST of all. */
function latest(tenant: Tenant): Activity[] {
  const { state } = tenant;
  const sample = sampleOf(tenant);
  const now = tenant.clock.now();
  const first = { page: 1, per_page: LATEST };
  const rows: Activity[] = [
    ...listPayouts(state, {}, first).items.map(payoutView).map((v) => ({
      what: "Payout", kind: "payout" as const, id: v.reference, sampled: sample("payout", v.reference), status: v.status, amount: v.amount, created_at: v.created_at,
    })),
    ...listVaPayments(state, {}, first).items.map(vaPaymentView).map((v) => ({
      what: "Transfer in", kind: "va_payment" as const, id: v.transaction_id, sampled: sample("va_payment", v.transaction_id), status: v.status, amount: v.amount, created_at: v.created_at,
    })),
    ...listCheckouts(state, now, {}, first).items.map((c) => checkoutView(c, now)).map((v) => ({
      what: "Payment link", kind: "checkout" as const, id: v.reference, sampled: sample("checkout", v.reference), status: v.status, amount: v.amount, created_at: v.created_at,
    })),
    ...listVtuPurchases(state, {}, first).items.map((p) => ({ p, v: vtuRecordView(p) })).map(({ p, v }) => ({
      what: "VTU purchase", kind: "vtu" as const, id: v.reference, sampled: sample("vtu", p.transaction_id), status: p.status, statusLabel: v.status, amount: v.amount, created_at: v.date,
    })),
    ...listCards(state, {}, first).items.map(cardView).map((v) => ({
      what: "Card", kind: "card" as const, id: v.card_id, sampled: sample("card", v.card_id), status: v.status, amount: v.balance, currency: "USD" as const, created_at: v.created_at,
    })),
  ];
  // ISO times on one clock sort as text; the sort is stable, so each kind keeps its newest-first order on ties.
  return rows.sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0)).slice(0, LATEST);
}

export function LatestActivity({ tenant }: { tenant: Tenant }) {
  const rows = latest(tenant);
  const empty = (
    <EmptyState id="activity-empty" title="No activity yet">
      <p>Payouts, transfers in, payment links, VTU purchases and cards appear here, newest first, as your integration makes them.</p>
    </EmptyState>
  );
  return (
    <Table label="Latest activity" caption="Newest first, across payouts, transfers in, payment links, VTU purchases and cards" head={["What", "Reference", "Status", { label: "Amount", money: true }, "When"]} empty={empty}>
      {rows.map((r) => (
        <tr data-activity={`${r.kind}:${r.id}`} data-key={`${r.kind}:${r.id}`}>
          <td data-label="What">{r.what}</td>
          <td data-label="Reference"><StoryLink kind={r.kind} id={r.id} /><SampleTag on={r.sampled} /></td>
          <td data-label="Status"><Chip status={r.status} label={r.statusLabel} /></td>
          <td data-label="Amount" class="money"><Money amount={r.amount} currency={r.currency} /></td>
          <td data-label="When">{when(r.created_at)}</td>
        </tr>
      ))}
    </Table>
  );
}

/** The integration checks in one line: the verdict as a chip, what fired, and a link to the whole report. */
export function ChecksVerdict({ tenant }: { tenant: Tenant }) {
  const { summary: s } = integrationChecks(tenant);
  const fired = s.fired === 0 ? "no rule fired" : `${spokenList([plural(s.errors, "error"), plural(s.warnings, "warning"), `${s.infos} info`])} fired`;
  return (
    <p data-verdict={s.verdict} data-testid="checks-verdict">
      <Chip status={s.verdict} label={s.verdict === "pass" ? "Passes" : "Fails"} /> {fired}; {plural(s.passed, "rule")} passed.{" "}
      <a href="/dashboard/checks">See the integration checks</a>
    </p>
  );
}
