/** Numbers, durations and lists as the documentation's prose writes them. */
import { thousands } from "./money.js";

/** A small count in words ("three"), as prose states it; 11 and above in digits. */
export const inWords = (n: number): string => ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"][n] ?? thousands(n);

/** A list as prose writes it: "a, b and c" (or "a, b or c"). */
export const spokenList = (items: readonly string[], last = " and "): string =>
  items.length < 2 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")}${last}${items.at(-1)}`;

/** Seconds as prose writes them: 60 -> "1 min", 7200 -> "2 h", 86400 -> "24 h", 45 -> "45 s". */
export function spokenSeconds(seconds: number): string {
  if (seconds < 60 || seconds % 60 !== 0) return `${seconds} s`;
  if (seconds < 3_600 || seconds % 3_600 !== 0) return `${seconds / 60} min`;
  return `${seconds / 3_600} h`;
}

/** A value as the docs show code: `value`. */
export const code = (value: string | number) => `\`${value}\``;

/** A count and its noun as prose writes them: plural(1, "error") -> "1 error", plural(2, "delivery", "deliveries") -> "2 deliveries". */
export const plural = (n: number, one: string, many = `${one}s`): string => `${thousands(n)} ${n === 1 ? one : many}`;
