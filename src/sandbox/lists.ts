/**
 * The control API's paged lists (payouts, VTU purchases, payment links, payments into virtual accounts),
 * one shape for all: the same query fields, page and rules, newest first. Sandbox only: the real service
 * has no such endpoints. Each resource declares its list whole with `listRoute`.
 */
import { pageInfo } from "../domain/lists.js";
import { code, spokenList } from "../domain/prose.js";
import { z } from "@hono/zod-openapi";
import { MAX_NARRATION } from "../domain/bounds.js";
import { examples, invalidExample, json, type Examples } from "../http/openapi.js";
import { MAX_PER_PAGE, Pagination, pagingFields } from "../http/paging.js";
import { routes, Success } from "../http/route.js";
import { controlErrors } from "./errors.js";

const route = routes({ tags: ["Sandbox"] });

/** What a query gets when it leaves page and per_page out. */
const PAGING_DEFAULTS = z.object(pagingFields("")).parse({});

/** `a`, `b` or `c`: values as the descriptions show them (`last` joins the last two). */
export const codes = (values: readonly string[], last = " or "): string => spokenList(values.map(code), last);

const oneOf = <const T extends readonly string[]>(values: T) => z.enum(values, { message: `Must be one of: ${values.join(", ")}.` });
const time = (edge: string) =>
  z.iso
    .datetime({ offset: true, message: "Must be an ISO 8601 time with its zone, e.g. 2026-03-02T09:00:00Z." })
    .transform((t) => Date.parse(t))
    .openapi({ description: `Only records created at or ${edge} this time (ISO 8601, the merchant's clock).` });

/** Per query field, the value each named example request sends (a field an example leaves out is not sent). */
type QueryExamples = Record<string, Examples>;

/** The fields every list's query takes: paging, its status values, the time range and reference. */
export function listFields<const S extends readonly string[]>(statuses: S, what: string, named: QueryExamples) {
  const ex = (field: string) => named[field] ?? {};
  const { page, per_page } = pagingFields(what);
  return {
    page: examples(page, ex("page")),
    per_page: examples(per_page, ex("per_page")),
    status: examples(oneOf(statuses).optional(), ex("status")),
    from: examples(time("after").optional(), ex("from")),
    to: examples(time("before").optional(), ex("to")),
    reference: examples(
      z
        .string()
        .min(1, { message: "Must not be empty: leave reference out to list every record." })
        .max(MAX_NARRATION, { message: `Must be at most ${MAX_NARRATION} characters.` })
        .optional()
        .openapi({ description: "Only records with exactly this reference (case and spaces as stored)." }),
      ex("reference"),
    ),
  };
}

/** A list's query: its fields, with a time range that has its start first. */
export const listQuery = <S extends z.ZodRawShape>(fields: S) =>
  z.object(fields).refine((q: { from?: number; to?: number }) => q.from === undefined || q.to === undefined || q.from <= q.to, {
    message: "Must not be before from.",
    path: ["to"],
  });

/** The rules every list keeps, after what it lists and how its status reads. */
export const listDescription = (what: string, record: string, statuses: string, own = "") => `
The calling merchant's ${what}, **newest first** (the order they were created, the last one first), one page at a
time, for a test or a dashboard to page through. Each item is the record exactly as ${record} shows it. Sandbox
only: the real service has no such endpoint.

Every filter is optional, and every filter given must hold:

- \`status\`: ${statuses} Any other value gets 422 \`VALIDATION_ERROR\` on \`status\`.
- \`from\`, \`to\`: ISO 8601 times with their zone (\`2026-03-02T09:00:00Z\`), on the merchant's clock: only records
  created at or after \`from\` and at or before \`to\` (both ends included). A \`to\` before \`from\` gets 422 on \`to\`.
- \`reference\`: only records whose \`reference\` is exactly this (case and spaces as stored; URL-encode it, \`+\`
  included), 1 to ${MAX_NARRATION} characters.${own}
- \`page\` (from 1, default ${PAGING_DEFAULTS.page}) and \`per_page\` (1 to ${MAX_PER_PAGE}, default ${PAGING_DEFAULTS.per_page}). \`pagination\` gives \`current_page\`,
  \`per_page\`, \`total_pages\` and \`total\` (the records that pass the filters). A page past the last is empty, with
  the totals. Anything else gets 422 on \`page\` or \`per_page\`.`.trim();

/** A paged list: GET `path` with `query`, answering a page of `item`s. */
export function listRoute<Q extends z.ZodObject, R extends z.ZodType>(op: {
  path: string;
  operationId: string;
  summary: string;
  description: string;
  query: Q;
  item: R;
  responses: Examples;
  errors: Record<number, Examples>;
}) {
  return route({
    method: "get",
    path: op.path,
    operationId: op.operationId,
    summary: op.summary,
    description: op.description,
    request: { query: op.query },
    responses: {
      200: json(Success({ data: z.array(op.item), pagination: Pagination }), "A page of records, newest first", op.responses),
      ...controlErrors(op.errors),
    },
  });
}

// A refused query is documented by its answer only: a request example must fit the parameter's schema
// (Spectral and Redocly check it), and a bad status or page size does not.

/** One page of `items`, `total` of them in all. */
export const pageOf = (items: unknown[], total = items.length, current_page = PAGING_DEFAULTS.page, per_page = PAGING_DEFAULTS.per_page) => ({
  success: true,
  data: items,
  pagination: pageInfo(total, current_page, per_page),
});

const TODAY = { from: "2026-03-02T00:00:00Z", to: "2026-03-02T23:59:59Z" };
/** `from` and `to` examples: the demo's day under `name`, and a range that ends before it starts. */
export const timeRange = (name: string, summary: string) => ({
  from: { [name]: { summary, value: TODAY.from }, fromAfterTo: { summary: "The start of a range that ends before it", value: "2026-03-03T00:00:00Z" } },
  to: { [name]: { summary, value: TODAY.to }, fromAfterTo: { summary: "An end before the start", value: TODAY.from } },
});
export const fromAfterTo = invalidExample("A time range whose end is before its start", { to: ["Must not be before from."] });
export const badStatus = (values: readonly string[]) => invalidExample("A status this list does not have", { status: [`Must be one of: ${values.join(", ")}.`] });
