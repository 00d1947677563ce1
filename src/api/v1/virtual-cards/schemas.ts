/** The virtual cards' shared schemas: what requests carry (bounds from domain/cards.ts) and what answers show. */
import { z } from "@hono/zod-openapi";
import { CARD_AMOUNT_USD } from "../../../domain/cards.js";
import { amount, isoTime } from "../../../domain/fields.js";
import { CARD_BRANDS } from "../../../domain/records.js";
import { pagingFields } from "../../../http/paging.js";
import { pathId } from "../../../http/schemas.js";
import { examples, type Examples } from "../../../http/openapi.js";
import { Success } from "../../../http/route.js";

/** The `{id}` path parameter, with the demo ids each named example request uses. */
export const idParam = (named: Examples) => z.object({ id: examples(pathId, named) });
export const paging = z.object(pagingFields("Cards"));

const CardStatus = z.enum(["active", "frozen", "terminated"]);

const CardFields = {
  card_id: z.number().int(),
  cardholder_id: z.number().int(),
  brand: z.enum(CARD_BRANDS),
  label: z.string().nullable(),
  masked_pan: z.string(),
  expiry_month: z.number().int(),
  expiry_year: z.number().int(),
  currency: z.literal("USD"),
  balance: z.number(),
  status: CardStatus,
  created_at: isoTime,
};
export const Card = z.object(CardFields).openapi("VirtualCard");
export const CardResponse = Success(CardFields).openapi("VirtualCardResponse");

export const Moved = Success({
  message: z.string(),
  card_id: z.number().int(),
  transaction_id: z.string(),
  amount: z.number(),
  fee: z.number(),
  currency: z.literal("USD"),
  balance: z.number(),
  exchange_rate: z.number(),
  wallet_amount: z.number().openapi({ description: "Naira debited from (fund) or credited to (unload) the wallet" }),
}).openapi("CardFundsMoved");

export const StatusChanged = Success({ message: z.string(), card_id: z.number().int(), status: CardStatus, refunded_amount: z.number().optional() }).openapi(
  "CardStatusChanged",
);

export const UsdAmount = z.object({ amount: amount({ ...CARD_AMOUNT_USD, currency: "USD" }) }).openapi("CardAmount");
