/**
 * NUBAN check digits (CBN standard). For a 3-digit bank code and a 9-digit serial, the weights
 * 3,7,3,3,7,3,3,7,3,3,7,3 run over the 12 digits; check = (10 - sum mod 10) mod 10.
 */
const WEIGHTS = [3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3];

export function nubanCheckDigit(bankCode: string, serial: string): number {
  const digits = bankCode + serial;
  if (!/^\d{12}$/.test(digits)) throw new Error("nubanCheckDigit needs a 3-digit bank code and a 9-digit serial");
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(digits[i]) * WEIGHTS[i]!;
  return (10 - (sum % 10)) % 10;
}

export function makeNuban(bankCode: string, serial: string): string {
  return serial + String(nubanCheckDigit(bankCode, serial));
}

/**
 * Whether `accountNumber` could be a real account at `bankCode`. The check digit is verified for
 * 3-digit (deposit money bank) codes. Longer codes belong to microfinance banks, fintechs and PSBs,
 * whose account numbers are often the holder's phone number and follow no check digit, so only the
 * 10-digit format is checked for them.
 */
export function isPlausibleNuban(bankCode: string, accountNumber: string): boolean {
  if (!/^\d{10}$/.test(accountNumber)) return false;
  if (!/^\d{3}$/.test(bankCode)) return true;
  return nubanCheckDigit(bankCode, accountNumber.slice(0, 9)) === Number(accountNumber[9]);
}
