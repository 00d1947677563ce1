/** Card numbers: Luhn-valid 16-digit PANs with the brand's prefix, and the four-group mask. */
import type { CardBrand } from "./records.js";

export type { CardBrand };

export function luhnCheckDigit(partial: string): number {
  let sum = 0;
  // Walking from the right of the partial number, every first digit is doubled (it will be the
  // second from the right once the check digit is appended).
  for (let i = partial.length - 1, double = true; i >= 0; i--, double = !double) {
    let d = Number(partial[i]);
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

export function isLuhnValid(pan: string): boolean {
  return /^\d{12,19}$/.test(pan) && luhnCheckDigit(pan.slice(0, -1)) === Number(pan.at(-1));
}

/** VISA BINs start with 4; Mastercard with 51-55 (the 2-series is left out for recognisability). */
export function brandPrefix(brand: CardBrand, pick: number): string {
  return brand === "VISA" ? "4" : String(51 + (pick % 5));
}

/** `digits` supplies the random middle; the result is brand prefix + digits + Luhn check, 16 long. */
export function makePan(brand: CardBrand, digits: string, pick: number): string {
  const prefix = brandPrefix(brand, pick);
  const body = (prefix + digits).slice(0, 15);
  if (!/^\d{15}$/.test(body)) throw new Error("makePan needs at least 15 digits of material");
  return body + String(luhnCheckDigit(body));
}

/** "4123 45** **** 1234": first six and last four shown, in four groups of four. */
export function maskPan(pan: string): string {
  const masked = pan.slice(0, 6) + "*".repeat(pan.length - 10) + pan.slice(-4);
  return masked.match(/.{1,4}/g)!.join(" ");
}
