/**
 * A merchant's files read back: its snapshot (the base, possibly fuzzy: see compaction.ts) with the
 * journal lines written since replayed over it, in order. Every record is checked as the base is read
 * and the result goes through the full snapshot schema, so a damaged or hostile journal can only be
 * refused, never loaded as a state the rules could not have produced.
 */
import { KEYED, type KeyedSection } from "../domain/changes.js";
import type { Timer } from "../domain/records.js";
import { fromSnapshot, parseSnapshot, SnapshotShape, toSnapshot, type Snapshot } from "../domain/snapshot.js";
import { LISTS, listOf, mapOf, WHOLE, type ListEdit, type ListSection, type LiveMerchant, type Op, type WholeSection } from "./journal-diff.js";

/** Map key of each keyed collection's record, as the live state keys it. */
const KEY_OF: Record<KeyedSection, string> = {
  virtual_accounts: "account_number",
  va_payments: "transaction_id",
  checkouts: "reference",
  payouts: "reference",
  vtu: "reference",
  cardholders: "cardholder_id",
  cards: "card_id",
  events: "id",
};

interface Model extends LiveMerchant {
  timers: Map<number, Timer>;
}

function modelOf(base: unknown): Model | { error: string } {
  const parsed = SnapshotShape.safeParse(base);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { error: `is not a valid merchant-sandbox file at ${issue.path.join(".") || "(root)"}: ${issue.message}` };
  }
  const { config, clock, state } = fromSnapshot(parsed.data as Snapshot);
  return { config, clock, state, timers: new Map(state.timers.map((t) => [t.seq, t])) };
}

const isArray = (v: unknown): v is unknown[] => Array.isArray(v);
const isInt = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

function fail(why: string): never {
  throw new Error(why);
}

function applyList(list: unknown[], edit: ListEdit): void {
  if (!edit || !isInt(edit.trim) || !isArray(edit.set) || !isInt(edit.cut) || !isArray(edit.push)) fail("a list edit is malformed");
  list.splice(0, edit.trim);
  for (const pair of edit.set) {
    if (!isArray(pair) || !isInt(pair[0]) || pair[0] >= list.length) fail("a list edit sets an entry that is not there");
    list[pair[0]] = pair[1];
  }
  if (edit.cut > list.length) fail("a list edit cuts past the end");
  list.length = edit.cut;
  for (const v of edit.push) list.push(v);
}

function setWhole(m: Model, section: WholeSection, value: unknown): void {
  const s = m.state;
  const v = value as never;
  switch (section) {
    case "merchant":
      m.config = v;
      return;
    case "clock":
      m.clock = v;
      return;
    case "sequences":
      s.sequences = v;
      return;
    case "outcome_rules":
      s.outcomeRules = v;
      return;
    case "timeline":
      s.timeline = v;
      return;
    case "payout_attempts_by_ip":
      if (!isArray(value)) fail("payout_attempts_by_ip is not a list");
      s.windows.payoutAttemptsByIp = new Map(value.map((e) => [(e as { ip: string }).ip, (e as { times: number[] }).times]));
      return;
    case "payout_volume_sums":
      s.windows.payoutVolume = { ...s.windows.payoutVolume, ...(value as object) };
      return;
  }
}

function apply(m: Model, op: Op): Model {
  if (!isArray(op)) fail("an operation is not a list");
  switch (op[0]) {
    case "doc": {
      const next = modelOf(op[1]);
      if ("error" in next) fail(`a whole merchant in it ${next.error}`);
      return next;
    }
    case "set":
      if (!WHOLE.includes(op[1])) fail(`unknown section ${String(op[1])}`);
      setWhole(m, op[1], op[2]);
      return m;
    case "put": {
      if (!KEYED.includes(op[1]) || !isArray(op[2])) fail(`unknown collection ${String(op[1])}`);
      const map = mapOf(m.state, op[1]);
      for (const record of op[2]) {
        const key = (record as Record<string, unknown> | null)?.[KEY_OF[op[1]]];
        if (typeof key !== "string" && typeof key !== "number") fail(`a record of ${op[1]} has no key`);
        // A new card starts with no transactions, as issueCard makes it.
        if (op[1] === "cards" && !m.state.cardTransactions.has(key as number)) m.state.cardTransactions.set(key as number, []);
        map.set(key, record);
      }
      return m;
    }
    case "timers": {
      if (!isArray(op[1]) || !isArray(op[2])) fail("a timers operation is malformed");
      for (const seq of op[2]) m.timers.delete(seq);
      for (const t of op[1]) m.timers.set(t.seq, t);
      return m;
    }
    case "list":
      if (!LISTS.includes(op[1])) fail(`unknown list ${String(op[1])}`);
      applyList(listOf(m.state, op[1] as ListSection) as unknown[], op[2]);
      return m;
    case "cardtx": {
      const [, id, from, items] = op;
      const list = m.state.cardTransactions.get(id);
      if (!list || !isInt(from) || from > list.length || !isArray(items)) fail(`card ${String(id)}'s transactions do not line up`);
      list.splice(from, items.length, ...(items as never[]));
      return m;
    }
    default:
      return fail(`unknown operation ${String((op as unknown[])[0])}`);
  }
}

/**
 * The base document with each journal's lines applied, or an error saying where it went wrong. `where`
 * names each journal (for the error).
 */
export function replay(base: unknown, journals: Array<{ where: string; lines: unknown[] }>): { snapshot: Snapshot } | { error: string } {
  let m = modelOf(base);
  if ("error" in m) return m;
  for (const { where, lines } of journals) {
    for (const [i, line] of lines.entries()) {
      try {
        if (!isArray(line)) fail("it is not a list of operations");
        for (const op of line) m = apply(m, op as Op);
      } catch (err) {
        return { error: `journal ${where} line ${i + 1} cannot be applied: ${(err as Error).message}` };
      }
    }
  }
  m.state.timers = [...m.timers.values()];
  // Through JSON: the same document a fresh read would give, and no object shared with the model.
  const doc = JSON.parse(JSON.stringify(toSnapshot(m.config, m.clock, m.state))) as unknown;
  const parsed = parseSnapshot(doc);
  if ("error" in parsed) return { error: `with its journal applied is not a valid merchant-sandbox file at ${parsed.path}: ${parsed.error}` };
  return parsed;
}
