/**
 * Paging as every paged list takes it (the cards of /api/v1 and the control API's lists): query
 * `page` from 1 and `per_page` up to 100, and `pagination` in the answer (src/domain/lists.ts pages).
 */
import { z } from "@hono/zod-openapi";
import { withDefault } from "./openapi.js";

/** The largest page a list answers with, and the page size when none is asked for. */
export const MAX_PER_PAGE = 100;
export const DEFAULT_PER_PAGE = 20;

/** A whole number within [1, max], from a query string. */
const count = (max: number) => {
  const message = `Must be a whole number from 1 to ${max}.`;
  return z.coerce.number({ message }).int({ message }).min(1, { message }).max(max, { message });
};

/** `page` and `per_page` query fields; `what` names the items in per_page's description ("Cards"). */
export const pagingFields = (what: string) => ({
  page: withDefault(count(1_000_000), 1, "Page number, from 1."),
  per_page: withDefault(count(MAX_PER_PAGE), DEFAULT_PER_PAGE, `${what} per page, at most ${MAX_PER_PAGE}.`),
});

export const Pagination = z.object({ current_page: z.number().int(), per_page: z.number().int(), total_pages: z.number().int(), total: z.number().int() });
