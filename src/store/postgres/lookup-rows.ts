/**
 * The tables that let any node find a merchant by what a request carries: its api key, a payment-link
 * reference (checkout) or an account number. A value belongs to one merchant; a change that claims one
 * another merchant holds fails with ClaimTaken, and its transaction rolls back whole.
 */
import type { Db, Tx } from "./connect.js";

export type ClaimKind = "checkout" | "account";
export interface Claim {
  kind: ClaimKind;
  value: string;
}
type Taken = Claim | { kind: "api_key"; value: string };

/** Another merchant holds a claim (or the api key) this change wanted. */
export class ClaimTaken extends Error {
  override name = "ClaimTaken";
  constructor(
    readonly claim: Taken,
    readonly owner: string,
  ) {
    // An api key is a secret: the message names its owner only.
    super(claim.kind === "api_key" ? `merchant ${owner} already uses this api key` : `merchant ${owner} already holds ${claim.kind} ${claim.value}`);
  }
}

/** Rows per statement: far below the protocol's 65534 parameters. */
const CHUNK = 5000;
export function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

const claimKey = (c: Claim) => `${c.kind}\u0000${c.value}`;
const byKindValue = (a: Claim, b: Claim) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : a.value < b.value ? -1 : a.value > b.value ? 1 : 0);

export async function merchantOfKey(db: Db, apiKey: string): Promise<string | null> {
  const [row] = await db<{ merchant_id: string }[]>`select merchant_id from msb_api_keys where api_key = ${apiKey}`;
  return row?.merchant_id ?? null;
}

export async function merchantOfClaim(db: Db, claim: Claim): Promise<string | null> {
  const [row] = await db<{ merchant_id: string }[]>`select merchant_id from msb_claims where kind = ${claim.kind} and value = ${claim.value}`;
  return row?.merchant_id ?? null;
}

/**
 * Inserts claims for one or more merchants. Always in (kind, value) order, so two transactions claiming
 * overlapping values wait for each other instead of deadlocking. A value held by another merchant throws
 * ClaimTaken (the first in that order); one the same merchant holds already is left as it is.
 */
export async function insertClaims(tx: Tx, rows: readonly (Claim & { merchantId: string })[]): Promise<void> {
  const sorted = [...rows].sort(byKindValue);
  for (const chunk of chunks(sorted)) {
    const values = chunk.map((r) => ({ kind: r.kind, value: r.value, merchant_id: r.merchantId }));
    const inserted = await tx<Claim[]>`insert into msb_claims ${tx(values, "kind", "value", "merchant_id")}
      on conflict do nothing returning kind, value`;
    if (inserted.length === chunk.length) continue;
    const done = new Set(inserted.map(claimKey));
    for (const row of chunk.filter((r) => !done.has(claimKey(r)))) {
      const owner = await merchantOfClaim(tx, row);
      // null: the holder was removed since; the value is free, so claim it again.
      if (owner === null) await insertClaims(tx, [row]);
      else if (owner !== row.merchantId) throw new ClaimTaken({ kind: row.kind, value: row.value }, owner);
    }
  }
}

async function deleteClaims(tx: Tx, merchantId: string, claims: readonly Claim[]): Promise<void> {
  for (const kind of ["checkout", "account"] as const) {
    for (const chunk of chunks(claims.filter((c) => c.kind === kind).map((c) => c.value))) {
      await tx`delete from msb_claims where merchant_id = ${merchantId} and kind = ${kind} and value in ${tx(chunk)}`;
    }
  }
}

/** Incremental form used on every change: deletes `removed` of this merchant, inserts `added` (ClaimTaken on conflict). */
export async function updateClaims(tx: Tx, merchantId: string, added: readonly Claim[], removed: readonly Claim[]): Promise<void> {
  await deleteClaims(tx, merchantId, removed);
  await insertClaims(tx, added.map((c) => ({ ...c, merchantId })));
}

/** Makes the merchant's claims exactly `claims` (a reset or a snapshot PUT replaces them whole). */
export async function replaceClaims(tx: Tx, merchantId: string, claims: readonly Claim[]): Promise<void> {
  const held = await tx<Claim[]>`select kind, value from msb_claims where merchant_id = ${merchantId}`;
  const wanted = new Set(claims.map(claimKey));
  const have = new Set(held.map(claimKey));
  await updateClaims(
    tx,
    merchantId,
    claims.filter((c) => !have.has(claimKey(c))),
    held.filter((c) => !wanted.has(claimKey(c))),
  );
}
