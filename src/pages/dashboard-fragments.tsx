/** @jsxImportSource hono/jsx */
/**
 * Dashboard sections, rendered on the server from the merchant's state with the same view functions
 * the API uses. Buttons and forms carry `data-post` (and `data-method`, `data-body`): the dashboard's
 * small client script sends them to the JSON APIs with the signed-in merchant's keys.
 */
import type { Child } from "hono/jsx";
import { cardView, cardholderView } from "../domain/cards.js";
import { checkoutView } from "../domain/checkout.js";
import { ledgerEntryView } from "../domain/ledger.js";
import { payoutStatusView } from "../domain/payouts.js";
import { virtualAccountView } from "../domain/virtual-accounts.js";
import { vtuRecordView } from "../domain/vtu.js";
import { walletView } from "../domain/wallet.js";
import { OUTCOMES } from "../domain/outcomes.js";
import { LEDGER_KINDS, maxDelaySeconds, OUTCOME_TARGETS, PAYOUT_STATUSES, QUERY_OUTCOMES, RULE_SHAPES } from "../domain/records.js";
import {
  listCardholders,
  listCards,
  listCheckouts,
  listLedger,
  listOutcomeRules,
  listPayouts,
  listVirtualAccounts,
  listVtuPurchases,
} from "../domain/lists.js";
import { contextOf, type Tenant } from "../engine/tenant.js";
import { choices, ListTable, pageOf, tableQuery, when } from "./dashboard-tables.js";
import { sampleOf, SampleTag } from "./dashboard-sample.js";


const naira = (n: number) => `₦${n.toLocaleString("en-NG", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

export function Action(props: { post: string; body?: unknown; label: string; method?: string; secondary?: boolean }) {
  return (
    <button
      type="button"
      class={props.secondary ? "secondary" : ""}
      data-post={props.post}
      data-method={props.method ?? "POST"}
      data-body={props.body === undefined ? undefined : JSON.stringify(props.body)}
    >
      {props.label}
    </button>
  );
}

/**
 * A form folded under one summary until opened: each is one Tab stop on the way to the tables below
 * instead of one per field, so a keyboard user reaches "Redeliver" quickly. The live updates keep
 * a fold open (its `open` is the user's, not the server's).
 */
function Fold(props: { id: string; label: string; children?: Child }) {
  return (
    <details class="fold gap-top" id={props.id}>
      <summary>{props.label}</summary>
      {props.children}
    </details>
  );
}

export function Overview({ tenant }: { tenant: Tenant }) {
  const ctx = contextOf(tenant);
  const wallet = walletView(ctx, tenant.state);
  const clock = tenant.clock.settings();
  return (
    <div>
      <h2>{tenant.config.business_name}</h2>
      <p class="muted">
        Merchant <span class="mono">{tenant.id}</span>
      </p>
      {tenant.requestLog.all().some((e) => e.sample) ? (
        <p class="notice" data-testid="sample-notice">
          This merchant started with sample activity, tagged <span class="tag">sample</span> below: the sandbox made it through the API at start, as a
          model integration would (a name enquiry before each transfer). Your own requests and objects appear beside it, untagged.
        </p>
      ) : null}
      <p>
        Wallet balance: <strong data-testid="balance">{naira(wallet.balance)}</strong>
      </p>
      <p>
        Sandbox time: <strong data-testid="sim-time">{when(new Date(ctx.now).toISOString())}</strong> ({clock.mode}
        {clock.mode === "realtime" ? `, x${clock.speed}` : ""}), {tenant.state.timers.length} pending timer(s)
      </p>
      <div class="row">
        <Action post="/sandbox/v1/clock/advance" body={{ by: "1m" }} label="Advance 1 min" />
        <Action post="/sandbox/v1/clock/advance" body={{ by: "30m" }} label="Advance 30 min" />
        <Action post="/sandbox/v1/clock/advance" body={{ by: "1d" }} label="Advance 1 day" />
      </div>
      {/* novalidate on every form: the sandbox's own validation answers, under the field, keeping the input. */}
      <Fold id="advance-fold" label="Advance by a duration or to a time">
        <form id="advance-by-form" data-post="/sandbox/v1/clock/advance" class="row gap-top" novalidate>
          <div data-field>
            <label for="advance-by">Advance by</label>
            <input id="advance-by" name="by" class="w-l" autocomplete="off" aria-describedby="advance-by-hint" />
            <p id="advance-by-hint" class="muted">A number and s, m, h or d: 15s, 90m, 2h, 3d.</p>
          </div>
          <button type="submit">Advance</button>
        </form>
        <form id="advance-to-form" data-post="/sandbox/v1/clock/advance" class="row gap-top" novalidate>
          <div data-field>
            <label for="advance-to">Advance to (UTC)</label>
            <input id="advance-to" name="to" type="datetime-local" step="1" data-type="utc" aria-describedby="advance-to-hint" />
            <p id="advance-to-hint" class="muted">A date and time in UTC, at or after the sandbox time.</p>
          </div>
          <button type="submit">Advance to this time</button>
        </form>
      </Fold>
      <form id="fund-form" data-post="/sandbox/v1/wallet/fund" class="row gap-top" novalidate>
        <div data-field>
          <label for="fund-amount">Fund wallet (₦)</label>
          <input id="fund-amount" name="amount" type="number" step="0.01" min="0.01" />
        </div>
        <button type="submit">Fund</button>
      </form>
    </div>
  );
}

export function Ledger({ tenant, query }: { tenant: Tenant; query: URLSearchParams }) {
  const q = tableQuery(query, "", LEDGER_KINDS);
  const page = pageOf(q, (paging) => listLedger(tenant.state, { search: q.search, status: q.status as (typeof LEDGER_KINDS)[number] | undefined }, paging));
  return (
    <ListTable id="ledger-list" label="Ledger" what="ledger entries" caption="Newest first" head={["#", "When", "Kind", "Amount", "Balance after", "Transaction", "Description"]} empty="No ledger entries."
      query={q} page={page} size={tenant.state.ledger.length} statuses={choices(LEDGER_KINDS)} statusLabel="Kind" searchLabel="Search transaction or description">
      {page.items.map((entry) => {
        const e = ledgerEntryView(entry);
        return (
          <tr data-key={e.entry_id}>
            <td>{e.entry_id}</td>
            <td>{when(e.created_at)}</td>
            <td>{e.kind}</td>
            <td>{(e.type === "debit" ? "−" : "+") + naira(e.amount)}</td>
            <td>{naira(e.balance_after)}</td>
            <td class="mono">{e.transaction_id}</td>
            <td>{e.description}</td>
          </tr>
        );
      })}
    </ListTable>
  );
}

export function VirtualAccounts({ tenant, query }: { tenant: Tenant; query: URLSearchParams }) {
  const q = tableQuery(query, "", []);
  const page = pageOf(q, (paging) => listVirtualAccounts(tenant.state, { search: q.search }, paging));
  const sample = sampleOf(tenant);
  return (
    <div>
      <ListTable id="accounts-list" label="Virtual accounts" caption="Dedicated accounts, newest first" head={["Account", "Name", "Reference", "Created", "Simulate"]} empty="No virtual accounts yet."
        query={q} page={page} size={tenant.state.virtualAccounts.size} searchLabel="Search account, name, reference or email">
        {page.items.map((a) => {
          const v = virtualAccountView(a);
          return (
            <tr data-key={v.account_number}>
              <td class="mono">{v.account_number}<SampleTag on={sample("virtual_account", v.account_number)} /></td>
              <td>{v.account_name}</td>
              <td>{v.reference}</td>
              <td>{when(v.created_at)}</td>
              {/* Collapsed: one Tab stop per row until opened. */}
              <td><details><summary>Simulate a transfer in</summary>
                <form data-post={`/sandbox/v1/virtual-accounts/${v.account_number}/transfers`} class="row">
                  <label class="muted" for={`amt-${v.account_number}`}>Amount (₦)</label>
                  <input id={`amt-${v.account_number}`} name="amount" type="number" step="0.01" min="0.01" required class="w-m" />
                  <label class="muted" for={`nar-${v.account_number}`}>Narration</label>
                  <input id={`nar-${v.account_number}`} name="narration" type="text" class="w-l" />
                  <button type="submit">Send</button>
                </form>
              </details></td>
            </tr>
          );
        })}
      </ListTable>
      <Fold id="va-fold" label="Create a virtual account">
        <form id="va-form" data-post="/api/v1/virtual-account/create" data-extra='{"bank":"partnerbank"}' class="row gap-top" novalidate>
          <div data-field><label for="va-first">First name</label><input id="va-first" name="first_name" required /></div>
          <div data-field><label for="va-last">Last name</label><input id="va-last" name="last_name" required /></div>
          <div data-field><label for="va-email">Email</label><input id="va-email" name="email" type="email" required /></div>
          <div data-field><label for="va-ref">Reference</label><input id="va-ref" name="reference" required /></div>
          <div data-field><label for="va-bvn">BVN (optional)</label><input id="va-bvn" name="bvn" inputmode="numeric" /></div>
          <button type="submit">Create virtual account</button>
        </form>
      </Fold>
    </div>
  );
}

const LINK_STATUSES = ["pending", "paid", "expired"] as const;

export function PaymentLinks({ tenant, baseUrl, query }: { tenant: Tenant; baseUrl: string; query: URLSearchParams }) {
  const now = tenant.clock.now();
  const q = tableQuery(query, "", LINK_STATUSES);
  const page = pageOf(q, (paging) => listCheckouts(tenant.state, now, { search: q.search, status: q.status as (typeof LINK_STATUSES)[number] | undefined }, paging));
  const sample = sampleOf(tenant);
  return (
    <div>
      <ListTable id="links-list" label="Payment links" caption="Newest first" head={["Reference", "Amount", "Status", "Expires", "Paid at", ""]} empty="No payment links yet."
        query={q} page={page} size={tenant.state.checkouts.size} statuses={choices(LINK_STATUSES)} searchLabel="Search reference or description">
        {page.items.map((c) => {
          const v = checkoutView(c, now);
          return (
            <tr data-key={v.reference}>
              <td>
                <a href={`${baseUrl}/pay/${v.reference}`} target="_blank" rel="noopener" class="mono">{v.reference}</a>
                <SampleTag on={sample("checkout", v.reference)} />
              </td>
              <td>{naira(v.amount)}</td>
              <td><span class={`status ${v.status}`}>{v.status}</span></td>
              <td>{when(v.expires_at)}</td>
              <td>{when(v.paid_at)}</td>
              <td>{v.status === "pending" ? <Action post={`/sandbox/v1/checkout/${v.reference}/pay`} body={{}} label="Pay exact amount" /> : null}</td>
            </tr>
          );
        })}
      </ListTable>
      <Fold id="link-fold" label="Create a payment link">
        <form id="link-form" data-post="/api/v1/checkout/create" class="row gap-top" novalidate>
          <div data-field><label for="link-amount">Amount (₦, min 100)</label><input id="link-amount" name="amount" type="number" step="0.01" min="100" required /></div>
          <div data-field><label for="link-desc">Description</label><input id="link-desc" name="description" maxlength={200} /></div>
          <button type="submit">Create payment link</button>
        </form>
      </Fold>
    </div>
  );
}

export function Payouts({ tenant, query }: { tenant: Tenant; query: URLSearchParams }) {
  const q = tableQuery(query, "", PAYOUT_STATUSES);
  const page = pageOf(q, (paging) => listPayouts(tenant.state, { search: q.search, status: q.status as (typeof PAYOUT_STATUSES)[number] | undefined }, paging));
  const sample = sampleOf(tenant);
  return (
    <ListTable id="payouts-list" label="Payouts" caption="Newest first" head={["Reference", "Amount", "Fee", "Status", "Account", "Created", "Processed", "Error", "Actions"]} empty="No payouts yet."
      query={q} page={page} size={tenant.state.payouts.size} statuses={choices(PAYOUT_STATUSES)} searchLabel="Search reference, order or account">
      {page.items.map((p) => {
        const v = payoutStatusView(p);
        const base = `/sandbox/v1/payouts/${encodeURIComponent(v.reference)}`;
        return (
          <tr data-payout={v.reference} data-key={v.reference}>
            <td class="mono">{v.reference}<SampleTag on={sample("payout", v.reference)} /></td>
            <td>{naira(v.amount)}</td>
            <td>{naira(v.fee)}</td>
            <td><span class={`status ${v.status === "completed" ? "paid" : v.status === "failed" ? "failed" : "pending"}`} data-testid="payout-status">{v.status}</span></td>
            <td>{v.bank_name} {v.account}</td>
            <td>{when(v.created_at)}</td>
            <td>{when(v.processed_at)}</td>
            <td>{v.error ?? ""}</td>
            <td class="row">
              {v.status === "pending_approval" ? [<Action post={`${base}/approve`} label="Approve" />, <Action post={`${base}/reject`} label="Reject" secondary />] : null}
              {v.status === "processing" ? [<Action post={`${base}/complete`} label="Complete" />, <Action post={`${base}/fail`} label="Fail" secondary />] : null}
            </td>
          </tr>
        );
      })}
    </ListTable>
  );
}

const VTU_STATUSES = [
  { value: "processing", label: "Processing" },
  { value: "success", label: "Success" },
  { value: "fail", label: "Failed" },
] as const;

export function Vtu({ tenant, query }: { tenant: Tenant; query: URLSearchParams }) {
  const q = tableQuery(query, "", VTU_STATUSES.map((s) => s.value));
  const page = pageOf(q, (paging) => listVtuPurchases(tenant.state, { search: q.search, status: q.status as (typeof VTU_STATUSES)[number]["value"] | undefined }, paging));
  const sample = sampleOf(tenant);
  return (
    <ListTable id="vtu-list" label="VTU purchases" what="VTU purchases" caption="Newest first" head={["Reference", "Service", "Amount", "Status", "Description", "Date", "Actions"]} empty="No VTU purchases yet."
      query={q} page={page} size={tenant.state.vtu.size} statuses={VTU_STATUSES} searchLabel="Search reference or description">
      {page.items.map((p) => {
        const v = vtuRecordView(p);
        return (
          <tr data-key={v.reference}>
            <td class="mono">{v.reference}<SampleTag on={sample("vtu", p.transaction_id)} /></td>
            <td>{v.service}</td>
            <td>{naira(v.amount)}</td>
            <td>{v.status}</td>
            <td>{v.description}{v.token ? <div class="mono">Token {v.token}</div> : null}</td>
            <td>{when(v.date)}</td>
            <td class="row">
              {v.status === "Processing"
                ? [<Action post={`/sandbox/v1/vtu/${v.reference}/succeed`} label="Succeed" />, <Action post={`/sandbox/v1/vtu/${v.reference}/fail`} label="Fail" secondary />]
                : null}
            </td>
          </tr>
        );
      })}
    </ListTable>
  );
}

const KYC_STATUSES = ["PENDING", "APPROVED"] as const;
const CARD_STATUSES = ["active", "frozen", "terminated"] as const;

export function Cards({ tenant, query }: { tenant: Tenant; query: URLSearchParams }) {
  const hq = tableQuery(query, "", KYC_STATUSES);
  const holders = pageOf(hq, (paging) => listCardholders(tenant.state, { search: hq.search, status: hq.status as (typeof KYC_STATUSES)[number] | undefined }, paging));
  const cq = tableQuery(query, "cards.", CARD_STATUSES);
  const cards = pageOf(cq, (paging) => listCards(tenant.state, { search: cq.search, status: cq.status as (typeof CARD_STATUSES)[number] | undefined }, paging));
  const sample = sampleOf(tenant);
  return (
    <div>
      <h3>Cardholders</h3>
      <ListTable id="cardholders-list" label="Cardholders" caption="Newest first" head={["ID", "Name", "Email", "KYC", ""]} empty="No cardholders yet."
        query={hq} page={holders} size={tenant.state.cardholders.size} statuses={choices(KYC_STATUSES)} statusLabel="KYC" searchLabel="Search id, name or email">
        {holders.items.map((h) => {
          const v = cardholderView(h);
          return (
            <tr data-key={v.cardholder_id}>
              <td>{v.cardholder_id}<SampleTag on={sample("cardholder", v.cardholder_id)} /></td>
              <td>{v.full_name}</td>
              <td>{v.email}</td>
              <td>{v.kyc_status}</td>
              <td>{v.kyc_status === "PENDING" ? <Action post={`/sandbox/v1/cardholders/${v.cardholder_id}/approve`} label="Approve KYC" /> : null}</td>
            </tr>
          );
        })}
      </ListTable>
      <h3>Cards</h3>
      <ListTable id="cards-list" label="Cards" caption="Newest first" head={["ID", "Brand", "Card", "Balance (USD)", "Status", "Actions"]} empty="No cards yet."
        query={cq} page={cards} size={tenant.state.cards.size} statuses={choices(CARD_STATUSES)} searchLabel="Search id, card number or label">
        {cards.items.map((c) => {
          const v = cardView(c);
          const base = `/api/v1/virtual-cards/${v.card_id}`;
          return (
            <tr data-key={v.card_id}>
              <td>{v.card_id}<SampleTag on={sample("card", v.card_id)} /></td>
              <td>{v.brand}</td>
              <td class="mono">{v.masked_pan}</td>
              <td>${v.balance.toFixed(2)}</td>
              <td>{v.status}</td>
              <td class="row">
                {v.status === "active" ? <Action post={`${base}/freeze`} label="Freeze" secondary /> : null}
                {v.status === "frozen" ? <Action post={`${base}/unfreeze`} label="Unfreeze" /> : null}
                {v.status !== "terminated" ? <Action post={`${base}/terminate`} label="Terminate" secondary /> : null}
                {v.status !== "terminated" ? (<details><summary>Spend</summary>
                  <form data-post={`/sandbox/v1/virtual-cards/${v.card_id}/spend`} class="row">
                    <label class="muted" for={`spend-${v.card_id}`}>Spend $</label>
                    <input id={`spend-${v.card_id}`} name="amount" type="number" step="0.01" min="0.01" required class="w-s" />
                    <button type="submit">Spend</button>
                  </form>
                </details>) : null}
              </td>
            </tr>
          );
        })}
      </ListTable>
    </div>
  );
}

function RuleForm() {
  const targets = OUTCOME_TARGETS;
  // Only what POST /sandbox/v1/outcomes takes for each target, so no pair it refuses can be sent.
  const spec = Object.fromEntries(targets.map((t) => [t, { outcomes: OUTCOMES[t], queries: QUERY_OUTCOMES[t] ?? [], ...RULE_SHAPES[t], max_delay: maxDelaySeconds(t) }]));
  const first = spec[targets[0]]!;
  return (
    <form id="rule-form" data-post="/sandbox/v1/outcomes" data-rules={JSON.stringify(spec)} class="row gap-top" novalidate>
      <div data-field>
        <label for="rule-target">Target</label>
        <select id="rule-target" name="target">{targets.map((t) => <option value={t}>{t}</option>)}</select>
      </div>
      <div data-field>
        <label for="rule-outcome">Outcome</label>
        <select id="rule-outcome" name="outcome" data-for={targets[0]}>{first.outcomes.map((o) => <option value={o}>{o}</option>)}</select>
      </div>
      <div data-field>
        <label for="rule-match-key">Only when</label>
        <select id="rule-match-key" data-match-key>
          <option value="">{`(every ${targets[0]})`}</option>
          {first.match.map((k) => <option value={k}>{k}</option>)}
        </select>
      </div>
      <div data-field data-rule-field="match_value" hidden>
        <label for="rule-match-value">equals</label>
        <input id="rule-match-value" data-match-value class="w-l" autocomplete="off" />
      </div>
      <div data-field data-rule-field="delay_seconds" hidden={!first.delay.includes(first.outcomes[0]!)}>
        <label for="rule-delay">Delay (s)</label>
        <input id="rule-delay" name="delay_seconds" type="number" min="0" max={String(first.max_delay)} step="1" class="w-m" />
      </div>
      <div data-field data-rule-field="queries" hidden={!first.queries.includes(first.outcomes[0]!)}>
        <label for="rule-queries">Settle on status read no.</label>
        <input id="rule-queries" name="queries" type="number" min="1" step="1" class="w-m" />
      </div>
      <div data-field data-rule-field="times">
        <label for="rule-times">Times</label>
        <input id="rule-times" name="times" type="number" min="1" step="1" class="w-s" />
      </div>
      <div data-field data-rule-field="window_seconds">
        <label for="rule-window">For (s)</label>
        <input id="rule-window" name="window_seconds" type="number" min="1" step="1" class="w-m" />
      </div>
      <button type="submit">Add rule</button>
    </form>
  );
}

export function Outcomes({ tenant, query }: { tenant: Tenant; query: URLSearchParams }) {
  const q = tableQuery(query, "", OUTCOME_TARGETS);
  const page = pageOf(q, (paging) => listOutcomeRules(tenant.state, { search: q.search, status: q.status as (typeof OUTCOME_TARGETS)[number] | undefined }, paging));
  return (
    <div>
      <ListTable id="outcomes-list" label="Outcome rules" caption="The newest matching rule wins" head={["ID", "Target", "Match", "Outcome", "Delay (s)", "Uses left", ""]} empty="No outcome rules."
        query={q} page={page} size={tenant.state.outcomeRules.length} statuses={choices(OUTCOME_TARGETS)} statusLabel="Target" searchLabel="Search id, outcome or match">
        {page.items.map((r) => (
          <tr data-key={r.id}>
            <td class="mono">{r.id}</td>
            <td>{r.target}</td>
            <td class="mono">{r.match ? JSON.stringify(r.match) : "any"}</td>
            <td>{r.outcome}</td>
            <td>{r.delay_seconds ?? "default"}</td>
            <td>{r.times ?? "until deleted"}</td>
            <td><Action post={`/sandbox/v1/outcomes/${r.id}`} method="DELETE" label="Delete" secondary /></td>
          </tr>
        ))}
      </ListTable>
      <RuleForm />
    </div>
  );
}
