/** A card's story: its issue, its transactions, and the status changes its requests made. */
import { cardholderView, cardTransactionView, cardView } from "./cards.js";
import type { Card, CardTransaction } from "./records.js";
import type { LoggedRequest } from "./request-log.js";
import type { TenantState } from "./state.js";
import { field, inText, money, time, traffic, type Draft, type Told } from "./story-timeline.js";

/** Card operations whose success changes the card's status, and the status it leaves. */
const CARD_STATUS_CHANGES: Record<string, Card["status"]> = { freezeVirtualCard: "frozen", unfreezeVirtualCard: "active", terminateVirtualCard: "terminated" };

export function cardStory(state: TenantState, requests: readonly LoggedRequest[], c: Card): Told {
  const v = cardView(c);
  const holder = state.cardholders.get(c.cardholder_id);
  const h = holder ? cardholderView(holder) : null;
  // Cards have no webhook events.
  const t = traffic(state, requests, "card", [String(c.card_id)], null);
  const drafts: Draft[] = [
    {
      key: "created",
      kind: "created",
      at: c.created_at,
      title: "Card issued",
      tone: "info",
      detail: `${c.brand} ${c.masked_pan} for ${h ? h.full_name : `cardholder ${c.cardholder_id}`}.`,
    },
  ];
  for (const txn of state.cardTransactions.get(c.card_id) ?? []) drafts.push(cardTransactionEntry(txn));
  // Status changes are not stamped on the card: the requests that made them are.
  for (const r of t.touched) {
    const to = r.operation ? CARD_STATUS_CHANGES[r.operation] : undefined;
    if (to && r.status !== null && r.status < 300) {
      drafts.push({ key: `state:request:${r.seq}`, kind: "state", at: r.at, title: `Status changed to ${to}`, tone: to === "active" ? "ok" : "info", detail: null });
    }
  }
  return {
    id: String(c.card_id),
    status: c.status,
    status_label: c.status,
    amount: { label: "Balance", value: v.balance, currency: "USD" },
    fields: [
      field("Card", v.card_id),
      field("Number", v.masked_pan, "mono"),
      field("Brand", v.brand),
      field("Label", v.label),
      field("Expires", `${String(v.expiry_month).padStart(2, "0")}/${v.expiry_year}`),
      field("Status", v.status),
      money("Balance", v.balance, "USD"),
      field("Cardholder", h ? `${h.full_name} (${h.email}), KYC ${h.kyc_status}` : String(c.cardholder_id)),
      time("Issued", v.created_at),
    ],
    drafts,
    traffic: t,
  };
}

function cardTransactionEntry(txn: CardTransaction): Draft {
  const t = cardTransactionView(txn);
  const declined = t.status === "declined";
  const title = declined
    ? `Declined: ${t.description}${t.decline_reason ? ` (${t.decline_reason})` : ""}`
    : t.type === "funding"
      ? "Funded from the wallet"
      : t.type === "unload"
        ? `${t.description}: moved to the wallet`
        : `Spent: ${t.description}`;
  return {
    key: `transaction:${t.transaction_id}`,
    kind: "state",
    at: txn.created_at,
    title,
    tone: declined ? "bad" : "ok",
    detail: `Balance after: ${inText("USD", txn.balance_after)}. Transaction ${t.transaction_id}.`,
    amount: declined ? null : { value: t.amount, currency: "USD", sign: t.type === "funding" ? "+" : "−" },
  };
}
