/**
 * A merchant's records view: an optional read-only URL of the merchant's own that tells which
 * transactions its receiver has credited, so the doctor can check what the receiver did, not only
 * what it answered. The doctor asks `GET {records_url}?transaction_ids=TXN_a,TXN_b,...` (the ids of
 * the run) and expects `{ "credited": ["TXN_a", ...] }`: one entry per credit made, so a transaction
 * credited twice is listed twice. A view may ignore the filter and list every credit it holds, up to
 * MAX_RECORDS_BYTES.
 */
import { z } from "zod";
import type { Transport } from "../webhooks/transport.js";

/** The most of a records view's answer that is read (about 40,000 transaction ids). */
export const MAX_RECORDS_BYTES = 1024 * 1024;
/** The query parameter carrying the run's transaction ids, comma-separated. */
export const RECORDS_QUERY = "transaction_ids";

const RecordsView = z.object({ credited: z.array(z.string().max(200)) });

export type RecordsRead = { counts: Map<string, number> } | { error: string };

/** The records URL asked about these transactions: the receiver's own query kept, the ids added. */
function recordsRequestUrl(recordsUrl: string, transactionIds: string[]): string {
  const url = new URL(recordsUrl);
  url.searchParams.set(RECORDS_QUERY, transactionIds.join(","));
  return url.toString();
}

/** Reads the view once: how many times each transaction was credited, or why it could not be read. */
export async function readRecords(transport: Transport, recordsUrl: string, transactionIds: string[], timeoutMs: number): Promise<RecordsRead> {
  const answer = await transport.get(recordsRequestUrl(recordsUrl, transactionIds), { accept: "application/json" }, timeoutMs, MAX_RECORDS_BYTES);
  if (answer.error !== null) return { error: answer.error };
  if (answer.status_code === null || answer.status_code < 200 || answer.status_code > 299) return { error: `answered ${answer.status_code}, not 200` };
  if (answer.truncated) return { error: `the answer is longer than ${MAX_RECORDS_BYTES / 1024 / 1024} MB: filter it by ${RECORDS_QUERY}` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.body ?? "");
  } catch {
    return { error: `the answer is not JSON: ${JSON.stringify((answer.body ?? "").slice(0, 80))}` };
  }
  const view = RecordsView.safeParse(parsed);
  if (!view.success) return { error: 'the answer is not { "credited": ["TXN_...", ...] } (an array of transaction ids)' };
  const counts = new Map<string, number>();
  for (const id of view.data.credited) counts.set(id, (counts.get(id) ?? 0) + 1);
  return { counts };
}
