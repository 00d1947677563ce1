/** @jsxImportSource hono/jsx */
/**
 * What every dashboard table shares: its search, filters and paging read from the section's query
 * (the `data-query` the script sends along with each fragment request), the filter bar and pager the
 * script turns back into that query, and times shown in UTC with the reader's local time beside them.
 * The records themselves are listed by domain/lists.ts, as the control API lists them.
 */
import { createContext, useContext, type Child } from "hono/jsx";
import type { Page, Paging } from "../domain/lists.js";
import { LOGGED_BODY_BYTES } from "../domain/request-log.js";
import { MAX_PER_PAGE } from "../http/paging.js";
import { TimeTip } from "./dashboard-ui.js";

/** A table's rows per page unless the query asks for another count (1 to MAX_PER_PAGE). */
const PER_PAGE = 50;
/** The longest search kept; a longer one is cut (and the table says so). */
const MAX_SEARCH = 100;
/** A table with fewer records than this is read at a glance: it gets no filter bar (fewer Tab stops). */
const FILTER_FROM = 6;

// ---- Time -----------------------------------------------------------------------------------------

/** The reader's IANA time zone for this render (the fragment route provides it), or null: UTC only. */
export const TimeZone = createContext<string | null>(null);

const formatters = new Map<string, Intl.DateTimeFormat>();
const UTC_NAMES = new Set(["UTC", "Etc/UTC", "Etc/GMT", "GMT", "Etc/UCT", "UCT", "Etc/Universal", "Universal", "Etc/Zulu", "Zulu"]);

/** The zone the browser sent, when it is one Intl knows and not UTC itself; anything else is ignored. */
export function readTimeZone(raw: string | undefined): string | null {
  if (!raw || raw.length > 64 || !/^[A-Za-z0-9_+\-/]+$/.test(raw)) return null;
  if (formatters.has(raw)) return raw;
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat("en-GB", {
      timeZone: raw,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
      timeZoneName: "short",
    });
  } catch {
    return null;
  }
  if (UTC_NAMES.has(format.resolvedOptions().timeZone)) return null;
  formatters.set(raw, format);
  return raw;
}

function localTime(ms: number, zone: string): string {
  const parts = Object.fromEntries(formatters.get(zone)!.formatToParts(ms).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second} ${parts.timeZoneName}`;
}

/** A time as the dashboard shows it: relative to the merchant's clock, with UTC and the reader's local time (when their zone is known) on hover and focus. */
export function when(iso: string | null, focusable = false): Child {
  if (!iso) return "—";
  const utc = iso.replace("T", " ").replace(/\.\d+Z$/, "Z");
  const zone = useContext(TimeZone);
  const ms = Date.parse(iso);
  const local = zone && Number.isFinite(ms) ? `Your time: ${localTime(ms, zone)}` : null;
  return <TimeTip iso={iso} utc={utc} local={local} focusable={focusable} />;
}

// ---- The query ------------------------------------------------------------------------------------

/**
 * One table's part of its section's query. A section with two tables (events and deliveries) tells
 * them apart by `prefix` ("deliveries."): `q`, `status`, `page`, `per_page` and `event` are read after it.
 */
export interface TableQuery {
  prefix: string;
  search?: string;
  status?: string;
  paging: Paging;
  /** What the query asked for that the table cannot do, said above the table (never a failure). */
  notes: string[];
  /** Whether the query narrows the table (the filter bar stays when it does). */
  filtered: boolean;
}

const WHOLE = /^\d+$/;

/** Reads one table's query: a bad or hostile value is clamped or dropped, with a note saying so. */
export function tableQuery(params: URLSearchParams, prefix: string, statuses: readonly string[]): TableQuery {
  const notes: string[] = [];
  const get = (name: string) => params.get(prefix + name) ?? undefined;
  let search = get("q")?.trim() || undefined;
  if (search && search.length > MAX_SEARCH) {
    search = search.slice(0, MAX_SEARCH);
    notes.push(`The search is cut to its first ${MAX_SEARCH} characters.`);
  }
  let status = get("status") || undefined;
  if (status !== undefined && !statuses.includes(status)) {
    notes.push(`"${status.slice(0, 40)}" is not a status here: showing every status.`);
    status = undefined;
  }
  const number = (name: string, fallback: number, max: number) => {
    const raw = get(name);
    if (raw === undefined || raw === "") return fallback;
    const n = WHOLE.test(raw) ? Number(raw) : NaN;
    if (n >= 1 && n <= max) return n;
    const used = Number.isFinite(n) && n > max ? max : fallback;
    notes.push(`${name}=${raw.slice(0, 20)} is not a whole number from 1 to ${max}: using ${used}.`);
    return used;
  };
  const per_page = number("per_page", PER_PAGE, MAX_PER_PAGE);
  const page = number("page", 1, 1_000_000);
  return { prefix, search, status, paging: { page, per_page }, notes, filtered: search !== undefined || status !== undefined };
}

/** `list` at the query's page; a page past the end gives the last page instead, with a note. */
export function pageOf<T>(q: TableQuery, list: (paging: Paging) => Page<T>): Page<T> {
  const first = list(q.paging);
  const last = Math.max(1, first.pagination.total_pages);
  if (q.paging.page <= last) return first;
  q.notes.push(`Page ${q.paging.page} is past the end: showing page ${last}.`);
  return list({ ...q.paging, page: last });
}

// ---- The markup -----------------------------------------------------------------------------------

export interface StatusChoice {
  value: string;
  label?: string;
}

/** A status select's choices, each shown as its value. */
export const choices = (values: readonly string[]): StatusChoice[] => values.map((value) => ({ value }));

/** A column heading; `money`: its cells are amounts (right-aligned, as their `td class="money"`). */
export type Heading = string | { label: string; money: true };

/**
 * A filter bar, the table and its pager. `id`: unique on the page, names the controls (the script
 * gives the focus back to the control used after the table reloads). `size`: the records before
 * filtering. `keep`: query fields the filter bar carries along (deliveries of one event). `what`: the
 * records in a sentence ("ledger entries"), the label in lower case unless given.
 */
export function ListTable(props: {
  id: string;
  label: string;
  what?: string;
  caption: string;
  head: Heading[];
  empty: Child;
  query: TableQuery;
  page: Page<unknown>;
  size: number;
  statuses?: readonly StatusChoice[];
  statusLabel?: string;
  searchLabel: string;
  keep?: Record<string, string>;
  children?: Child;
}) {
  const { query: q, page } = props;
  const { current_page, per_page, total, total_pages } = page.pagination;
  const first = (current_page - 1) * per_page + 1;
  const shownTo = first + page.items.length - 1;
  const what = props.what ?? props.label.toLowerCase();
  return (
    <div class="list-table" data-table={props.id}>
      {props.size >= FILTER_FROM || q.filtered ? (
        <form class="row filter-bar" data-filter={q.prefix} role="search" aria-label={`Filter ${what}`}>
          {Object.entries(props.keep ?? {}).map(([name, value]) => <input type="hidden" name={q.prefix + name} value={value} />)}
          <div>
            <label for={`${props.id}-q`}>{props.searchLabel}</label>
            <input id={`${props.id}-q`} name={`${q.prefix}q`} type="search" value={q.search ?? ""} maxlength={MAX_SEARCH} class="w-xl" autocomplete="off" />
          </div>
          {props.statuses ? (
            <div>
              <label for={`${props.id}-status`}>{props.statusLabel ?? "Status"}</label>
              <select id={`${props.id}-status`} name={`${q.prefix}status`}>
                <option value="">Any</option>
                {props.statuses.map((s) => (
                  <option value={s.value} selected={s.value === q.status}>{s.label ?? s.value}</option>
                ))}
              </select>
            </div>
          ) : null}
          <button type="submit" class="secondary" id={`${props.id}-apply`}>Apply</button>
        </form>
      ) : null}
      {q.notes.map((n) => <p class="notice" data-testid="query-note">{n}</p>)}
      {total === 0 && q.filtered ? <p class="muted">No {what} match these filters.</p> : null}
      <Table label={props.label} caption={props.caption} head={props.head} empty={q.filtered ? "" : props.empty}>
        {props.children}
      </Table>
      {total > 0 ? (
        <div class="row pager">
          <p class="muted" id={`${props.id}-count`} data-testid="table-count">
            {total > page.items.length ? `Showing ${first}–${shownTo} of ${total}` : `Showing all ${total}`}
            {q.filtered ? " matching" : ""}
          </p>
          {current_page > 1 ? (
            <button type="button" class="secondary" id={`${props.id}-prev`} data-page-prefix={q.prefix} data-page-to={String(current_page - 1)} aria-label={`Previous page of ${what}`}>
              Previous
            </button>
          ) : null}
          {current_page < total_pages ? (
            <button type="button" class="secondary" id={`${props.id}-next`} data-page-prefix={q.prefix} data-page-to={String(current_page + 1)} aria-label={`Next page of ${what}`}>
              Next
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

/**
 * `label` names the table for the region around it ("Payouts" gives "Payouts table", apart from the
 * section of the same name). The region takes the keyboard focus only while it scrolls sideways (the
 * script sets its tabindex): a keyboard user then scrolls it with the arrow keys, and a table that fits
 * costs no Tab stop.
 */
export function Table(props: { label: string; caption: string; head: Heading[]; empty: Child; children?: Child }) {
  const rows = props.children;
  const none = Array.isArray(rows) && rows.length === 0;
  return none ? (
    typeof props.empty === "string" ? (props.empty ? <p class="muted">{props.empty}</p> : null) : props.empty
  ) : (
    <div class="scroll-x" role="region" aria-label={`${props.label} table`}>
      <table class="stack">
        {props.caption ? <caption class="muted">{props.caption}</caption> : null}
        <thead>
          <tr>{props.head.map((h) => (typeof h === "string" ? <th scope="col">{h}</th> : <th scope="col" class="money">{h.label}</th>))}</tr>
        </thead>
        <tbody>{rows}</tbody>
      </table>
    </div>
  );
}

/**
 * A body in a panel that wraps, with a Copy button: JSON indented, anything else (or a body cut short:
 * `whole` false) as it is. `what` names it for the button ("payload of delivery dlv_1").
 */
export function Payload(props: { id: string; text: string | null; label: string; what: string; whole?: boolean; testid?: string }) {
  if (props.text === null) return <p class="muted">{props.label}: none</p>;
  const whole = props.whole ?? true;
  let shown = props.text;
  if (whole) {
    try {
      shown = JSON.stringify(JSON.parse(props.text), null, 2);
    } catch {
      // not JSON: shown as it is
    }
  }
  return (
    <div class="payload">
      <div class="row">
        <p class="muted">{props.label}{whole ? "" : ` (cut at ${LOGGED_BODY_BYTES / 1024} KB)`}</p>
        <button type="button" class="secondary small" data-copy={props.id} aria-label={`Copy ${props.what}`}>Copy</button>
      </div>
      <pre class="mono wrap" id={props.id} data-testid={props.testid}>{shown}</pre>
    </div>
  );
}
