/**
 * `merchant-sandbox logs`: a merchant's request log from a running sandbox (GET /sandbox/v1/requests),
 * one line per request, oldest first; `--follow` keeps polling with the `after` cursor and prints new
 * requests as they come, until SIGINT. Lines go to stdout (JSON lines with `--json`), notices to stderr.
 */
import { parseArgs } from "node:util";
import { CONNECTION_OPTIONS, connectionFrom, type Connection } from "./connection.js";
import type { requestLogView, requestSummaryView } from "../domain/request-log-views.js";

type Summary = ReturnType<typeof requestSummaryView>;
type LogState = ReturnType<typeof requestLogView>;

export interface LogsOptions extends Connection {
  follow: boolean;
  json: boolean;
  /** Seconds between polls with --follow. */
  interval: number;
  /** Filters passed to the API as they are (status, path, error_code, operation). */
  filters: Record<string, string>;
}

export const LOGS_USAGE = `Usage: merchant-sandbox logs [--follow] [--json] [--url URL] [--key KEY] [--secret SECRET]
                            [--status 4xx] [--path /api/v1/payout] [--error-code CODE] [--operation ID]
                            [--interval SECONDS]

Prints the merchant's request log (its /api/v1 requests and their answers), oldest first, one line each:
seq, time on the merchant's clock, method, path, status and error code, latency, request id.

  --follow, -f        keep printing new requests as they come, until Ctrl-C
  --json              one JSON object per line (the fields of GET /sandbox/v1/requests)
  --url URL           the sandbox (default http://127.0.0.1:4010, or MERCHANT_SANDBOX_URL)
  --key, --secret     the merchant's keys (or MERCHANT_SANDBOX_API_KEY, MERCHANT_SANDBOX_API_SECRET)
  --status, --path, --error-code, --operation
                      only the requests that match (a status class such as 4xx or a code; a path prefix)
  --interval SECONDS  how often --follow asks (default 1)

Stdout carries only requests; notices (nothing matches, waiting, the sandbox lost) go to stderr.
Headers and bodies: GET /sandbox/v1/requests/{seq}, or the dashboard at /dashboard/logs?seq={seq}.
`;

/** Each filter's flag and the query field it becomes. */
const FILTER_FLAGS = [["status", "status"], ["path", "path"], ["error-code", "error_code"], ["operation", "operation"]] as const;

/** The filters as the user typed them: `--status 4xx --path /api/v1/payout`. */
const namedFilters = (filters: Record<string, string>) =>
  FILTER_FLAGS.filter(([, field]) => field in filters)
    .map(([flag, field]) => `--${flag} ${filters[field]}`)
    .join(" ");

export function parseLogsArgs(argv: string[], env: NodeJS.ProcessEnv): { options: LogsOptions } | { error: string } {
  try {
    const { values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        follow: { type: "boolean", short: "f", default: false },
        json: { type: "boolean", default: false },
        ...CONNECTION_OPTIONS,
        status: { type: "string" },
        path: { type: "string" },
        "error-code": { type: "string" },
        operation: { type: "string" },
        interval: { type: "string", default: "1" },
      },
    });
    const conn = connectionFrom(values, env);
    if ("error" in conn) return conn;
    const interval = Number(values.interval);
    if (!Number.isFinite(interval) || interval < 0.05 || interval > 60) return { error: `--interval must be a number of seconds from 0.05 to 60, not ${values.interval}` };
    const filters: Record<string, string> = {};
    for (const [flag, field] of FILTER_FLAGS) {
      const value = values[flag];
      if (value !== undefined) filters[field] = value;
    }
    return { options: { ...conn, follow: values.follow!, json: values.json!, interval, filters } };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

/** One request as a line: seq, the merchant's clock, method, path and query, status and error code, latency, request id (and "sample" for the demo's own). */
export function formatRequest(r: Summary): string {
  const status = r.status === null ? "reset" : `${r.status}${r.error_code ? ` ${r.error_code}` : ""}${r.delivery === "slow_response" ? " (held back)" : ""}`;
  const target = r.query ? `${r.path}?${r.query}` : r.path;
  return `#${r.seq}  ${r.at}  ${r.method.padEnd(6)} ${target}  ${status}  ${r.latency_ms} ms  ${r.request_id}${r.sample ? "  (sample)" : ""}`;
}

/** Why a request to the sandbox failed, worded for the person at the terminal. */
class LogsError extends Error {}

interface Page {
  data: Summary[];
  pagination: { total: number; per_page: number };
  log: LogState;
}

const PER_PAGE = 100;

async function fetchAfter(o: LogsOptions, after: number, signal?: AbortSignal): Promise<Page> {
  const query = new URLSearchParams({ ...o.filters, after: String(after), per_page: String(PER_PAGE) });
  let res: Response;
  try {
    res = await fetch(`${o.url}/sandbox/v1/requests?${query}`, { headers: { "x-api-key": o.key, "x-api-secret": o.secret }, signal });
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new LogsError(`cannot reach the sandbox at ${o.url} (${(err as { cause?: Error }).cause?.message ?? (err as Error).message}): is it running? (--url)`);
  }
  const body = (await res.json().catch(() => null)) as (Page & { message?: string; error_code?: string }) | null;
  if (!res.ok || !body || !Array.isArray(body.data)) {
    const why = body?.error_code ? `${body.error_code}: ${body.message}` : `HTTP ${res.status}`;
    throw new LogsError(`the sandbox at ${o.url} refused to list the request log (${why})`);
  }
  return body;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((done) => {
    if (signal?.aborted) return done();
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), done()), { once: true });
  });

export interface LogsIo {
  /** A line for stdout (a request). */
  out: (line: string) => void;
  /** A notice for stderr. */
  err: (line: string) => void;
  /** Ends --follow (SIGINT). */
  signal?: AbortSignal;
}

/** Prints the log, then with --follow the new requests until `signal` aborts. Resolves to the exit code. */
export async function logs(o: LogsOptions, io: LogsIo): Promise<number> {
  let cursor = 0;
  let shown = 0;
  let size = 0;
  const print = (r: Summary) => {
    shown++;
    io.out(o.json ? JSON.stringify(r) : formatRequest(r));
  };
  /** Every request after the cursor, oldest first, a page at a time; false when the log is off. */
  const drain = async (following: boolean): Promise<boolean> => {
    for (;;) {
      const page = await fetchAfter(o, cursor, io.signal);
      if (!page.log.enabled) {
        io.err("merchant-sandbox logs: the request log is off on this sandbox (started with --request-log 0)");
        return false;
      }
      if (page.log.next_seq - 1 < cursor) {
        io.err("merchant-sandbox logs: the sandbox was restarted and its log is new; following it from its start");
        cursor = 0;
        continue;
      }
      const first = page.data[0];
      if (following && first && first.seq > cursor + 1 && Object.keys(o.filters).length === 0) {
        io.err(`merchant-sandbox logs: ${first.seq - cursor - 1} request(s) left the log before they could be shown (it keeps the newest ${page.log.capacity})`);
      }
      for (const r of page.data) print(r);
      size = page.log.size;
      cursor = page.data.at(-1)?.seq ?? cursor;
      // Filtered pages skip seqs: move the cursor past everything the log has given out so far.
      if (page.data.length < PER_PAGE) {
        cursor = Math.max(cursor, page.log.next_seq - 1);
        return true;
      }
    }
  };
  try {
    if (!(await drain(false))) return 1;
  } catch (err) {
    if (err instanceof LogsError) {
      io.err(`merchant-sandbox logs: ${err.message}`);
      return 1;
    }
    throw err;
  }
  const filtered = Object.keys(o.filters).length > 0;
  // Never a silent terminal: an empty answer and a wait both say so (on stderr, so --json stays JSON lines).
  if (!o.follow) {
    if (shown === 0) io.err(`merchant-sandbox logs: ${filtered ? `no requests match ${namedFilters(o.filters)} (the log holds ${size} request(s))` : "no requests in the log yet"}`);
    return 0;
  }
  io.err(`merchant-sandbox logs: waiting for new requests to ${o.url}${filtered ? ` matching ${namedFilters(o.filters)}` : ""} (Ctrl-C to stop)`);
  let lost = false;
  while (!io.signal?.aborted) {
    await pause(o.interval * 1000, io.signal);
    if (io.signal?.aborted) break;
    try {
      if (!(await drain(true))) return 1;
      if (lost) io.err(`merchant-sandbox logs: reached the sandbox at ${o.url} again`);
      lost = false;
    } catch (err) {
      if (io.signal?.aborted) break;
      if (!(err instanceof LogsError)) throw err;
      // A sandbox restarting, or down for a moment: say so once and keep asking.
      if (!lost) io.err(`merchant-sandbox logs: ${err.message}; still trying`);
      lost = true;
    }
  }
  return 0;
}
