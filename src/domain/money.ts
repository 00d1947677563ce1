/**
 * Money is held in integer minor units (kobo for NGN, cents for USD) everywhere inside; the API speaks
 * major units (Naira, Dollars) as JSON numbers. These two functions are the only crossing points.
 */
export type Minor = number;

/** Converts a major-unit amount that has already been validated to have at most two decimals. */
export function toMinor(major: number): Minor {
  return Math.round(major * 100);
}

export function toMajor(minor: Minor): number {
  return minor / 100;
}

/**
 * True when `major` is finite and has at most two decimal places, i.e. it is exactly the number its
 * kobo give back. (A fixed tolerance on `major * 100` refused good amounts above about 10^9, where
 * the product's own rounding error is larger.)
 */
export function hasAtMostTwoDecimals(major: number): boolean {
  return Number.isFinite(major) && Math.round(major * 100) / 100 === major;
}


/**
 * `n` as `n.toLocaleString("en-US")` writes it (1,000,000.5; up to three decimals), for numbers below
 * 1e21. Written out because schema messages and docs format bounds at module load, and the first
 * toLocaleString call initialises ICU's number formatting: 10-70 ms of every cold start.
 */
export function thousands(n: number): string {
  const rounded = Math.round(Math.abs(n) * 1000) / 1000;
  const [whole = "0", fraction] = String(rounded).split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, ",");
  return `${n < 0 && rounded !== 0 ? "-" : ""}${grouped}${fraction ? `.${fraction}` : ""}`;
}
