/**
 * What an integration check is, what it reads and what it reports: the vocabulary shared by the rule
 * files (checks-requests.ts, checks-webhooks.ts) and the evaluation (checks.ts). A rule is a small
 * inspector that sees every logged request, then every delivery, once, in order, and writes its
 * findings down as it goes, so the whole evaluation is one pass over bounded data.
 */
import type { WebhookEvent } from "./event-records.js";
import type { WebhookDelivery } from "./records.js";
import type { LoggedRequest } from "./request-log.js";

export const SEVERITIES = ["error", "warning", "info"] as const;
export type Severity = (typeof SEVERITIES)[number];

/**
 * The merchant's own view of its records: the transaction ids of the payments it credited to its
 * customers, one entry per credit (so an id twice is a double credit). Traffic like the request log:
 * held in memory, never saved.
 */
export interface CreditReport {
  transaction_ids: string[];
  /** When it was reported, on the merchant's clock. */
  reported_at: number;
}

/** Everything the checks read: the request log (oldest first), the delivery log, the events, the credits. */
export interface CheckInput {
  requests: readonly LoggedRequest[];
  /** Whether the request log is on (`--request-log 0` turns it off: the request rules have nothing to read). */
  requestLogEnabled: boolean;
  deliveries: readonly WebhookDelivery[];
  events: readonly WebhookEvent[];
  credits: CreditReport | null;
}

/** Evidence items a rule keeps, each list at most this long (`occurrences` still counts them all). */
export const MAX_EVIDENCE = 20;
/** A note is one line. */
const MAX_NOTE = 300;

export interface RequestEvidence {
  seq: number;
  method: string;
  path: string;
  status: number | null;
  error_code: string | null;
  /** When it arrived, on the merchant's clock (ms). */
  at: number;
  note: string;
}

export interface DeliveryEvidence {
  id: string;
  event_id: string;
  event_type: string;
  status_code: number | null;
  sent_at: number;
  note: string;
}

export interface TransactionEvidence {
  transaction_id: string;
  note: string;
}

const oneLine = (note: string) => (note.length > MAX_NOTE ? `${note.slice(0, MAX_NOTE - 1)}…` : note);

/** What one rule found: whether it had anything to look at, and each occurrence with its evidence. */
export class Findings {
  applicable = false;
  occurrences = 0;
  readonly requests: RequestEvidence[] = [];
  readonly deliveries: DeliveryEvidence[] = [];
  readonly transactions: TransactionEvidence[] = [];

  /** The rule had something to judge: it passes unless it fires. */
  applies(): void {
    this.applicable = true;
  }

  request(e: LoggedRequest, note: string): void {
    this.count(this.requests, { seq: e.seq, method: e.method, path: e.path, status: e.status, error_code: e.error_code, at: e.at, note: oneLine(note) });
  }

  delivery(d: WebhookDelivery, note: string): void {
    this.count(this.deliveries, { id: d.id, event_id: d.event_id, event_type: d.event_type, status_code: d.status_code, sent_at: d.sent_at, note: oneLine(note) });
  }

  transaction(transactionId: string, note: string): void {
    this.count(this.transactions, { transaction_id: transactionId, note: oneLine(note) });
  }

  private count<T>(list: T[], item: T): void {
    this.applicable = true;
    this.occurrences += 1;
    if (list.length < MAX_EVIDENCE) list.push(item);
  }
}

type Json = Record<string, unknown>;
const asObject = (v: unknown): Json | null => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Json) : null);

function parseObject(text: string | null, truncated: boolean): Json | null {
  if (text === null || truncated) return null;
  try {
    return asObject(JSON.parse(text));
  } catch {
    return null;
  }
}

/** A logged request as the rules read it: its bodies parsed once, on first use, by whichever rule asks first. */
export class SeenRequest {
  private parsed?: { body: Json | null };
  private answered?: { body: Json | null };
  private params?: URLSearchParams;

  constructor(readonly entry: LoggedRequest) {}

  /** The request body as a JSON object, or null (none, not JSON, not an object, or cut short in the log). */
  body(): Json | null {
    this.parsed ??= { body: parseObject(this.entry.request_body, this.entry.request_body_truncated) };
    return this.parsed.body;
  }

  /** The response body as a JSON object, or null. */
  answer(): Json | null {
    this.answered ??= { body: parseObject(this.entry.response_body, this.entry.response_body_truncated) };
    return this.answered.body;
  }

  /** The answer's `data` object (the spec's wrapper), or null. */
  data(): Json | null {
    return asObject(this.answer()?.data);
  }

  /** A query parameter, or null when absent or empty. */
  query(name: string): string | null {
    this.params ??= new URLSearchParams(this.entry.query);
    const value = this.params.get(name);
    return value === null || value === "" ? null : value;
  }
}

/** One rule's view of an evaluation: it sees each request, then each delivery, then finishes. */
export interface Inspector {
  request?(r: SeenRequest): void;
  delivery?(d: WebhookDelivery): void;
  /** After every request and delivery was seen. */
  finish?(): void;
}

export interface CheckRule {
  /** Stable, kebab-case: CI scripts and the README name rules by it. */
  id: string;
  /** What fires it, in a few words. */
  title: string;
  severity: Severity;
  /** Why it matters, in one line: the spec's rule, or how Nigerian integrations fail. */
  rationale: string;
  /** A fresh inspector for one evaluation, writing into `found`. */
  start(input: CheckInput, found: Findings): Inspector;
}

/** Small readers of JSON bodies the rules share. */
export const text = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);
