/** Schemas of the HTTP layer itself: the error envelope and path ids. Field rules live in domain/fields.ts. */
import { z } from "@hono/zod-openapi";

/** Positive integer id in a path (`/virtual-cards/{id}`); `abc` or `1.5` is a validation error on `id`. */
export const pathId = z.coerce
  .number({ message: "Must be a positive whole number." })
  .int({ message: "Must be a positive whole number." })
  .positive({ message: "Must be a positive whole number." })
  .max(Number.MAX_SAFE_INTEGER, { message: "Must be a positive whole number." });

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
