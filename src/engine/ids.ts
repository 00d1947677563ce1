import { webcrypto } from "node:crypto";
import { customRandom } from "nanoid";
import type { Ids } from "../domain/context.js";

/**
 * Identifier source for one merchant (the domain's `Ids`). With a seed every identifier, account
 * number and PAN comes from a deterministic generator (sfc32 over the seed's hash), so seeded runs are
 * byte-identical; without one it draws from the platform's CSPRNG. nanoid shapes the identifiers.
 */
export type { Ids };

type ByteSource = (bytes: number) => Uint8Array;

const ALNUM = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const MIXED = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const DIGITS = "0123456789";
const HEX = "0123456789abcdef";

export function createIds(seed?: string): Ids {
  const bytes = seed === undefined ? cryptoBytes : seededBytes(seed);
  // By alphabet, then size: no key text made per identifier.
  const makers = new Map<string, Map<number, () => string>>();
  const gen = (alphabet: string, size: number) => {
    let sized = makers.get(alphabet);
    if (!sized) makers.set(alphabet, (sized = new Map()));
    let make = sized.get(size);
    if (!make) sized.set(size, (make = customRandom(alphabet, size, bytes)));
    return make();
  };
  return {
    id: (prefix, size = 16) => `${prefix}_${gen(ALNUM, size)}`,
    digits: (n) => gen(DIGITS, n),
    hex: (n) => gen(HEX, n),
    alnum: (n) => gen(MIXED, n),
    int: (n) => {
      const b = bytes(4);
      return (((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) >>> 0) % n;
    },
  };
}

/**
 * CSPRNG bytes from a pool refilled 4 KiB at a time: one call into the platform per ~200 ids
 * instead of one per id (it showed up as a few percent of every POST).
 */
const POOL_BYTES = 4096;
let pool = new Uint8Array(0);
let offset = 0;
const cryptoBytes: ByteSource = (n) => {
  if (offset + n > pool.length) {
    pool = webcrypto.getRandomValues(new Uint8Array(Math.max(POOL_BYTES, n)));
    offset = 0;
  }
  const out = pool.subarray(offset, offset + n);
  offset += n;
  return out;
};

function seededBytes(seed: string): ByteSource {
  let [a, b, c, d] = hashSeed(seed);
  const next = () => {
    // sfc32: small, fast, good statistical quality; more than enough for sandbox identifiers.
    a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0;
    const t = (a + b + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  return (n) => {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = next() & 0xff;
    return out;
  };
}

/** cyrb128: spreads a string seed over four 32-bit words. */
function hashSeed(str: string): [number, number, number, number] {
  let h1 = 1779033703, h2 = 3144134277, h3 = 1013904242, h4 = 2773480762;
  for (let i = 0; i < str.length; i++) {
    const k = str.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  return [(h1 ^ h2 ^ h3 ^ h4) >>> 0, (h2 ^ h1) >>> 0, (h3 ^ h1) >>> 0, (h4 ^ h1) >>> 0];
}
