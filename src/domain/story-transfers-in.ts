/** A transfer into a virtual account's story: its arrival, its credit, and its settlement still due. */
import { toMajor } from "./money.js";
import type { VaPayment } from "./records.js";
import type { LoggedRequest } from "./request-log.js";
import type { TenantState } from "./state.js";
import { field, money, time, timersOf, traffic, type Draft, type Told } from "./story-timeline.js";
import { vaPaymentView } from "./va-payments.js";

export function vaPaymentStory(state: TenantState, requests: readonly LoggedRequest[], p: VaPayment): Told {
  const v = vaPaymentView(p);
  const t = traffic(state, requests, "va_payment", [p.transaction_id], p.transaction_id);
  const open = p.status === "pending" || p.status === "processing";
  const drafts: Draft[] = [
    {
      key: "created",
      kind: "created",
      at: p.created_at,
      title: "Transfer received",
      tone: "info",
      detail: `From ${p.payer_name} (${p.payer_bank}) into ${p.virtual_account}. ${
        p.plan === null ? "Arrived successful." : open ? `Arrived ${p.status}: nothing credited until the payer's bank confirms.` : "Arrived pending or processing: nothing credited until the payer's bank confirmed."
      }`,
    },
  ];
  // The credit is the change to success; a failed transfer leaves no trace of when it failed.
  const credit = state.ledger.find((e) => e.kind === "va_payment" && e.transaction_id === p.transaction_id);
  if (credit) {
    drafts.push({ key: "state:success", kind: "state", at: credit.at, title: "Status changed to success: credited to the wallet", tone: "ok", detail: null, amount: { value: toMajor(credit.amount), currency: "NGN", sign: "+" } });
  }
  for (const timer of timersOf(state, "va_payment.settle", p.transaction_id)) {
    const fails = p.plan?.outcome === "failed";
    drafts.push({
      key: `timer:${timer.seq}`,
      kind: "scheduled",
      at: timer.at,
      title: fails ? "Due to settle: failed (returned to the payer)" : "Due to settle: success (credited)",
      tone: "info",
      detail: null,
    });
  }
  return {
    id: p.transaction_id,
    status: p.status,
    status_label: p.status,
    amount: { label: "Amount", value: v.amount, currency: "NGN" },
    fields: [
      field("Transaction", v.transaction_id, "mono"),
      field("Narration", v.reference === "" ? "(empty)" : v.reference),
      field("Status", p.status === "failed" ? "failed: returned to the payer, never credited" : v.status),
      money("Amount", v.amount),
      field("Payer", `${v.payer_name} (${v.payer_bank})`),
      field("Into account", v.virtual_account, "mono"),
      time("Received", v.created_at),
    ],
    drafts,
    traffic: t,
  };
}
