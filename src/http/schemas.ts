/** Schemas of the HTTP layer itself: the error envelope and path ids. Field rules live in domain/fields.ts. */
import { z } from "@hono/zod-openapi";
import { PayoutStatusSchema } from "../domain/payouts.js";

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
    data: PayoutStatusSchema.optional().openapi({
      description:
        "Present only with DUPLICATE_REFERENCE from POST /api/v1/payout/transfer: the payout the reference already made, as " +
        "GET /api/v1/payout/status shows it, so a client that retried after a lost answer can reconcile without another call.",
    }),
    request_id: z.string().optional(),
  })
  .openapi("Error");
