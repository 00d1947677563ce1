/**
 * Field rules, one definition each, used by every way data comes in: API bodies, control-API bodies,
 * merchant settings, scenario files. Input fields are in major units (Naira, US dollars) and become
 * the records of records.ts, whose own schemas carry the same bounds in minor units.
 */
import { MAX_AMOUNT, MAX_URL_LENGTH } from "./bounds.js";
import { hasAtMostTwoDecimals, thousands } from "./money.js";
import { z } from "./zod.js";

/** A string of exactly `n` digits (BVN, NIN: 11; NUBAN: 10). */
export const digits = (n: number) => z.string().regex(new RegExp(`^\\d{${n}}$`), { message: `Must be exactly ${n} digits.` });

/** A money amount in major units: finite, at most two decimals, within [min, max]. */
export function amount(opts: { min?: number; max?: number; currency?: string } = {}) {
  const { min = 0, max = MAX_AMOUNT, currency = "Naira" } = opts;
  return z
    .number({ message: "Must be a number." })
    .min(min, { message: `Must be at least ${thousands(min)} ${currency}.` })
    .max(max, { message: `Must be at most ${thousands(max)} ${currency}.` })
    .refine(hasAtMostTwoDecimals, { message: "Must have at most two decimal places." });
}

/** Nigerian mobile number: 0XXXXXXXXXX, 234XXXXXXXXXX or +234XXXXXXXXXX. */
export const phone = z
  .string()
  .trim()
  .regex(/^(?:0|\+?234)[789][01]\d{8}$/, { message: "Must be a Nigerian phone number such as 08031234567." });

export const email = z.email({ message: "Must be a valid email address." }).max(254);

/** Trimmed, non-empty text of at most `max` characters. */
/**
 * Non-empty text, trimmed. The document states "not only spaces" as a pattern (the trim is invisible
 * to it), so validators generated from it refuse `" "` as the sandbox does.
 */
export const text = (max: number) =>
  z.string().trim().min(1, { message: "Must not be empty." }).max(max, { message: `Must be at most ${max} characters.` }).openapi({ pattern: "\\S" });

/** A time as the API shows it: ISO 8601 in UTC (`date-time` in the OpenAPI document). */
export const isoTime = z.iso.datetime();

/** An absolute http(s) URL: the only kind the sandbox ever calls (webhooks) or sends a browser to (redirects). */
export const httpUrl = z.url({ protocol: /^https?$/, message: "Must be an http(s) URL." }).max(MAX_URL_LENGTH, { message: `Must be at most ${MAX_URL_LENGTH} characters.` });

/**
 * An IPv4 or IPv6 address, normalised the way client IPs are: `::ffff:127.0.0.1` is `127.0.0.1`,
 * IPv6 is lower case and compressed. An allowlist entry written either way then matches.
 */
export const ipAddress = z
  .string()
  .max(64)
  .refine((v) => z.ipv4().safeParse(v).success || z.ipv6().safeParse(v).success, { message: "Must be an IPv4 or IPv6 address." })
  .transform(normaliseIp)
  .openapi({ anyOf: [{ format: "ipv4" }, { format: "ipv6" }], description: "An IPv4 or IPv6 address", example: "203.0.113.7" });

export function normaliseIp(ip: string): string {
  const lower = ip.trim().toLowerCase();
  if (!lower.includes(":")) return lower;
  // WHATWG URL parsing gives IPv6 its canonical form (compressed, lower case, hex for an IPv4 tail).
  let canonical = lower;
  try {
    canonical = new URL(`http://[${lower}]/`).hostname.slice(1, -1);
  } catch {
    return lower;
  }
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (mapped) {
    const hi = parseInt(mapped[1]!, 16);
    const lo = parseInt(mapped[2]!, 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return canonical;
}
