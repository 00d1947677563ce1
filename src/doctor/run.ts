/**
 * Runs the battery against one receiver, one delivery at a time in the battery's order (as a
 * receiver meets them: a duplicate comes after the event it repeats), then reads the merchant's
 * records view when there is one, and grades every case: what it expected, what it saw, and why it
 * failed. The CLI (`merchant-sandbox doctor`), the control route and the dashboard all come here.
 */
import type { Ids } from "../domain/context.js";
import { isDelivered, isTimeoutError } from "../domain/webhook-policy.js";
import type { SignatureOptions } from "../webhooks/sign.js";
import type { PostResult, Transport } from "../webhooks/transport.js";
import { planBattery, type CaseInfo, type CreditExpectation, type Delivery, type PlannedCase } from "./battery.js";
import { readRecords, type RecordsRead } from "./records.js";

/** What came back for one delivery. */
export type Observed = PostResult;

export interface CaseResult extends Omit<CaseInfo, "expect" | "credits"> {
  result: "pass" | "fail";
  /** Why it failed, in one line; null when it passed. */
  problem: string | null;
  /** One entry per delivery of the case, in order. */
  observed: Observed[];
  /** The credit check: the case's transactions, what was expected, and the counts the records view gave (null: not read). */
  credits: { transaction_ids: string[]; expected: CreditExpectation; found: number[] | null };
}

export interface Scorecard {
  /** Where the battery went: a URL, or the sandbox's built-in capture. */
  endpoint: string;
  records_url: string | null;
  timeout_seconds: number;
  /** Wall-clock time the run started, and how long it took. */
  started_at: string;
  duration_ms: number;
  /** Every case passed, and the records view (when given) could be read. */
  ok: boolean;
  passed: number;
  failed: number;
  total: number;
  /** Whether the records view could be read (null without a records_url); when it could not, no credit was checked. */
  records: { read: boolean; error: string | null } | null;
  cases: CaseResult[];
}

export interface DoctorOptions {
  /** Shown on the scorecard. */
  endpoint: string;
  /** Sends one delivery to the receiver; never rejects (a failure is a result with `error`). */
  deliver: (delivery: Delivery, timeoutMs: number) => Promise<PostResult>;
  secret: string;
  signature?: SignatureOptions;
  timeoutSeconds: number;
  recordsUrl?: string | null;
  /** Reads the records view (the CLI's own transport, or the sandbox's with shared mode's checks). */
  transport: Transport;
  ids: Ids;
  /** The wall clock. */
  now?: () => number;
  /** Waits between reads of the records view (a receiver may credit just after answering). */
  sleep?: (ms: number) => Promise<void>;
}

/** How often the records view is read again while a credit the receiver owes is missing, up to the timeout. */
export const RECORDS_POLL_MS = 200;

export async function runDoctor(options: DoctorOptions): Promise<Scorecard> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const timeoutMs = options.timeoutSeconds * 1000;
  const started = now();
  const battery = planBattery({ secret: options.secret, signature: options.signature ?? {}, now: started, ids: options.ids });

  const observed: Observed[][] = [];
  for (const planned of battery) {
    const answers: Observed[] = [];
    for (const delivery of planned.deliveries) answers.push(await options.deliver(delivery, timeoutMs));
    observed.push(answers);
  }

  const records = options.recordsUrl ? await readWhenSettled(options, battery, observed, timeoutMs, now, sleep) : null;
  const cases = battery.map((planned, i) => grade(planned, observed[i]!, records, options.timeoutSeconds));
  const failed = cases.filter((c) => c.result === "fail").length;
  const unread = records !== null && "error" in records;
  return {
    endpoint: options.endpoint,
    records_url: options.recordsUrl ?? null,
    timeout_seconds: options.timeoutSeconds,
    started_at: new Date(started).toISOString(),
    duration_ms: Math.max(0, Math.round(now() - started)),
    ok: failed === 0 && !unread,
    passed: cases.length - failed,
    failed,
    total: cases.length,
    records: records === null ? null : "error" in records ? { read: false, error: records.error } : { read: true, error: null },
    cases,
  };
}

/**
 * The records view once every credit the receiver owes shows (or the timeout has passed): a receiver
 * may credit just after answering. It owes the credits of the payments it acknowledged with a 2xx.
 */
async function readWhenSettled(
  options: DoctorOptions,
  battery: PlannedCase[],
  observed: Observed[][],
  timeoutMs: number,
  now: () => number,
  sleep: (ms: number) => Promise<void>,
): Promise<RecordsRead> {
  const ids = [...new Set(battery.flatMap((c) => c.transaction_ids))];
  const acknowledged = battery.filter((c, i) => c.expect === "accepted" && c.credits !== "none" && observed[i]!.every(is2xx));
  const owed = [...new Set(acknowledged.flatMap((c) => c.transaction_ids))];
  const deadline = now() + timeoutMs;
  // Bounded by the wall clock and by the number of reads alike, so a clock that stands still cannot keep it going.
  for (let reads = 1; ; reads++) {
    const read = await readRecords(options.transport, options.recordsUrl!, ids, timeoutMs);
    if ("error" in read || owed.every((id) => read.counts.has(id))) return read;
    if (reads * RECORDS_POLL_MS >= timeoutMs || now() + RECORDS_POLL_MS > deadline) return read;
    await sleep(RECORDS_POLL_MS);
  }
}

const is2xx = (o: Observed) => o.error === null && isDelivered(o.status_code);

function answerOf(o: Observed, timeoutSeconds: number): string {
  if (o.error !== null) return isTimeoutError(o.error) ? `no answer within ${timeoutSeconds} s` : `no answer (${o.error})`;
  return `answered ${o.status_code}`;
}

function grade(planned: PlannedCase, observed: Observed[], records: RecordsRead | null, timeoutSeconds: number): CaseResult {
  const { deliveries: _deliveries, transaction_ids, expect, credits: expected, ...info } = planned;
  const found = records && "counts" in records ? transaction_ids.map((id) => records.counts.get(id) ?? 0) : null;
  const which = (i: number) => (observed.length > 1 ? `delivery ${i + 1}: ` : "");

  let problem: string | null = null;
  const wrong = observed.findIndex((o) => (expect === "accepted" ? !is2xx(o) : is2xx(o) || o.status_code === null));
  if (wrong >= 0) {
    const o = observed[wrong]!;
    problem =
      expect === "accepted"
        ? `${which(wrong)}${answerOf(o, timeoutSeconds)}; expected a 2xx within ${timeoutSeconds} s (anything else is retried, then failed)`
        : `${which(wrong)}${answerOf(o, timeoutSeconds)}; expected a refusal: any answer but a 2xx`;
  } else if (found) {
    const bad = found.findIndex((n) => (expected === "none" ? n !== 0 : expected === "once" ? n !== 1 : n < 1));
    if (bad >= 0) {
      const n = found[bad]!;
      problem = `${transaction_ids[bad]} credited ${n === 0 ? "nothing" : n === 1 ? "once" : `${n} times`}; expected ${expected === "none" ? "no credit" : expected}`;
    }
  }
  return { ...info, result: problem === null ? "pass" : "fail", problem, observed, credits: { transaction_ids, expected, found } };
}
