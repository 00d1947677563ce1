/**
 * A merchant's snapshot as JSON text, made a few milliseconds at a time: between slices the event loop
 * runs (requests are answered, the journal keeps growing), so folding a journal of a large merchant
 * into its snapshot never stalls a request for long. The document comes from captureDoc
 * (journal-diff.ts): what can change under it was copied when the compaction started.
 */
import { performance } from "node:perf_hooks";
import type { Snapshot } from "../domain/snapshot.js";

/** Longest stretch of serialising between two turns of the event loop. */
const SLICE_MS = 8;
/** Elements serialised between two looks at the time. */
const STEP = 200;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The text JSON.stringify({ ...doc, ...extra }) would give (keys in the same order), made in slices. */
export async function serialiseInSlices(doc: Snapshot, extra: Record<string, unknown>): Promise<string> {
  const pieces: string[] = [];
  let since = performance.now();
  const pause = async () => {
    if (performance.now() - since < SLICE_MS) return;
    await nextTurn();
    since = performance.now();
  };
  const arrayText = async (list: readonly unknown[]) => {
    pieces.push("[");
    for (let i = 0; i < list.length; i += STEP) {
      const part = list.slice(i, i + STEP).map((v) => JSON.stringify(v));
      pieces.push((i > 0 ? "," : "") + part.join(","));
      await pause();
    }
    pieces.push("]");
  };
  const { state, ...top } = doc;
  pieces.push("{");
  let first = true;
  const key = (k: string) => {
    pieces.push(`${first ? "" : ","}${JSON.stringify(k)}:`);
    first = false;
  };
  for (const [k, v] of Object.entries(top)) {
    key(k);
    pieces.push(JSON.stringify(v));
  }
  key("state");
  pieces.push("{");
  first = true;
  for (const [k, v] of Object.entries(state)) {
    key(k);
    if (Array.isArray(v)) await arrayText(v);
    else if (k === "windows") {
      const w = v as Snapshot["state"]["windows"];
      const { entries, ...sums } = w.payout_volume;
      pieces.push(`{"payout_attempts":${JSON.stringify(w.payout_attempts)},"payout_attempts_by_ip":${JSON.stringify(w.payout_attempts_by_ip)},"payout_volume":`);
      pieces.push(`${JSON.stringify(sums).slice(0, -1)},"entries":`);
      await arrayText(entries);
      pieces.push("}}");
    } else pieces.push(JSON.stringify(v));
  }
  pieces.push("}");
  first = false;
  for (const [k, v] of Object.entries(extra)) {
    key(k);
    pieces.push(JSON.stringify(v));
  }
  pieces.push("}");
  return pieces.join("");
}
