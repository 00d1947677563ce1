/**
 * An object's whole story: its fields as the API shows them, and a timeline on the merchant's clock
 * pieced together from what the sandbox already keeps: the record's own times, its webhook events and
 * every delivery attempt, the requests of the request log that touched it, and what is still due for
 * it (timers, a link's expiry). Reads only: nothing here changes the state.
 */
import { checkoutStatus, checkoutView } from "./checkout.js";
import { toMajor } from "./money.js";
import { payoutStatusView } from "./payouts.js";
import { spokenSeconds } from "./prose.js";
import type { Card, Checkout, Payout, VaPayment, VtuPurchase } from "./records.js";
import type { LoggedRequest } from "./request-log.js";
import type { TenantState } from "./state.js";
import { cardStory } from "./story-cards.js";
import { answeredStatus, field, finish, inText, money, time, timersOf, traffic, type Draft, type StoryEntry, type StoryHeader, type Told } from "./story-timeline.js";
import { vaPaymentStory } from "./story-transfers-in.js";
import { vtuRecordView } from "./vtu.js";

export type { StoryAmount, StoryDelivery, StoryEntry, StoryEntryKind, StoryField, StoryRequest, StoryTone } from "./story-timeline.js";

/** The objects that have a story, and how a reader names one of them. */
export const STORY_OBJECTS = {
  payout: { noun: "payout", idName: "reference", plural: "payouts" },
  vtu: { noun: "VTU purchase", idName: "reference", plural: "VTU purchases" },
  checkout: { noun: "payment link", idName: "reference", plural: "payment links" },
  va_payment: { noun: "transfer in", idName: "transaction id", plural: "transfers in" },
  card: { noun: "card", idName: "id", plural: "cards" },
} as const;
export type StoryObjectKind = keyof typeof STORY_OBJECTS;

export interface StoryInput {
  state: TenantState;
  /** The merchant's request log, oldest first (RequestLog.all()). */
  requests: readonly LoggedRequest[];
  kind: StoryObjectKind;
  /** Payout, VTU and payment-link reference; a transfer in's transaction_id; a card's id in decimal. */
  id: string;
  /** The merchant's clock, in ms. */
  now: number;
}

export interface Story extends StoryHeader {
  kind: StoryObjectKind;
  /** Ids of the object's webhook events, oldest first. */
  events: string[];
  /** Oldest first; what is still due comes last. */
  timeline: StoryEntry[];
}

/** Whether the merchant has the object: `storyOf` is null exactly when this is false. */
export function hasStory(state: TenantState, kind: StoryObjectKind, id: string): boolean {
  return recordOf(state, kind, id) !== undefined;
}

export function storyOf(input: StoryInput): Story | null {
  const found = recordOf(input.state, input.kind, input.id);
  if (!found) return null;
  const { drafts, traffic, ...told } = tell(found, input);
  return { kind: found.kind, ...told, events: traffic.events, timeline: finish([...drafts, ...traffic.drafts]) };
}

function tell(found: Found, { state, requests, now }: StoryInput): Told {
  switch (found.kind) {
    case "payout":
      return payoutStory(state, requests, found.record);
    case "vtu":
      return vtuStory(state, requests, found.record);
    case "checkout":
      return checkoutStory(state, requests, found.record, now);
    case "va_payment":
      return vaPaymentStory(state, requests, found.record);
    case "card":
      return cardStory(state, requests, found.record);
  }
}

type Found =
  | { kind: "payout"; record: Payout }
  | { kind: "vtu"; record: VtuPurchase }
  | { kind: "checkout"; record: Checkout }
  | { kind: "va_payment"; record: VaPayment }
  | { kind: "card"; record: Card };

function recordOf(state: TenantState, kind: StoryObjectKind, id: string): Found | undefined {
  const wrap = <K extends Found["kind"]>(k: K, record: Extract<Found, { kind: K }>["record"] | undefined) => (record ? ({ kind: k, record } as Found) : undefined);
  switch (kind) {
    case "payout":
      return wrap("payout", state.payouts.get(id));
    case "vtu":
      return wrap("vtu", state.vtu.get(id));
    case "checkout":
      return wrap("checkout", state.checkouts.get(id));
    case "va_payment":
      return wrap("va_payment", state.vaPayments.get(id));
    case "card": {
      // Only the canonical decimal: "007" or "7.0" name no card.
      const n = /^[1-9]\d{0,15}$/.test(id) ? Number(id) : NaN;
      return Number.isSafeInteger(n) ? wrap("card", state.cards.get(n)) : undefined;
    }
  }
}

// ---- Payouts ---------------------------------------------------------------------------------------

function payoutStory(state: TenantState, requests: readonly LoggedRequest[], p: Payout): Told {
  const v = payoutStatusView(p);
  const t = traffic(state, requests, "payout", [p.reference], p.order_no, p.plan.queries === 0 ? p.processed_at : null);
  const creation = t.touched.find((r) => r.operation === "createPayout" && r.status !== null && r.status < 300);
  const initial = creation ? answeredStatus(creation) : p.status === "pending_approval" ? "pending_approval" : undefined;
  const drafts: Draft[] = [
    {
      key: "created",
      kind: "created",
      at: p.created_at,
      title: "Payout created",
      tone: "info",
      detail:
        initial === "pending_approval"
          ? "Held for approval: at or above the review threshold."
          : initial === "processing"
            ? "Sent to the beneficiary's bank: processing."
            : null,
      amount: { value: toMajor(p.total_deducted), currency: "NGN", sign: "−" },
    },
  ];
  // Approval is not stamped on the record; a pending settlement timer gives its time exactly (approval + the planned delay).
  const [settle] = timersOf(state, "payout.settle", p.reference);
  if (settle && p.status === "processing") {
    const approvedAt = settle.at - p.plan.delay_ms;
    if (initial === "pending_approval" || approvedAt > p.created_at) {
      drafts.push({ key: "state:approved", kind: "state", at: approvedAt, title: "Approved: status changed to processing", tone: "info", detail: null });
    }
  }
  if (p.processed_at !== null) {
    const failed = p.status === "failed";
    drafts.push({
      key: `state:${p.status}`,
      kind: "state",
      at: p.processed_at,
      title: `Status changed to ${p.status}`,
      tone: failed ? "bad" : "ok",
      detail: failed ? `${p.error ?? "Failed"}. ${inText("NGN", p.total_deducted)} (amount and fee) returned to the wallet.` : null,
      amount: failed ? { value: toMajor(p.total_deducted), currency: "NGN", sign: "+" } : null,
    });
  }
  if (settle) {
    drafts.push({
      key: `timer:${settle.seq}`,
      kind: "scheduled",
      at: settle.at,
      title: p.plan.outcome === "failed" ? "Due to settle: failed" : "Due to settle: completed",
      tone: "info",
      detail: p.plan.outcome === "failed" && p.plan.error ? p.plan.error : null,
    });
  }
  return {
    id: p.reference,
    status: p.status,
    status_label: p.status.replaceAll("_", " "),
    amount: { label: "Amount", value: v.amount, currency: "NGN" },
    fields: [
      field("Reference", v.reference, "mono"),
      field("Order no.", v.order_no, "mono"),
      field("Status", v.status),
      money("Amount", v.amount),
      money("Fee", v.fee),
      money("Total deducted", v.total_deducted),
      field("Beneficiary", v.account_name),
      field("Account", `${v.bank_name} ${v.account}`),
      field("Narration", v.narration),
      time("Created", v.created_at),
      time("Processed", v.processed_at),
      field("Error", v.error),
      ...(p.status === "processing" || p.status === "pending_approval" ? [field("Plan", payoutPlan(p))] : []),
    ],
    drafts,
    traffic: t,
  };
}

/** How the payout will settle, as decided when it was made (outcome rules, magic values, the default). */
function payoutPlan(p: Payout): string {
  const { plan } = p;
  if (plan.outcome === "hold") return "Stays processing until completed or failed here.";
  const outcome = plan.outcome === "completed" ? "Completes" : plan.error ? `Fails (${plan.error})` : "Fails";
  const sent = p.status === "pending_approval" ? " once approved" : "";
  if (plan.queries !== null) return `${outcome} on status read number ${plan.queries} from now${sent}.`;
  return `${outcome} ${spokenSeconds(plan.delay_ms / 1000)} after it is sent${sent}.`;
}

// ---- VTU purchases -----------------------------------------------------------------------------------

function vtuStory(state: TenantState, requests: readonly LoggedRequest[], p: VtuPurchase): Told {
  const v = vtuRecordView(p);
  const t = traffic(state, requests, "vtu", [p.transaction_id, p.reference], p.transaction_id, p.plan?.queries === 0 ? p.settled_at : null);
  const drafts: Draft[] = [
    { key: "created", kind: "created", at: p.created_at, title: "VTU purchase created", tone: "info", detail: p.description, amount: { value: v.amount, currency: "NGN", sign: "−" } },
  ];
  if (p.settled_at !== null) {
    const failed = p.status === "fail";
    drafts.push({
      key: `state:${p.status}`,
      kind: "state",
      at: p.settled_at,
      title: `Status changed to ${v.status}`,
      tone: failed ? "bad" : "ok",
      detail: failed ? `${inText("NGN", p.amount)} refunded to the wallet.` : p.token ? `Token ${p.token}.` : p.pins ? `${p.pins.length} pin${p.pins.length === 1 ? "" : "s"} issued.` : null,
      amount: failed ? { value: v.amount, currency: "NGN", sign: "+" } : null,
    });
  }
  for (const timer of timersOf(state, "vtu.settle", p.reference)) {
    drafts.push({ key: `timer:${timer.seq}`, kind: "scheduled", at: timer.at, title: `Due to settle: ${p.plan?.then === "fail" ? "Failed" : "Success"}`, tone: "info", detail: null });
  }
  const plan = p.status === "processing" && p.plan ? vtuPlan(p.plan) : null;
  return {
    id: p.reference,
    status: p.status,
    status_label: v.status,
    amount: { label: "Amount", value: v.amount, currency: "NGN" },
    fields: [
      field("Reference", v.reference, "mono"),
      field("Transaction", v.transaction_id, "mono"),
      field("Service", v.service),
      field("Status", v.status),
      money("Amount", v.amount),
      field("Description", v.description),
      time("Date", v.date),
      ...(v.token ? [field("Token", v.token, "mono")] : []),
      ...(p.pins ? [field("Pins", p.pins.map((x) => `${x.pin} (${x.serial})`).join(", "), "mono")] : []),
      ...(plan ? [field("Plan", plan)] : []),
    ],
    drafts,
    traffic: t,
  };
}

function vtuPlan(plan: NonNullable<VtuPurchase["plan"]>): string {
  if (plan.then === "hold") return "Stays processing until it succeeds or fails here.";
  const outcome = plan.then === "fail" ? "Fails (refunded)" : "Succeeds";
  return plan.queries !== null ? `${outcome} on status read number ${plan.queries} from now.` : `${outcome} ${spokenSeconds(plan.delay_ms / 1000)} after purchase.`;
}

// ---- Payment links -----------------------------------------------------------------------------------

function checkoutStory(state: TenantState, requests: readonly LoggedRequest[], c: Checkout, now: number): Told {
  const v = checkoutView(c, now);
  const status = checkoutStatus(c, now);
  const t = traffic(state, requests, "checkout", [c.reference], c.transaction_id);
  const drafts: Draft[] = [
    {
      key: "created",
      kind: "created",
      at: c.created_at,
      title: "Payment link created",
      tone: "info",
      detail: `Pay exactly ${inText("NGN", c.amount)} into ${c.bank_name} ${c.account_number}.`,
    },
  ];
  if (c.paid_at !== null) {
    drafts.push({ key: "state:paid", kind: "state", at: c.paid_at, title: "Paid: status changed to paid", tone: "ok", detail: null, amount: { value: v.amount, currency: "NGN", sign: "+" } });
  } else if (status === "expired") {
    drafts.push({ key: "state:expired", kind: "state", at: c.expires_at, title: "Expired unpaid: status changed to expired", tone: "info", detail: "A transfer to its account is now refused." });
  } else {
    drafts.push({ key: "due:expiry", kind: "scheduled", at: c.expires_at, title: "Expires unless paid", tone: "info", detail: null });
  }
  return {
    id: c.reference,
    status,
    status_label: status,
    amount: { label: "Amount", value: v.amount, currency: "NGN" },
    fields: [
      field("Reference", v.reference, "mono"),
      field("Transaction", v.transaction_id, "mono"),
      field("Status", v.status),
      money("Amount", v.amount),
      field("Description", v.description),
      field("Customer", [v.customer_name, v.customer_email].filter((x) => x !== null).join(", ") || null),
      field("Pay into", `${v.bank_name} ${v.account_number} (${v.account_name})`),
      field("Redirect URL", v.redirect_url, "mono"),
      time("Created", v.created_at),
      time("Expires", v.expires_at),
      time("Paid", v.paid_at),
    ],
    drafts,
    traffic: t,
  };
}
