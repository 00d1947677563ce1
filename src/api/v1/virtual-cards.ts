import { createRoute, z } from "@hono/zod-openapi";
import {
  CardholderResponse,
  CardTransactionResponse,
  cardTransactionView,
  cardView,
  cardholderView,
  createCardholder,
  findCard,
  findCardholder,
  fundCard,
  fundsMovedView,
  issueCard,
  paginate,
  setCardStatus,
  terminateCard,
  unloadCard,
} from "../../domain/cards.js";
import { toMajor, toMinor } from "../../domain/money.js";
import { requireCapability } from "../../http/capability.js";
import { body, errors, json, security, withDefault } from "../../http/openapi.js";
import { amount, email, isoTime, phone, text } from "../../domain/fields.js";
import { pathId } from "../../http/schemas.js";
import { router } from "../../http/validation.js";
import { contextOf } from "../../engine/tenant.js";

const cards = requireCapability("virtual_cards");
const tags = ["Virtual cards"];
const idParam = z.object({ id: pathId });
const paging = z.object({
  page: withDefault(z.coerce.number().int().min(1).max(1_000_000), 1, "Page number, from 1."),
  per_page: withDefault(z.coerce.number().int().min(1).max(100), 20, "Cards per page, at most 100."),
});


const CardFields = {
  card_id: z.number().int(),
  cardholder_id: z.number().int(),
  brand: z.enum(["VISA", "MASTERCARD"]),
  label: z.string().nullable(),
  masked_pan: z.string(),
  expiry_month: z.number().int(),
  expiry_year: z.number().int(),
  currency: z.literal("USD"),
  balance: z.number(),
  status: z.enum(["active", "frozen", "terminated"]),
  created_at: isoTime,
};
const Card = z.object(CardFields).openapi("VirtualCard");
const CardResponse = z.object({ success: z.literal(true), ...CardFields }).openapi("VirtualCardResponse");
const Pagination = z.object({ current_page: z.number().int(), per_page: z.number().int(), total_pages: z.number().int(), total: z.number().int() });
const Moved = z
  .object({
    success: z.literal(true),
    message: z.string(),
    card_id: z.number().int(),
    transaction_id: z.string(),
    amount: z.number(),
    fee: z.number(),
    currency: z.literal("USD"),
    balance: z.number(),
    exchange_rate: z.number(),
    wallet_amount: z.number().openapi({ description: "Naira debited from (fund) or credited to (unload) the wallet" }),
  })
  .openapi("CardFundsMoved");
const StatusChanged = z
  .object({ success: z.literal(true), message: z.string(), card_id: z.number().int(), status: z.enum(["active", "frozen", "terminated"]), refunded_amount: z.number().optional() })
  .openapi("CardStatusChanged");
const UsdAmount = z.object({ amount: amount({ min: 1, max: 10_000, currency: "USD" }) }).openapi("CardAmount");

const route = <R extends Parameters<typeof createRoute>[0]>(r: R) => createRoute({ tags, security, middleware: [cards] as const, ...r });

const createHolder = route({
  method: "post",
  path: "/cardholders",
  summary: "Register a cardholder (repeating an email returns the same cardholder)",
  request: body(z.object({ first_name: text(100), last_name: text(100), email, phone: phone.optional() }).openapi("CreateCardholder")),
  responses: { 200: json(CardholderResponse, "The cardholder"), ...errors(400, 415, 422) },
});
const getHolder = route({
  method: "get",
  path: "/cardholders/{id}",
  summary: "Get a cardholder (poll until kyc_status is APPROVED)",
  request: { params: idParam },
  responses: { 200: json(CardholderResponse, "The cardholder"), ...errors(404, 422) },
});
const issue = route({
  method: "post",
  path: "/",
  summary: "Issue a virtual card to an APPROVED cardholder",
  request: body(
    z
      .object({
        cardholder_id: z.number().int().positive(),
        brand: withDefault(z.enum(["VISA", "MASTERCARD"], { message: "Must be VISA or MASTERCARD." }), "VISA"),
        label: text(50).optional(),
      })
      .openapi("IssueCard"),
  ),
  responses: { 200: json(CardResponse, "The new card"), ...errors(400, 404, 415, 422) },
});
const list = route({
  method: "get",
  path: "/",
  summary: "List cards",
  request: { query: paging },
  responses: { 200: json(z.object({ success: z.literal(true), data: z.array(Card), pagination: Pagination }), "A page of cards"), ...errors(422) },
});
const getOne = route({
  method: "get",
  path: "/{id}",
  summary: "Get a card with its balance",
  request: { params: idParam },
  responses: { 200: json(CardResponse, "The card"), ...errors(404, 422) },
});
const fund = route({
  method: "post",
  path: "/{id}/fund",
  summary: "Fund a card from the wallet (amount plus funding fee, at the merchant's USD rate)",
  request: { params: idParam, ...body(UsdAmount) },
  responses: { 200: json(Moved, "Funds moved"), ...errors(400, 404, 409, 415, 422) },
});
const unload = route({
  method: "post",
  path: "/{id}/unload",
  summary: "Move funds from a card back to the wallet",
  request: { params: idParam, ...body(UsdAmount) },
  responses: { 200: json(Moved, "Funds moved"), ...errors(400, 404, 409, 415, 422) },
});
const action = (path: "freeze" | "unfreeze" | "terminate", summary: string) =>
  route({
    method: "post",
    path: `/{id}/${path}`,
    summary,
    request: { params: idParam },
    responses: { 200: json(StatusChanged, "The card's new status"), ...errors(404, 409, 422) },
  });
const transactions = route({
  method: "get",
  path: "/{id}/transactions",
  summary: "The card's own transaction history (funding, unloads, spend)",
  request: { params: idParam, query: paging },
  responses: {
    200: json(z.object({ success: z.literal(true), data: z.array(CardTransactionResponse), pagination: Pagination }), "A page of transactions, newest first"),
    ...errors(404, 422),
  },
});

export function virtualCardRoutes() {
  return router()
    .openapi(createHolder, (c) => {
      const tenant = c.var.tenant;
      const { cardholder } = createCardholder(contextOf(tenant), tenant.state, c.req.valid("json"));
      return c.json({ success: true as const, ...cardholderView(cardholder) }, 200);
    })
    .openapi(getHolder, (c) => {
      const cardholder = findCardholder(c.var.tenant.state, c.req.valid("param").id);
      return c.json({ success: true as const, ...cardholderView(cardholder) }, 200);
    })
    .openapi(issue, (c) => {
      const tenant = c.var.tenant;
      const card = issueCard(contextOf(tenant), tenant.state, c.req.valid("json"));
      return c.json({ success: true as const, ...cardView(card) }, 200);
    })
    .openapi(list, (c) => {
      const { page, per_page } = c.req.valid("query");
      const { items, pagination } = paginate([...c.var.tenant.state.cards.values()], page, per_page);
      return c.json({ success: true as const, data: items.map(cardView), pagination }, 200);
    })
    .openapi(getOne, (c) => c.json({ success: true as const, ...cardView(findCard(c.var.tenant.state, c.req.valid("param").id)) }, 200))
    .openapi(fund, (c) => {
      const tenant = c.var.tenant;
      const ctx = contextOf(tenant);
      const moved = fundCard(ctx, tenant.state, c.req.valid("param").id, toMinor(c.req.valid("json").amount));
      return c.json(fundsMovedView(ctx, moved, "Card funded successfully"), 200);
    })
    .openapi(unload, (c) => {
      const tenant = c.var.tenant;
      const ctx = contextOf(tenant);
      const moved = unloadCard(ctx, tenant.state, c.req.valid("param").id, toMinor(c.req.valid("json").amount));
      return c.json(fundsMovedView(ctx, moved, "Card unloaded successfully"), 200);
    })
    .openapi(action("freeze", "Freeze a card (spend is declined until unfrozen)"), (c) => {
      const card = setCardStatus(c.var.tenant.state, c.req.valid("param").id, "freeze");
      return c.json({ success: true as const, message: "Card frozen successfully", card_id: card.card_id, status: card.status }, 200);
    })
    .openapi(action("unfreeze", "Unfreeze a frozen card"), (c) => {
      const card = setCardStatus(c.var.tenant.state, c.req.valid("param").id, "unfreeze");
      return c.json({ success: true as const, message: "Card unfrozen successfully", card_id: card.card_id, status: card.status }, 200);
    })
    .openapi(action("terminate", "Terminate a card permanently (its balance returns to the wallet)"), (c) => {
      const tenant = c.var.tenant;
      const { card, refunded } = terminateCard(contextOf(tenant), tenant.state, c.req.valid("param").id);
      return c.json(
        { success: true as const, message: "Card terminated successfully", card_id: card.card_id, status: card.status, refunded_amount: toMajor(refunded) },
        200,
      );
    })
    .openapi(transactions, (c) => {
      const card = findCard(c.var.tenant.state, c.req.valid("param").id);
      const { page, per_page } = c.req.valid("query");
      const newestFirst = [...c.var.tenant.state.cardTransactions.get(card.card_id)!].reverse();
      const { items, pagination } = paginate(newestFirst, page, per_page);
      return c.json({ success: true as const, data: items.map(cardTransactionView), pagination }, 200);
    });
}
