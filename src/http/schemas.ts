/** Reusable field schemas: one definition per rule of the spec, so every endpoint enforces it alike. */
import { z } from "@hono/zod-openapi";
import { hasAtMostTwoDecimals } from "../domain/money.js";

/** A string of exactly `n` digits (BVN, NIN: 11; NUBAN: 10). */
export const digits = (n: number) =>
  z.string().regex(new RegExp(`^\\d{${n}}$`), { message: `Must be exactly ${n} digits.` });

/** A money amount in major units: finite, at most two decimals, within [min, max]. */
export function amount(opts: { min?: number; max?: number; currency?: string } = {}) {
  const { min = 0, max = 1e12, currency = "Naira" } = opts;
  return z
    .number({ message: "Must be a number." })
    .min(min, { message: `Must be at least ${min.toLocaleString("en-US")} ${currency}.` })
    .max(max, { message: `Must be at most ${max.toLocaleString("en-US")} ${currency}.` })
    .refine(hasAtMostTwoDecimals, { message: "Must have at most two decimal places." });
}

/** Nigerian mobile number: 0XXXXXXXXXX, 234XXXXXXXXXX or +234XXXXXXXXXX. */
export const phone = z
  .string()
  .trim()
  .regex(/^(?:0|\+?234)[789][01]\d{8}$/, { message: "Must be a Nigerian phone number such as 08031234567." });

export const email = z.email({ message: "Must be a valid email address." }).max(254);

export const text = (max: number) => z.string().trim().min(1, { message: "Must not be empty." }).max(max, { message: `Must be at most ${max} characters.` });

/** Positive integer id in a path (`/virtual-cards/{id}`); `abc` or `1.5` is a validation error on `id`. */
export const pathId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const ErrorSchema = z
  .object({
    success: z.literal(false),
    message: z.string(),
    error_code: z.string(),
    errors: z.record(z.string(), z.array(z.string())).optional(),
    retry_after: z.number().int().optional(),
    request_id: z.string().optional(),
  })
  .openapi("Error");
