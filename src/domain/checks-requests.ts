/**
 * Integration checks over the request log: how the merchant's code called /api/v1. Each rule keeps
 * what it needs in small maps bounded by the log's size and reads each request once, in order.
 */
import { text, type CheckRule, type SeenRequest } from "./check-rule.js";
import { hasAtMostTwoDecimals } from "./money.js";
import type { LoggedRequest } from "./request-log.js";
import { CHECKOUT_VALIDITY_MS, MINUTE } from "./limits.js";

/** How often one object's status may be read (on both clocks): faster is a tight loop, not a poll. */
export const POLL_PACE_SECONDS = 5;

/** The POSTs that buy or move money with no reference of the merchant's (a blind re-send buys twice). */
const PURCHASES = new Set(["buyAirtime", "buyData", "payCable", "buyElectricity", "buyExamPins", "fundVirtualCard", "unloadVirtualCard"]);

/** 5xx answers that say nothing was done: the bank was down, or the change could not be saved. */
const NOTHING_DONE = new Set(["BANK_UNAVAILABLE", "STORE_UNAVAILABLE"]);

/** Refusals that come back the same however often the same request is sent. */
const LASTING_REFUSALS = new Set([
  "VALIDATION_ERROR",
  "INVALID_JSON",
  "UNSUPPORTED_MEDIA_TYPE",
  "PAYLOAD_TOO_LARGE",
  "INVALID_ACCOUNT",
  "ACCOUNT_NAME_MISMATCH",
  "BANK_NAME_MISMATCH",
]);

/** Status reads by reference, and when each one's record is final. */
const STATUS_READS: Record<string, (r: SeenRequest) => string | null> = {
  getPayoutStatus: (r) => oneOf(r.data()?.status, ["completed", "failed"]),
  getVtuTransactionStatus: (r) => oneOf(r.answer()?.status, ["Success", "Failed"]),
  getTransactionStatus: (r) => oneOf(r.data()?.status, ["success", "failed"]),
  // An expired link has its own rule (checkout-polled-after-expiry).
  getCheckoutStatus: (r) => oneOf(r.data()?.status, ["paid"]),
};

const oneOf = (v: unknown, values: string[]): string | null => (typeof v === "string" && values.includes(v) ? v : null);

/** An answer that leaves the client unsure whether the request was carried out. */
function isAmbiguous(e: LoggedRequest): boolean {
  if (e.status === null || e.delivery !== "answered") return true;
  return e.status >= 500 && !NOTHING_DONE.has(e.error_code ?? "");
}

/** Carried out, or maybe: a 2xx, or an ambiguous answer. */
const madeOrMaybe = (e: LoggedRequest) => isAmbiguous(e) || (e.status !== null && e.status < 300);

function how(e: LoggedRequest): string {
  if (e.status === null) return "connection reset, no answer";
  if (e.delivery === "slow_response") return `answer held back ${Math.round(e.latency_ms / 1000)} s`;
  return `${e.status}${e.error_code ? ` ${e.error_code}` : ""}`;
}

/** `bank_code/account_number` of a payout or name enquiry body. */
function destination(body: Record<string, unknown> | null): string | null {
  const bank = text(body?.bank_code);
  const account = text(body?.account_number);
  return bank && account ? `${bank}/${account}` : null;
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

export const REQUEST_RULES: CheckRule[] = [
  {
    id: "transfer-to-unverified-account",
    title: "A transfer to an account never verified",
    severity: "error",
    rationale: "The spec makes name enquiry (verify-account) required practice before a transfer: without it money goes to a mistyped account, and NIP transfers are not reversed on request.",
    start(_, found) {
      const verified = new Set<string>();
      return {
        request(r) {
          const e = r.entry;
          if (e.operation === "verifyAccount" && e.status === 200) {
            const d = destination(r.body());
            if (d) verified.add(d);
          } else if (e.operation === "createPayout" && madeOrMaybe(e)) {
            const d = destination(r.body());
            if (!d) return;
            found.applies();
            if (!verified.has(d)) found.request(e, `Account ${d} had no successful verify-account before this transfer.`);
          }
        },
      };
    },
  },
  {
    id: "payout-retried-with-new-reference",
    title: "A transfer sent again with a new reference after an unclear answer",
    severity: "error",
    rationale: "After a time-out, a reset or a 5xx the first transfer may have been made: a new reference makes a second payout (the double-pay pattern). Query the status by reference, or resend with the same reference (409 carries the payout).",
    start(_, found) {
      // destination + amount -> the unclear transfer; cleared once its reference is looked up.
      const unsure = new Map<string, { seq: number; reference: string | null; how: string }>();
      const keyOf = new Map<string, string>();
      const resolve = (reference: string | null) => {
        const key = reference === null ? undefined : keyOf.get(reference);
        if (key !== undefined && unsure.get(key)?.reference === reference) unsure.delete(key);
      };
      return {
        request(r) {
          const e = r.entry;
          if (e.operation === "getPayoutStatus") {
            if (e.status === 200 || e.status === 404) resolve(r.query("reference"));
            return;
          }
          if (e.operation !== "createPayout") return;
          const body = r.body();
          const d = destination(body);
          const amount = body?.amount;
          if (!d || typeof amount !== "number") return;
          const reference = text(body?.reference);
          if (e.error_code === "DUPLICATE_REFERENCE") return resolve(reference); // the safe retry: its 409 carries the payout
          const key = `${d}:${amount}`;
          const earlier = unsure.get(key);
          if (earlier && (reference === null || reference !== earlier.reference) && madeOrMaybe(e)) {
            found.request(e, `The same ${amount} to ${d} as #${earlier.seq} (${earlier.how}), sent again ${reference ? `with a new reference ${reference}` : "without a reference"}: it may pay twice.`);
          }
          if (isAmbiguous(e)) {
            found.applies();
            unsure.set(key, { seq: e.seq, reference, how: how(e) });
            if (reference) keyOf.set(reference, key);
          }
        },
      };
    },
  },
  {
    id: "purchase-retried-after-unclear-answer",
    title: "A VTU purchase or card funding sent again unchanged after an unclear answer",
    severity: "error",
    rationale: "A VTU purchase carries no reference of the merchant's, so after a time-out, a reset or a 5xx a blind re-send buys twice: check the balance (or the card's transactions) first.",
    start(_, found) {
      const unsure = new Map<string, { seq: number; how: string }>();
      return {
        request(r) {
          const e = r.entry;
          // Looking before re-sending is the safe path: the balance shows a purchase, a card's transactions its funding.
          if (e.status === 200 && e.operation === "getWalletBalance") unsure.clear();
          if (e.status === 200 && e.operation === "listVirtualCardTransactions") {
            const card = e.path.replace(/\/transactions$/, "/");
            for (const key of unsure.keys()) if (key.startsWith(card)) unsure.delete(key);
          }
          if (!e.operation || !PURCHASES.has(e.operation)) return;
          const body = r.body();
          if (!body) return;
          const key = `${e.path}\n${JSON.stringify(body)}`;
          const earlier = unsure.get(key);
          if (earlier && madeOrMaybe(e)) found.request(e, `The same ${e.operation} as #${earlier.seq} (${earlier.how}), sent again unchanged: it may have bought twice.`);
          if (isAmbiguous(e)) {
            found.applies();
            unsure.set(key, { seq: e.seq, how: how(e) });
          }
        },
      };
    },
  },
  {
    id: "status-polled-too-fast",
    title: `A status read less than ${POLL_PACE_SECONDS} s after the previous one`,
    severity: "warning",
    rationale: `Status reads of one reference closer than ${POLL_PACE_SECONDS} s (on the wall clock and the merchant's) are a tight loop: they spend the per-minute request cap, and the webhook tells the outcome anyway.`,
    start(_, found) {
      const last = new Map<string, LoggedRequest>();
      const pace = POLL_PACE_SECONDS * 1000;
      return {
        request(r) {
          const e = r.entry;
          const reference = e.operation && e.operation in STATUS_READS ? r.query("reference") : null;
          if (reference === null) return;
          found.applies();
          const key = `${e.operation}:${reference}`;
          const previous = last.get(key);
          if (previous && e.wall_at - previous.wall_at < pace && e.at - previous.at < pace) {
            found.request(e, `${reference} read again ${seconds(Math.max(e.wall_at - previous.wall_at, e.at - previous.at))} after #${previous.seq}.`);
          }
          last.set(key, e);
        },
      };
    },
  },
  {
    id: "final-status-polled-again",
    title: "A status read of an object already final",
    severity: "info",
    rationale: "A completed or failed payout, a settled VTU purchase, a cleared transfer or a paid link never changes again: stop polling once the status is final.",
    start(_, found) {
      const finalAt = new Map<string, { seq: number; status: string }>();
      return {
        request(r) {
          const e = r.entry;
          const finalOf = e.operation ? STATUS_READS[e.operation] : undefined;
          const reference = finalOf ? r.query("reference") : null;
          if (!finalOf || reference === null || e.status !== 200) return;
          found.applies();
          const key = `${e.operation}:${reference}`;
          const first = finalAt.get(key);
          if (first) return found.request(e, `#${first.seq} already showed ${reference} ${first.status}.`);
          const status = finalOf(r);
          if (status) finalAt.set(key, { seq: e.seq, status });
        },
      };
    },
  },
  {
    id: "checkout-polled-after-expiry",
    title: "A payment link's status read again after it expired",
    severity: "warning",
    rationale: `A payment link expires ${CHECKOUT_VALIDITY_MS / MINUTE} minutes after creation (its expires_at) and can never be paid after: stop polling at expires_at instead of reading an expired link again and again.`,
    start(_, found) {
      const expired = new Map<string, number>();
      return {
        request(r) {
          const e = r.entry;
          if (e.operation !== "getCheckoutStatus" || e.status !== 200) return;
          const reference = r.query("reference");
          if (reference === null) return;
          found.applies();
          if (r.data()?.status !== "expired") return;
          const first = expired.get(reference);
          if (first === undefined) expired.set(reference, e.seq);
          else found.request(e, `#${first} already showed ${reference} expired (at ${String(r.data()?.expires_at)}).`);
        },
      };
    },
  },
  {
    id: "amount-with-more-than-two-decimals",
    title: "An amount with more than two decimals",
    severity: "error",
    rationale: "Amounts are Naira (or USD) to the kobo (cent): more decimals are refused, and are often floating-point sums (0.1 + 0.2) that a provider that rounds would charge differently from the merchant's books.",
    start(_, found) {
      return {
        request(r) {
          const body = r.body();
          if (!body || !("amount" in body)) return;
          found.applies();
          const amount = body.amount;
          if (typeof amount === "number" && !hasAtMostTwoDecimals(amount)) found.request(r.entry, `amount ${amount}`);
        },
      };
    },
  },
  {
    id: "secret-key-in-browser",
    title: "The secret key sent from a browser",
    severity: "error",
    rationale: "The spec: every call is server-to-server and the secret must never appear in client-side code. A request with an Origin header came from a web page, which anyone can read the secret from.",
    start(_, found) {
      return {
        request(r) {
          found.applies();
          const headers = r.entry.request_headers;
          // Browsers add Origin to cross-origin requests and every POST, and Sec-Fetch-Site to every request.
          const sign = headers.origin !== undefined ? `Origin: ${headers.origin}` : headers["sec-fetch-site"] !== undefined ? `Sec-Fetch-Site: ${headers["sec-fetch-site"]}` : null;
          if (sign) found.request(r.entry, `Sent by a browser (${sign}), with X-Api-Secret.`);
        },
      };
    },
  },
  {
    id: "refused-request-repeated-unchanged",
    title: "A refused request sent again unchanged",
    severity: "warning",
    rationale: "A validation error or a failed account check comes back the same for the same request: retry loops on a 4xx spend the request cap (and the 20 payout attempts per hour per IP) without a chance of success.",
    start(_, found) {
      const refused = new Map<string, number>();
      return {
        request(r) {
          const e = r.entry;
          if (e.request_body_truncated || !e.error_code || !LASTING_REFUSALS.has(e.error_code)) return;
          found.applies();
          const key = `${e.method} ${e.path}?${e.query}\n${e.error_code}\n${e.request_body ?? ""}`;
          const first = refused.get(key);
          if (first === undefined) refused.set(key, e.seq);
          else found.request(e, `The same request as #${first}, refused ${e.error_code} again.`);
        },
      };
    },
  },
  {
    id: "retried-before-retry-after",
    title: "A request sent again before retry_after had passed",
    severity: "warning",
    rationale: "429 and 503 answers say how long to wait (retry_after); retrying sooner is refused again and, for the payout caps, spends attempts. On a manual clock, advance the clock that far.",
    start(_, found) {
      const waits = new Map<string, { seq: number; wall: number; at: number; ms: number; code: string }>();
      return {
        request(r) {
          const e = r.entry;
          const key = `${e.method} ${e.path}`;
          const wait = waits.get(key);
          if (wait) {
            const early = e.wall_at - wait.wall < wait.ms && e.at - wait.at < wait.ms;
            if (early) found.request(e, `Sent ${seconds(Math.max(e.wall_at - wait.wall, e.at - wait.at))} after #${wait.seq} was told to wait ${wait.ms / 1000} s (${wait.code}).`);
            else waits.delete(key);
          }
          const retryAfter = r.answer()?.retry_after;
          if (typeof retryAfter === "number" && e.status !== null && (e.status === 429 || e.status === 503)) {
            found.applies();
            waits.set(key, { seq: e.seq, wall: e.wall_at, at: e.at, ms: retryAfter * 1000, code: e.error_code ?? String(e.status) });
          }
        },
      };
    },
  },
  {
    id: "request-from-ip-not-allowlisted",
    title: "A request refused for an IP not on the allowlist",
    severity: "warning",
    rationale: "With IP allowlisting on, every call must come from a listed address: a new server, a NAT change or IPv6 egress is refused with IP_NOT_WHITELISTED even with good keys.",
    start(_, found) {
      return {
        request(r) {
          found.applies();
          if (r.entry.error_code === "IP_NOT_WHITELISTED") found.request(r.entry, `From ${r.entry.client_ip}.`);
        },
      };
    },
  },
  {
    id: "transfer-names-not-from-lookups",
    title: "A transfer whose account or bank name was not the one the lookups gave",
    severity: "error",
    rationale: "The spec: account_name is the value account verification returned, bank_name the bank list's. Names typed by customers or abbreviated (GTBank) are refused, or worse, pay a name the merchant never checked.",
    start(_, found) {
      return {
        request(r) {
          const e = r.entry;
          if (e.operation !== "createPayout") return;
          found.applies();
          if (e.error_code === "ACCOUNT_NAME_MISMATCH" || e.error_code === "BANK_NAME_MISMATCH") {
            found.request(e, `${e.error_code}: ${text(r.answer()?.message) ?? "refused"}`);
          }
        },
      };
    },
  },
  {
    id: "transfer-without-own-reference",
    title: "A transfer sent without the merchant's own reference",
    severity: "warning",
    rationale: "Without a reference of its own the merchant cannot look a transfer up after a lost answer, nor resend it safely (the same reference gets 409): send one, unique per payout, stored before the call.",
    start(_, found) {
      return {
        request(r) {
          const e = r.entry;
          if (e.operation !== "createPayout" || !madeOrMaybe(e) || !r.body()) return;
          found.applies();
          if (text(r.body()?.reference) === null) found.request(e, "No reference in the body: the service generated one.");
        },
      };
    },
  },
];
