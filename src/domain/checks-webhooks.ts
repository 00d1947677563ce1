/**
 * Integration checks over the webhook side: how the merchant's receiver answered the deliveries, and,
 * when the merchant reports the payments it credited (PUT /sandbox/v1/checks/credits), whether each
 * one was credited exactly once.
 */
import type { CheckRule } from "./check-rule.js";
import type { EventType, WebhookEvent } from "./event-records.js";
import type { WebhookDelivery } from "./records.js";
import { CAPTURE_URL, isDelivered, isTimeoutError } from "./webhook-policy.js";

/** Longer than this is a slow answer: the service's default time-out, and longer than many providers wait. */
export const WEBHOOK_ANSWER_SECONDS = 10;

/** The events that tell the merchant it was paid: the ones it credits a customer for. */
const PAYMENT_EVENTS: readonly EventType[] = ["payment.received", "checkout.completed"];

/**
 * A request the merchant's own receiver got and answered (or failed to): not the sandbox's built-in
 * capture, not a `drop` fault (never sent), not a deferred or held entry (no request yet).
 */
const reachedReceiver = (d: WebhookDelivery) => d.url !== CAPTURE_URL && d.fault !== "drop" && (d.outcome === "delivered" || d.outcome === "failed");

const excerpt = (d: WebhookDelivery) => (d.response_excerpt ? `: ${d.response_excerpt.slice(0, 100)}` : "");

const paymentIds = (events: readonly WebhookEvent[]) => new Set(events.filter((e) => PAYMENT_EVENTS.includes(e.type)).map((e) => e.transaction_id));

export const WEBHOOK_RULES: CheckRule[] = [
  {
    id: "webhook-answered-error",
    title: "A webhook answered with a status other than 2xx",
    severity: "error",
    rationale: "Any answer but a 2xx is a failed delivery: the event is sent again on the retry schedule, and after the last retry it is given up, so a payment goes unnoticed.",
    start(_, found) {
      return {
        delivery(d) {
          // A refused bad signature is right (webhook-accepted-bad-signature checks those).
          if (!reachedReceiver(d) || d.fault === "bad_signature" || d.status_code === null) return;
          found.applies();
          if (!isDelivered(d.status_code)) found.delivery(d, `HTTP ${d.status_code}${excerpt(d)}`);
        },
      };
    },
  },
  {
    id: "webhook-answered-slowly",
    title: `A webhook answered after more than ${WEBHOOK_ANSWER_SECONDS} s, or not before the time-out`,
    severity: "error",
    rationale: `Providers wait about ${WEBHOOK_ANSWER_SECONDS} s: a slower receiver is counted as failed and gets the event again. Answer 2xx at once and do the work after (a queue).`,
    start(_, found) {
      return {
        delivery(d) {
          if (!reachedReceiver(d)) return;
          found.applies();
          if (isTimeoutError(d.error)) found.delivery(d, d.error!);
          else if (d.status_code !== null && (d.latency_ms ?? 0) > WEBHOOK_ANSWER_SECONDS * 1000) found.delivery(d, `Answered HTTP ${d.status_code} after ${d.latency_ms} ms.`);
        },
      };
    },
  },
  {
    id: "webhook-unreachable",
    title: "A webhook that could not reach the receiver",
    severity: "error",
    rationale: "A refused connection, an unknown host or a TLS error is a failed delivery like any other: the webhook_url must be reachable from the service, not only from the merchant's own network.",
    start(_, found) {
      return {
        delivery(d) {
          if (!reachedReceiver(d)) return;
          found.applies();
          if (d.status_code === null && !isTimeoutError(d.error)) found.delivery(d, d.error ?? "No answer.");
        },
      };
    },
  },
  {
    id: "webhook-accepted-bad-signature",
    title: "A webhook with a bad signature answered 2xx",
    severity: "error",
    rationale: "The spec: X-Webhook-Signature must be verified before the payload is trusted. A receiver that accepts a bad signature credits whatever anyone posts to it.",
    start(_, found) {
      return {
        delivery(d) {
          if (!reachedReceiver(d) || d.fault !== "bad_signature") return;
          found.applies();
          if (isDelivered(d.status_code)) found.delivery(d, `Signed with a wrong key, answered HTTP ${d.status_code}.`);
        },
      };
    },
  },
  {
    id: "webhook-receiver-missing",
    title: "Events never sent: no webhook_url",
    severity: "warning",
    rationale: "The spec's payment.received needs no polling: the webhook is how the merchant learns of transfers into its virtual accounts. Without a webhook_url they go unnoticed.",
    start(input, found) {
      return {
        finish() {
          for (const e of input.events) {
            found.applies();
            if (e.status === "no_url") found.transaction(e.transaction_id, `${e.type} ${e.id} was never sent: no webhook_url was set.`);
          }
        },
      };
    },
  },
  {
    id: "transaction-credited-twice",
    title: "A transaction_id credited twice",
    severity: "error",
    rationale: "The spec: transaction_id never changes across webhook retries and is the key for duplicate detection. Deliveries repeat (retries, duplicates), so crediting per delivery pays the customer twice.",
    start(input, found) {
      return {
        finish() {
          if (!input.credits) return;
          found.applies();
          const counts = new Map<string, number>();
          for (const id of input.credits.transaction_ids) counts.set(id, (counts.get(id) ?? 0) + 1);
          for (const [id, n] of counts) if (n > 1) found.transaction(id, `Credited ${n} times.`);
        },
      };
    },
  },
  {
    id: "delivered-payment-not-credited",
    title: "A payment acknowledged 2xx but never credited",
    severity: "error",
    rationale: "A 2xx tells the service the event was handled, so it is never sent again: a receiver that answers before it records the credit (or whatever it does after) loses that payment.",
    start(input, found) {
      const credited = new Set(input.credits?.transaction_ids ?? []);
      const transactionOf = new Map(input.events.filter((e) => PAYMENT_EVENTS.includes(e.type)).map((e) => [e.id, e.transaction_id]));
      const reported = new Set<string>();
      return {
        delivery(d) {
          const transactionId = transactionOf.get(d.event_id);
          if (!input.credits || !transactionId || !reachedReceiver(d) || d.fault === "bad_signature" || !isDelivered(d.status_code)) return;
          found.applies();
          if (credited.has(transactionId) || reported.has(transactionId)) return;
          reported.add(transactionId);
          found.delivery(d, `Answered HTTP ${d.status_code}, but ${transactionId} is not among the credits reported.`);
        },
      };
    },
  },
  {
    id: "credit-without-payment",
    title: "A credit for a transaction no payment event carries",
    severity: "warning",
    rationale: "Credit only what a payment.received or checkout.completed with a good signature names: a credit for any other transaction_id came from a forged or misread notification.",
    start(input, found) {
      return {
        finish() {
          if (!input.credits || input.credits.transaction_ids.length === 0) return;
          found.applies();
          const payments = paymentIds(input.events);
          const seen = new Set<string>();
          for (const id of input.credits.transaction_ids) {
            if (payments.has(id) || seen.has(id)) continue;
            seen.add(id);
            found.transaction(id, "No payment.received or checkout.completed of this merchant carries it.");
          }
        },
      };
    },
  },
];
