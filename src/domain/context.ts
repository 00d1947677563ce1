import type { Catalog } from "./catalog.js";
import type { MerchantConfig } from "./records.js";

/**
 * Where identifiers come from (implemented in engine/ids.ts: seeded for deterministic runs, else the
 * CSPRNG). nanoid shapes them either way.
 */
export interface Ids {
  /** `PREFIX_XXXXXXXXXXXXXXXX`: upper-case alphanumerics, 16 after the prefix. */
  id(prefix: string, size?: number): string;
  /** A string of `n` random decimal digits. */
  digits(n: number): string;
  /** A lower-case hexadecimal string of `n` characters (nonces). */
  hex(n: number): string;
  /** Mixed-case alphanumerics of length `n`. */
  alnum(n: number): string;
  /** A uniformly drawn integer in [0, n). */
  int(n: number): number;
}

/** Identifiers unique across the whole sandbox, not just the merchant: the public pages find a link by its reference. */
export type ClaimKind = "checkout" | "account";

/** Everything a domain function may read besides the state it changes. Time and ids come in here. */
export interface DomainContext {
  now: number;
  ids: Ids;
  config: MerchantConfig;
  catalog: Catalog;
  /**
   * The merchant's clock mode and speed, so a wait on that clock (a cap, a bank outage) is told in the
   * unit that gets a client past it: real seconds on a realtime clock, an advance on a manual one.
   */
  clock: { mode: "realtime" | "manual"; speed: number };
  /**
   * Reserves an identifier for this merchant across the whole sandbox (a payment link's reference, an
   * account number): true when it was free and is now this merchant's, false when anyone holds it.
   */
  claim(kind: ClaimKind, value: string): boolean;
}

// One remembered answer: the same instants come back request after request (a wallet's last movement, a
// record's creation); toISOString was a visible share of a GET (bench/FAST-PATH.md).
let lastMs = Number.NaN;
let lastIso = "";
export const iso = (ms: number): string => {
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastIso;
};
export const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));
