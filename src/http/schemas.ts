/** Schemas of the HTTP layer itself: the error envelope and path ids. Field rules live in domain/fields.ts. */
import { z } from "@hono/zod-openapi";

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
