/**
 * The webhook doctor's battery: what each case sends to a merchant's receiver, what a correct
 * receiver does with it and why (the spec, or how Nigerian providers' webhooks really behave). The
 * deliveries are built and signed exactly as the sandbox's own (webhooks/dispatcher.ts): the same
 * envelope, headers and HMAC of the raw body, with fresh transaction ids so a run never meets the
 * receiver's earlier records.
 */
import { MAX_NARRATION } from "../domain/bounds.js";
import type { Ids } from "../domain/context.js";
import { EVENT_EXAMPLES } from "../domain/event-examples.js";
import { DEFAULTS } from "../domain/merchant.js";
import { DEFAULT_RETRY_SCHEDULE_SECONDS } from "../domain/webhook-policy.js";
import { USER_AGENT } from "../webhooks/dispatcher.js";
import { signPayload, type SignatureOptions } from "../webhooks/sign.js";

/** What a receiver gets wrong; each case names the faults that make it fail. */
export type Fault =
  | "slow"
  | "rejects_valid"
  | "not_idempotent"
  | "no_signature_check"
  | "no_replay_check"
  | "rejects_unknown_type"
  | "credits_unknown_type"
  | "order_dependent"
  | "mangles_raw_body";

export type CaseId =
  | "valid_event"
  | "duplicate_delivery"
  | "missing_signature"
  | "bad_signature"
  | "tampered_body"
  | "stale_sent_at"
  | "unknown_event_type"
  | "out_of_order"
  | "large_payload";

/** How many times the receiver should have credited each of a case's transactions (read from its records view). */
export type CreditExpectation = "none" | "once" | "at least once";

export interface CaseInfo {
  id: CaseId;
  title: string;
  /** What is sent. */
  sent: string;
  /** What a correct receiver does. */
  expected: string;
  /** Why: the spec, or provider practice. */
  why: string;
  /** The receiver faults this case catches. */
  faults: Fault[];
  /** Every delivery answered 2xx, or every one refused (any answer but a 2xx). */
  expect: "accepted" | "refused";
  credits: CreditExpectation;
}

/** A stale delivery is this old: far past the 5-minute window the README recommends. */
export const STALE_SECONDS = 3_600;
/** The older of the two out-of-order payments was sent this long before the newer: still fresh. */
export const OUT_OF_ORDER_SECONDS = 60;
/** The longest payer_name and payer_bank a payment.received carries (its payload schema's bound, event-records.ts). */
export const MAX_PAYER_FIELD = 200;
/** An event type the sandbox never sends: providers add types without notice. */
export const UNKNOWN_EVENT_TYPE = "payment.reversed";

/** How long a refused delivery goes on being retried by default, in whole hours. */
const RETRY_HOURS = Math.round(DEFAULT_RETRY_SCHEDULE_SECONDS.reduce((sum, s) => sum + s, 0) / 3_600);

/** Every case, in the order the doctor runs them (README "Webhook doctor" shows this table). */
export const CASES: readonly CaseInfo[] = [
  {
    id: "valid_event",
    title: "A valid event",
    sent: "A payment.received, signed with the webhook secret, sent_at now",
    expected: "A 2xx within the timeout; the payment credited",
    why: `Only a 2xx within the timeout (${DEFAULTS.webhook.timeout_seconds} s by default) counts as delivered: anything else is retried for about ${RETRY_HOURS} hours, then failed. Verify, record, answer; do slow work after answering.`,
    faults: ["rejects_valid", "slow"],
    expect: "accepted",
    credits: "at least once",
  },
  {
    id: "duplicate_delivery",
    title: "The same event again",
    sent: "The valid event's payment again: a new nonce and sent_at, the same transaction_id",
    expected: "A 2xx; the payment still credited once",
    why: "The spec: transaction_id never changes across retries and is the key for duplicate detection. A retry after an answer that was lost or late is normal, and crediting it again pays twice.",
    faults: ["not_idempotent", "slow"],
    expect: "accepted",
    credits: "once",
  },
  {
    id: "missing_signature",
    title: "No signature",
    sent: "A payment.received without X-Webhook-Signature",
    expected: "Refused (401 is usual); nothing credited",
    why: "The spec: the signature must be verified before the payload is trusted. A receiver that checks it only when the header is present takes anything from anyone.",
    faults: ["no_signature_check"],
    expect: "refused",
    credits: "none",
  },
  {
    id: "bad_signature",
    title: "A bad signature",
    sent: "A payment.received signed with another key: the header looks right and does not verify",
    expected: "Refused (401 is usual); nothing credited",
    why: "The spec: verify X-Webhook-Signature with the webhook secret before trusting the payload. Anyone who finds the URL can post to it.",
    faults: ["no_signature_check"],
    expect: "refused",
    credits: "none",
  },
  {
    id: "tampered_body",
    title: "A tampered body",
    sent: "A signed payment.received whose amount was changed after signing (5,000 to 500,000 Naira)",
    expected: "Refused; nothing credited",
    why: "The signature is an HMAC of the exact raw bytes: verify those bytes, before parsing, and compare in constant time.",
    faults: ["no_signature_check"],
    expect: "refused",
    credits: "none",
  },
  {
    id: "stale_sent_at",
    title: "A stale sent_at",
    sent: `A correctly signed payment.received with a new nonce and a sent_at ${STALE_SECONDS / 60} minutes old`,
    expected: "Refused; nothing credited",
    why: "The spec gives nonce and sent_at for replay protection: a captured delivery replayed later still carries a valid signature. Refuse deliveries older than about 5 minutes (every retry is sent with a fresh sent_at).",
    faults: ["no_replay_check"],
    expect: "refused",
    credits: "none",
  },
  {
    id: "unknown_event_type",
    title: "An unknown event type",
    sent: `A correctly signed ${UNKNOWN_EVENT_TYPE}, a type the sandbox never sends, with a payment's data`,
    expected: "A 2xx, and the event ignored: nothing credited",
    why: `Providers add event types without notice. Refusing one makes the provider retry it for about ${RETRY_HOURS} hours; acting on it as a payment credits money that never came.`,
    faults: ["rejects_unknown_type", "credits_unknown_type", "slow"],
    expect: "accepted",
    credits: "none",
  },
  {
    id: "out_of_order",
    title: "Events out of order",
    sent: `Two new payments: the newer first, then the older (its sent_at ${OUT_OF_ORDER_SECONDS} s earlier, still fresh)`,
    expected: "A 2xx to each; both credited once",
    why: "Deliveries of one instant go out side by side and retries interleave with first attempts, so events arrive in any order. Never drop an event for being older than the last one seen.",
    faults: ["order_dependent", "slow"],
    expect: "accepted",
    credits: "once",
  },
  {
    id: "large_payload",
    title: "A large payload",
    sent: `The largest payment.received the sandbox sends: a ${MAX_NARRATION}-character narration (Yoruba diacritics, the naira sign, an emoji, quotes, a slash, a newline and a tab, kept verbatim) and ${MAX_PAYER_FIELD}-character payer fields`,
    expected: "A 2xx within the timeout; the payment credited once",
    why: "Narrations are kept exactly as the payer's bank sent them. Verify the raw bytes as received: a body re-encoded before the check (PHP's json_encode escapes slashes and non-ASCII) or cut by a small body limit no longer verifies.",
    faults: ["mangles_raw_body", "slow"],
    expect: "accepted",
    credits: "once",
  },
];

/** One request to the receiver. */
export interface Delivery {
  headers: Record<string, string>;
  body: string;
}

/** A case ready to send: its deliveries, in order, and the transactions its credit check looks at. */
export interface PlannedCase extends CaseInfo {
  deliveries: Delivery[];
  transaction_ids: string[];
}

export interface BatteryOptions {
  secret: string;
  signature: SignatureOptions;
  /** The wall clock (ms): a receiver compares sent_at with its own clock, whatever the merchant's. */
  now: number;
  ids: Ids;
}

/** The battery, built and signed: one planned case per entry of CASES, in order. */
export function planBattery(options: BatteryOptions): PlannedCase[] {
  const { secret, signature, now, ids } = options;
  const txn = () => ids.id("TXN");
  const envelope = (event: string, data: object, sentAt = now) => ({ event, nonce: ids.hex(32), sent_at: new Date(sentAt).toISOString(), data });
  const signed = (payload: object, key = secret): Delivery => {
    const body = JSON.stringify(payload);
    return { headers: { ...HEADERS, "x-webhook-signature": signPayload(body, key, signature) }, body };
  };

  const paid = txn();
  const unsigned = txn();
  const forged = txn();
  const tampered = txn();
  const stale = txn();
  const unknown = txn();
  const [newer, older] = [txn(), txn()];
  const large = txn();
  const tamperedDelivery = signed(envelope("payment.received", payment(tampered)));

  const plans: Record<CaseId, Pick<PlannedCase, "deliveries" | "transaction_ids">> = {
    valid_event: { deliveries: [signed(envelope("payment.received", payment(paid)))], transaction_ids: [paid] },
    duplicate_delivery: { deliveries: [signed(envelope("payment.received", payment(paid)))], transaction_ids: [paid] },
    missing_signature: { deliveries: [{ headers: { ...HEADERS }, body: JSON.stringify(envelope("payment.received", payment(unsigned))) }], transaction_ids: [unsigned] },
    // A real HMAC with a wrong key, as the sandbox's bad_signature fault makes it.
    bad_signature: { deliveries: [signed(envelope("payment.received", payment(forged)), `${secret}-wrong`)], transaction_ids: [forged] },
    tampered_body: {
      deliveries: [{ headers: tamperedDelivery.headers, body: tamperedDelivery.body.replace(`"amount":${PAYMENT.amount},`, `"amount":${PAYMENT.amount * 100},`) }],
      transaction_ids: [tampered],
    },
    stale_sent_at: { deliveries: [signed(envelope("payment.received", payment(stale), now - STALE_SECONDS * 1000))], transaction_ids: [stale] },
    unknown_event_type: { deliveries: [signed(envelope(UNKNOWN_EVENT_TYPE, payment(unknown)))], transaction_ids: [unknown] },
    out_of_order: {
      deliveries: [
        signed(envelope("payment.received", payment(newer))),
        signed(envelope("payment.received", payment(older), now - OUT_OF_ORDER_SECONDS * 1000)),
      ],
      transaction_ids: [newer, older],
    },
    large_payload: { deliveries: [signed(envelope("payment.received", largePayment(large)))], transaction_ids: [large] },
  };
  return CASES.map((info) => ({ ...info, ...plans[info.id] }));
}

const HEADERS = { "content-type": "application/json", "user-agent": USER_AGENT };

const PAYMENT = EVENT_EXAMPLES["payment.received"].data as { amount: number } & Record<string, unknown>;

/** A payment.received's data, as the sandbox sends it, for a new transaction. */
const payment = (transaction_id: string) => ({ ...PAYMENT, transaction_id });

/** The biggest payment.received there is: every free-text field at its longest, in the characters that trip receivers up. */
function largePayment(transaction_id: string) {
  return {
    ...payment(transaction_id),
    reference: fill(`Ọjà Ẹ̀wà fún Adébáyọ̀ – ₦5,000 🇳🇬 "order 1001/2" paid\n\tvia USSD; `, MAX_NARRATION),
    payer_name: fill("ADÉBÁYỌ̀ OLÚWAFẸ́MI ÒGÚNLÉYÈ ", MAX_PAYER_FIELD),
    payer_bank: fill("Moniepoint Microfinance Bank / ", MAX_PAYER_FIELD),
  };
}

/** `text` repeated up to exactly `length` UTF-16 units, never cutting a surrogate pair in half. */
function fill(text: string, length: number): string {
  const points = Array.from(text);
  let out = "";
  for (let i = 0; ; i++) {
    const next = points[i % points.length]!;
    if (out.length + next.length > length) break;
    out += next;
  }
  return out.padEnd(length, ".");
}
