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

/**
 * The document JSON.stringify({ ...doc, ...extra }) would give, as UTF-8 parts made a slice at a time
 * and handed out as they are made (the writer puts each on disk before the next is made). Parts, not one
 * string: joining, measuring or encoding 50 MB of text at once would itself stall the loop, and text
 * that lives only for its slice dies young (a cheap collection) instead of filling the old heap.
 */
export async function* serialiseInSlices(doc: Snapshot, extra: Record<string, unknown>): AsyncGenerator<Buffer> {
  let pieces: string[] = [];
  let since = performance.now();
  /** The slice so far, if it has run long enough: the caller writes it, and the loop turns meanwhile. */
  function* cut(force = false): Generator<Buffer> {
    if (!force && performance.now() - since < SLICE_MS) return;
    yield Buffer.from(pieces.join(""));
    pieces = [];
    since = performance.now();
  }
  function* arrayText(list: readonly unknown[]): Generator<Buffer> {
    pieces.push("[");
    for (let i = 0; i < list.length; i += STEP) {
      const part = list.slice(i, i + STEP).map((v) => JSON.stringify(v));
      pieces.push((i > 0 ? "," : "") + part.join(","));
      yield* cut();
    }
    pieces.push("]");
  }
  const { state, ...top } = doc;
  pieces.push("{");
  let first = true;
  const key = (k: string) => {
    pieces.push(`${first ? "" : ","}${JSON.stringify(k)}:`);
    first = false;
  };
  const slices: Generator<Buffer> = (function* () {
    for (const [k, v] of Object.entries(top)) {
      key(k);
      pieces.push(JSON.stringify(v));
    }
    key("state");
    pieces.push("{");
    first = true;
    for (const [k, v] of Object.entries(state)) {
      key(k);
      if (Array.isArray(v)) yield* arrayText(v);
      else if (k === "windows") {
        const w = v as Snapshot["state"]["windows"];
        const { entries, ...sums } = w.payout_volume;
        pieces.push(`{"payout_attempts":${JSON.stringify(w.payout_attempts)},"payout_attempts_by_ip":${JSON.stringify(w.payout_attempts_by_ip)},"payout_volume":`);
        pieces.push(`${JSON.stringify(sums).slice(0, -1)},"entries":`);
        yield* arrayText(entries);
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
    yield* cut(true);
  })();
  for (const part of slices) {
    yield part;
    await nextTurn(); // even when the writer needs no time (a test's writer in memory)
  }
}
