/** @jsxImportSource hono/jsx */
/**
 * The dashboard's lists of the merchant's objects, rendered on the server from its state with the
 * same view functions the API uses: statuses as chips, amounts as money cells, each object's id a
 * link to its story, and an empty state that says how to make the first one. Buttons and forms carry
 * `data-post` (dashboard-controls.tsx): the dashboard's script sends them with the merchant's keys.
 */
import { cardView, cardholderView } from "../domain/cards.js";
import { PARTNER_BANK } from "../domain/catalog.js";
import { checkoutView } from "../domain/checkout.js";
import { describer, ledgerEntryView } from "../domain/ledger.js";
import { CHECKOUT_DESCRIPTION_MAX, CHECKOUT_MIN_AMOUNT } from "../domain/limits.js";
import { listCardholders, listCards, listCheckouts, listLedger, listPayouts, listVaPayments, listVirtualAccounts, listVtuPurchases } from "../domain/lists.js";
import { payoutStatusView } from "../domain/payouts.js";
import { LEDGER_KINDS, PAYOUT_STATUSES, VA_PAYMENT_STATUSES } from "../domain/records.js";
import { vaPaymentView } from "../domain/va-payments.js";
import { virtualAccountView } from "../domain/virtual-accounts.js";
import { vtuRecordView } from "../domain/vtu.js";
import type { Tenant } from "../engine/tenant.js";
import { Action, Fold } from "./dashboard-controls.js";
import { callSnippet, EmptyList, firstCalls, SCENARIO_FILES } from "./dashboard-first-steps.js";
import { sampleOf, SampleTag } from "./dashboard-sample.js";
import { choices, ListTable, pageOf, tableQuery, when } from "./dashboard-tables.js";
import { Chip, Money, StoryLink } from "./dashboard-ui.js";

export { Action } from "./dashboard-controls.js";
export { ClockPanel } from "./dashboard-clock.js";
export { Outcomes } from "./dashboard-outcomes.js";

const money = (label: string) => ({ label, money: true as const });

export function Ledger({ tenant, query, baseUrl }: { tenant: Tenant; query: URLSearchParams; baseUrl: string }) {
  const q = tableQuery(query, "", LEDGER_KINDS);
  const describe = describer(tenant.state);
  const page = pageOf(q, (paging) => listLedger(tenant.state, { search: q.search, status: q.status as (typeof LEDGER_KINDS)[number] | undefined }, paging));
  const empty = (
    <EmptyList id="ledger-empty" title="No ledger entries yet" call={callSnippet(baseUrl, firstCalls(tenant).fund)}>
      <p>Every debit and credit of the wallet is an entry here. Fund the wallet to make the first: the Fund form on <a href="/dashboard">Home</a>, or this call.</p>
    </EmptyList>
  );
  return (
    <ListTable id="ledger-list" label="Ledger" what="ledger entries" caption="Newest first" head={["#", "When", "Kind", money("Amount"), money("Balance after"), "Transaction", "Description"]} empty={empty}
      query={q} page={page} size={tenant.state.ledger.length} statuses={choices(LEDGER_KINDS)} statusLabel="Kind" searchLabel="Search transaction or description">
      {page.items.map((entry) => {
        const e = ledgerEntryView(entry, describe);
        return (
          <tr data-key={e.entry_id}>
            <td data-label="#">{e.entry_id}</td>
            <td data-label="When">{when(e.created_at)}</td>
            <td data-label="Kind">{e.kind}</td>
            <td data-label="Amount" class="money"><Money amount={e.amount} sign={e.type === "debit" ? "−" : "+"} /></td>
            <td data-label="Balance after" class="money"><Money amount={e.balance_after} /></td>
            <td data-label="Transaction" class="mono">{e.transaction_id}</td>
            <td data-label="Description">{e.description}</td>
          </tr>
        );
      })}
    </ListTable>
  );
}

export function VirtualAccounts({ tenant, query, baseUrl }: { tenant: Tenant; query: URLSearchParams; baseUrl: string }) {
  const q = tableQuery(query, "", []);
  const page = pageOf(q, (paging) => listVirtualAccounts(tenant.state, { search: q.search }, paging));
  const sample = sampleOf(tenant);
  const empty = (
    <EmptyList id="accounts-empty" title="No virtual accounts yet" call={callSnippet(baseUrl, firstCalls(tenant).virtualAccount)} scenario={SCENARIO_FILES.virtualAccount}>
      <p>A virtual account is a bank account number dedicated to one customer: what they pay into it credits your wallet. Create the first with "Create a virtual account" below, or this call.</p>
    </EmptyList>
  );
  return (
    <div>
      <ListTable id="accounts-list" label="Virtual accounts" caption="Dedicated accounts, newest first" head={["Account", "Name", "Reference", "Created", "Simulate"]} empty={empty}
        query={q} page={page} size={tenant.state.virtualAccounts.size} searchLabel="Search account, name, reference or email">
        {page.items.map((a) => {
          const v = virtualAccountView(a);
          return (
            <tr data-key={v.account_number}>
              <td data-label="Account" class="mono">{v.account_number}<SampleTag on={sample("virtual_account", v.account_number)} /></td>
              <td data-label="Name">{v.account_name}</td>
              <td data-label="Reference">{v.reference}</td>
              <td data-label="Created">{when(v.created_at)}</td>
              {/* Collapsed: one Tab stop per row until opened. */}
              <td data-label="" class="actions-cell"><details><summary>Simulate a transfer in</summary>
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
        <form id="va-form" data-post="/api/v1/virtual-account/create" data-extra={JSON.stringify({ bank: PARTNER_BANK.key })} class="row gap-top" novalidate>
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

/** The transfers customers made into the merchant's virtual accounts. */
export function Transfers({ tenant, query }: { tenant: Tenant; query: URLSearchParams }) {
  const q = tableQuery(query, "", VA_PAYMENT_STATUSES);
  const page = pageOf(q, (paging) => listVaPayments(tenant.state, { search: q.search, status: q.status as (typeof VA_PAYMENT_STATUSES)[number] | undefined }, paging));
  const sample = sampleOf(tenant);
  const empty = (
    <EmptyList id="transfers-empty" title="No transfers in yet" scenario={SCENARIO_FILES.virtualAccount}>
      <p>
        A transfer in arrives when a customer pays into one of your virtual accounts.{" "}
        {tenant.state.virtualAccounts.size > 0
          ? 'Simulate one with "Simulate a transfer in" on an account above.'
          : "Create a virtual account above, then simulate a transfer into it."}
      </p>
    </EmptyList>
  );
  return (
    <ListTable id="transfers-list" label="Transfers in" caption="Newest first" head={["Transaction", money("Amount"), "Status", "Account", "Payer", "Narration", "Received"]} empty={empty}
      query={q} page={page} size={tenant.state.vaPayments.size} statuses={choices(VA_PAYMENT_STATUSES)} searchLabel="Search narration">
      {page.items.map((p) => {
        const v = vaPaymentView(p);
        return (
          <tr data-transfer={v.transaction_id} data-key={v.transaction_id}>
            <td data-label="Transaction"><StoryLink kind="va_payment" id={v.transaction_id} /><SampleTag on={sample("va_payment", v.transaction_id)} /></td>
            <td data-label="Amount" class="money"><Money amount={v.amount} /></td>
            <td data-label="Status"><Chip status={v.status} /></td>
            <td data-label="Account" class="mono">{v.virtual_account}</td>
            <td data-label="Payer">{v.payer_name}<div class="muted">{v.payer_bank}</div></td>
            <td data-label="Narration">{v.reference}</td>
            <td data-label="Received">{when(v.created_at)}</td>
          </tr>
        );
      })}
    </ListTable>
  );
}

const LINK_STATUSES = ["pending", "paid", "expired"] as const;

export function PaymentLinks({ tenant, baseUrl, query }: { tenant: Tenant; baseUrl: string; query: URLSearchParams }) {
  const now = tenant.clock.now();
  const q = tableQuery(query, "", LINK_STATUSES);
  const page = pageOf(q, (paging) => listCheckouts(tenant.state, now, { search: q.search, status: q.status as (typeof LINK_STATUSES)[number] | undefined }, paging));
  const sample = sampleOf(tenant);
  const empty = (
    <EmptyList id="links-empty" title="No payment links yet" call={callSnippet(baseUrl, firstCalls(tenant).paymentLink)} scenario={SCENARIO_FILES.paymentLink}>
      <p>A payment link is a hosted page where a customer pays an amount by bank transfer. Create the first with "Create a payment link" below, or this call.</p>
    </EmptyList>
  );
  return (
    <div>
      <ListTable id="links-list" label="Payment links" caption="Newest first" head={["Reference", money("Amount"), "Status", "Expires", "Paid", ""]} empty={empty}
        query={q} page={page} size={tenant.state.checkouts.size} statuses={choices(LINK_STATUSES)} searchLabel="Search reference or description">
        {page.items.map((c) => {
          const v = checkoutView(c, now);
          return (
            <tr data-key={v.reference}>
              <td data-label="Reference">
                <StoryLink kind="checkout" id={v.reference} />
                <SampleTag on={sample("checkout", v.reference)} />
                <div>
                  <a href={`${baseUrl}/pay/${v.reference}`} target="_blank" rel="noopener" aria-label={`Open payment page ${v.reference}`}>Open payment page</a>
                </div>
              </td>
              <td data-label="Amount" class="money"><Money amount={v.amount} /></td>
              <td data-label="Status"><Chip status={v.status} /></td>
              <td data-label="Expires">{when(v.expires_at)}</td>
              <td data-label="Paid">{when(v.paid_at)}</td>
              <td data-label="" class="actions-cell">{v.status === "pending" ? <Action post={`/sandbox/v1/checkout/${v.reference}/pay`} body={{}} label="Pay exact amount" /> : null}</td>
            </tr>
          );
        })}
      </ListTable>
      <Fold id="link-fold" label="Create a payment link">
        <form id="link-form" data-post="/api/v1/checkout/create" class="row gap-top" novalidate>
          <div data-field><label for="link-amount">Amount (₦, min {CHECKOUT_MIN_AMOUNT})</label><input id="link-amount" name="amount" type="number" step="0.01" min={String(CHECKOUT_MIN_AMOUNT)} required /></div>
          <div data-field><label for="link-desc">Description</label><input id="link-desc" name="description" maxlength={CHECKOUT_DESCRIPTION_MAX} /></div>
          <button type="submit">Create payment link</button>
        </form>
      </Fold>
    </div>
  );
}

export function Payouts({ tenant, query, baseUrl }: { tenant: Tenant; query: URLSearchParams; baseUrl: string }) {
  const q = tableQuery(query, "", PAYOUT_STATUSES);
  const page = pageOf(q, (paging) => listPayouts(tenant.state, { search: q.search, status: q.status as (typeof PAYOUT_STATUSES)[number] | undefined }, paging));
  const sample = sampleOf(tenant);
  const calls = firstCalls(tenant);
  const verify = callSnippet(baseUrl, calls.verify);
  const transfer = callSnippet(baseUrl, calls.payout);
  const empty = (
    <EmptyList id="payouts-empty" title="No payouts yet" call={{ text: `${verify.text}\n\n${transfer.text}`, what: "the calls that verify an account and pay it" }} scenario={SCENARIO_FILES.payout}>
      <p>A payout sends money from your wallet to a bank account. Verify the account first (name enquiry), then send the transfer with the name it returned:</p>
    </EmptyList>
  );
  return (
    <ListTable id="payouts-list" label="Payouts" caption="Newest first" head={["Reference", money("Amount"), money("Fee"), "Status", "Account", "Created", "Processed", "Error", "Actions"]} empty={empty}
      query={q} page={page} size={tenant.state.payouts.size} statuses={choices(PAYOUT_STATUSES)} searchLabel="Search reference, order or account">
      {page.items.map((p) => {
        const v = payoutStatusView(p);
        const base = `/sandbox/v1/payouts/${encodeURIComponent(v.reference)}`;
        return (
          <tr data-payout={v.reference} data-key={v.reference}>
            <td data-label="Reference"><StoryLink kind="payout" id={v.reference} /><SampleTag on={sample("payout", v.reference)} /></td>
            <td data-label="Amount" class="money"><Money amount={v.amount} /></td>
            <td data-label="Fee" class="money"><Money amount={v.fee} /></td>
            <td data-label="Status"><Chip status={v.status} testid="payout-status" /></td>
            <td data-label="Account">{v.bank_name} <span class="mono">{v.account}</span></td>
            <td data-label="Created">{when(v.created_at)}</td>
            <td data-label="Processed">{when(v.processed_at)}</td>
            <td data-label="Error">{v.error ?? ""}</td>
            <td data-label="" class="actions-cell">
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

export function Vtu({ tenant, query, baseUrl }: { tenant: Tenant; query: URLSearchParams; baseUrl: string }) {
  const q = tableQuery(query, "", VTU_STATUSES.map((s) => s.value));
  const page = pageOf(q, (paging) => listVtuPurchases(tenant.state, { search: q.search, status: q.status as (typeof VTU_STATUSES)[number]["value"] | undefined }, paging));
  const sample = sampleOf(tenant);
  const empty = (
    <EmptyList id="vtu-empty" title="No VTU purchases yet" call={callSnippet(baseUrl, firstCalls(tenant).airtime)} scenario={SCENARIO_FILES.vtu}>
      <p>Airtime, data, cable, electricity and exam pins are paid from your wallet. Buy the first airtime with this call:</p>
    </EmptyList>
  );
  return (
    <ListTable id="vtu-list" label="VTU purchases" what="VTU purchases" caption="Newest first" head={["Reference", "Service", money("Amount"), "Status", "Description", "Date", "Actions"]} empty={empty}
      query={q} page={page} size={tenant.state.vtu.size} statuses={VTU_STATUSES} searchLabel="Search reference or description">
      {page.items.map((p) => {
        const v = vtuRecordView(p);
        return (
          <tr data-key={v.reference}>
            <td data-label="Reference"><StoryLink kind="vtu" id={v.reference} /><SampleTag on={sample("vtu", p.transaction_id)} /></td>
            <td data-label="Service">{v.service}</td>
            <td data-label="Amount" class="money"><Money amount={v.amount} /></td>
            <td data-label="Status"><Chip status={p.status} label={v.status} /></td>
            <td data-label="Description">{v.description}{v.token ? <div class="mono">Token {v.token}</div> : null}</td>
            <td data-label="Date">{when(v.date)}</td>
            <td data-label="" class="actions-cell">
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

export function Cards({ tenant, query, baseUrl }: { tenant: Tenant; query: URLSearchParams; baseUrl: string }) {
  const hq = tableQuery(query, "", KYC_STATUSES);
  const holders = pageOf(hq, (paging) => listCardholders(tenant.state, { search: hq.search, status: hq.status as (typeof KYC_STATUSES)[number] | undefined }, paging));
  const cq = tableQuery(query, "cards.", CARD_STATUSES);
  const cards = pageOf(cq, (paging) => listCards(tenant.state, { search: cq.search, status: cq.status as (typeof CARD_STATUSES)[number] | undefined }, paging));
  const sample = sampleOf(tenant);
  const calls = firstCalls(tenant);
  const noHolders = (
    <EmptyList id="cardholders-empty" title="No cardholders yet" call={callSnippet(baseUrl, calls.cardholder)} scenario={SCENARIO_FILES.card}>
      <p>A card is issued to a cardholder whose KYC is approved. Create the first cardholder with this call; its KYC is approved after a delay on the sandbox clock (or with "Approve KYC" here).</p>
    </EmptyList>
  );
  const noCards = (
    <EmptyList id="cards-empty" title="No cards yet" call={callSnippet(baseUrl, calls.card)}>
      <p>
        {[...tenant.state.cardholders.values()].some((h) => h.kyc_status === "APPROVED")
          ? "Issue a virtual USD card to a cardholder whose KYC is approved:"
          : "Create a cardholder first (above); once its KYC is approved, issue a card with its id:"}
      </p>
    </EmptyList>
  );
  return (
    <div>
      <h3>Cardholders</h3>
      <ListTable id="cardholders-list" label="Cardholders" caption="Newest first" head={["ID", "Name", "Email", "KYC", ""]} empty={noHolders}
        query={hq} page={holders} size={tenant.state.cardholders.size} statuses={choices(KYC_STATUSES)} statusLabel="KYC" searchLabel="Search id, name or email">
        {holders.items.map((h) => {
          const v = cardholderView(h);
          return (
            <tr data-key={v.cardholder_id}>
              <td data-label="ID" class="mono">{v.cardholder_id}<SampleTag on={sample("cardholder", v.cardholder_id)} /></td>
              <td data-label="Name">{v.full_name}</td>
              <td data-label="Email">{v.email}</td>
              <td data-label="KYC"><Chip status={v.kyc_status} label={v.kyc_status.toLowerCase()} /></td>
              <td data-label="" class="actions-cell">{v.kyc_status === "PENDING" ? <Action post={`/sandbox/v1/cardholders/${v.cardholder_id}/approve`} label="Approve KYC" /> : null}</td>
            </tr>
          );
        })}
      </ListTable>
      <h3>Cards</h3>
      <ListTable id="cards-list" label="Cards" caption="Newest first" head={["ID", "Brand", "Card", money("Balance"), "Status", "Actions"]} empty={noCards}
        query={cq} page={cards} size={tenant.state.cards.size} statuses={choices(CARD_STATUSES)} searchLabel="Search id, card number or label">
        {cards.items.map((c) => {
          const v = cardView(c);
          const base = `/api/v1/virtual-cards/${v.card_id}`;
          return (
            <tr data-key={v.card_id}>
              <td data-label="ID"><StoryLink kind="card" id={v.card_id} /><SampleTag on={sample("card", v.card_id)} /></td>
              <td data-label="Brand">{v.brand}</td>
              <td data-label="Card" class="mono">{v.masked_pan}</td>
              <td data-label="Balance" class="money"><Money amount={v.balance} currency="USD" /></td>
              <td data-label="Status"><Chip status={v.status} /></td>
              <td data-label="" class="actions-cell">
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
