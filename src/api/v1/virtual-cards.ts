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
  setCardStatus,
  terminateCard,
  unloadCard,
} from "../../domain/cards.js";
import { paginate } from "../../domain/lists.js";
import { toMajor, toMinor } from "../../domain/money.js";
import { requireCapability } from "../../http/capability.js";
import { afterCommitErrors, body, errors, examples, json, security, withDefault, type Examples } from "../../http/openapi.js";
import { amount, email, isoTime, phone, text } from "../../domain/fields.js";
import { Pagination, pagingFields } from "../../http/paging.js";
import { pathId } from "../../http/schemas.js";
import { router } from "../../http/validation.js";
import { contextOf } from "../../engine/tenant.js";
import {
  CREATE_CARD,
  CREATE_CARDHOLDER,
  DESCRIPTIONS,
  FREEZE,
  FUND,
  GET_CARD,
  GET_CARDHOLDER,
  LIST_CARDS,
  TERMINATE,
  TRANSACTIONS,
  UNFREEZE,
  UNLOAD,
} from "./virtual-cards-docs.js";

const cards = requireCapability("virtual_cards");
const tags = ["Virtual cards"];
/** The `{id}` path parameter, with the demo ids each named example request uses. */
const idParam = (named: Examples) => z.object({ id: examples(pathId, named) });
const paging = z.object(pagingFields("Cards"));

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
  operationId: "createCardholder",
  summary: "Register a cardholder (repeating an email returns the same cardholder)",
  description: DESCRIPTIONS.createCardholder,
  request: body(z.object({ first_name: text(100), last_name: text(100), email, phone: phone.optional() }).openapi("CreateCardholder"), CREATE_CARDHOLDER.body),
  responses: {
    200: json(CardholderResponse, "The cardholder", CREATE_CARDHOLDER[200]),
    ...errors({ 403: CREATE_CARDHOLDER[403], 422: CREATE_CARDHOLDER[422] }),
  },
});
const getHolder = route({
  method: "get",
  path: "/cardholders/{id}",
  operationId: "getCardholder",
  summary: "Get a cardholder (poll until kyc_status is APPROVED)",
  description: DESCRIPTIONS.getCardholder,
  request: { params: idParam(GET_CARDHOLDER.id) },
  responses: {
    200: json(CardholderResponse, "The cardholder", GET_CARDHOLDER[200]),
    ...errors({ 403: GET_CARDHOLDER[403], 404: GET_CARDHOLDER[404], 422: GET_CARDHOLDER[422] }),
  },
});
const issue = route({
  method: "post",
  path: "/",
  operationId: "createVirtualCard",
  summary: "Issue a virtual card to an APPROVED cardholder",
  description: DESCRIPTIONS.createVirtualCard,
  request: body(
    z
      .object({
        cardholder_id: z.number().int().positive(),
        brand: withDefault(z.enum(["VISA", "MASTERCARD"], { message: "Must be VISA or MASTERCARD." }), "VISA"),
        label: text(50).optional(),
      })
      .openapi("IssueCard"),
    CREATE_CARD.body,
  ),
  responses: {
    200: json(CardResponse, "The new card", CREATE_CARD[200]),
    ...errors({ 403: CREATE_CARD[403], 404: CREATE_CARD[404], 422: CREATE_CARD[422] }),
  },
});
const list = route({
  method: "get",
  path: "/",
  operationId: "listVirtualCards",
  summary: "List cards",
  description: DESCRIPTIONS.listVirtualCards,
  request: { query: paging },
  responses: {
    200: json(z.object({ success: z.literal(true), data: z.array(Card), pagination: Pagination }), "A page of cards", LIST_CARDS[200]),
    ...errors({ 403: LIST_CARDS[403], 422: LIST_CARDS[422] }),
  },
});
const getOne = route({
  method: "get",
  path: "/{id}",
  operationId: "getVirtualCard",
  summary: "Get a card with its balance",
  description: DESCRIPTIONS.getVirtualCard,
  request: { params: idParam(GET_CARD.id) },
  responses: { 200: json(CardResponse, "The card", GET_CARD[200]), ...errors({ 403: GET_CARD[403], 404: GET_CARD[404], 422: GET_CARD[422] }) },
});
const fund = route({
  method: "post",
  path: "/{id}/fund",
  operationId: "fundVirtualCard",
  summary: "Fund a card from the wallet (amount plus funding fee, at the merchant's USD rate)",
  description: DESCRIPTIONS.fundVirtualCard,
  request: { params: idParam(FUND.id), ...body(UsdAmount, FUND.body) },
  responses: { 200: json(Moved, "Funds moved", FUND[200]), ...errors({ 403: FUND[403], 404: FUND[404], 409: FUND[409], 422: FUND[422], ...afterCommitErrors("funding", "fundVirtualCard") }) },
});
const unload = route({
  method: "post",
  path: "/{id}/unload",
  operationId: "unloadVirtualCard",
  summary: "Move funds from a card back to the wallet",
  description: DESCRIPTIONS.unloadVirtualCard,
  request: { params: idParam(UNLOAD.id), ...body(UsdAmount, UNLOAD.body) },
  responses: { 200: json(Moved, "Funds moved", UNLOAD[200]), ...errors({ 403: UNLOAD[403], 404: UNLOAD[404], 409: UNLOAD[409], 422: UNLOAD[422], ...afterCommitErrors("unload", "unloadVirtualCard") }) },
});
/** Freeze, unfreeze and terminate: no body, the card's new status back. */
interface ActionDocs {
  id: Examples;
  200: Examples;
  403: Examples;
  404: Examples;
  409: Examples;
  422: Examples;
}
const action = (path: "freeze" | "unfreeze" | "terminate", operationId: string, summary: string, description: string, docs: ActionDocs) =>
  route({
    method: "post",
    path: `/{id}/${path}`,
    operationId,
    summary,
    description,
    request: { params: idParam(docs.id) },
    responses: {
      200: json(StatusChanged, "The card's new status", docs[200]),
      ...errors({ 403: docs[403], 404: docs[404], 409: docs[409], 422: docs[422] }),
    },
  });
const transactions = route({
  method: "get",
  path: "/{id}/transactions",
  operationId: "listVirtualCardTransactions",
  summary: "The card's own transaction history (funding, unloads, spend)",
  description: DESCRIPTIONS.listVirtualCardTransactions,
  request: { params: idParam(TRANSACTIONS.id), query: paging },
  responses: {
    200: json(
      z.object({ success: z.literal(true), data: z.array(CardTransactionResponse), pagination: Pagination }),
      "A page of transactions, newest first",
      TRANSACTIONS[200],
    ),
    ...errors({ 403: TRANSACTIONS[403], 404: TRANSACTIONS[404], 422: TRANSACTIONS[422] }),
  },
});

export function virtualCardRoutes() {
  return router()
    .openapi(createHolder, (c) => {
      const tenant = c.get("tenant");
      const { cardholder } = createCardholder(contextOf(tenant), tenant.state, c.req.valid("json"));
      return c.json({ success: true as const, ...cardholderView(cardholder) }, 200);
    })
    .openapi(getHolder, (c) => {
      const cardholder = findCardholder(c.get("tenant").state, c.req.valid("param").id);
      return c.json({ success: true as const, ...cardholderView(cardholder) }, 200);
    })
    .openapi(issue, (c) => {
      const tenant = c.get("tenant");
      const card = issueCard(contextOf(tenant), tenant.state, c.req.valid("json"));
      return c.json({ success: true as const, ...cardView(card) }, 200);
    })
    .openapi(list, (c) => {
      const { page, per_page } = c.req.valid("query");
      const { items, pagination } = paginate([...c.get("tenant").state.cards.values()], page, per_page);
      return c.json({ success: true as const, data: items.map(cardView), pagination }, 200);
    })
    .openapi(getOne, (c) => c.json({ success: true as const, ...cardView(findCard(c.get("tenant").state, c.req.valid("param").id)) }, 200))
    .openapi(fund, (c) => {
      const tenant = c.get("tenant");
      const ctx = contextOf(tenant);
      const moved = fundCard(ctx, tenant.state, c.req.valid("param").id, toMinor(c.req.valid("json").amount));
      return c.json(fundsMovedView(ctx, moved, "Card funded successfully"), 200);
    })
    .openapi(unload, (c) => {
      const tenant = c.get("tenant");
      const ctx = contextOf(tenant);
      const moved = unloadCard(ctx, tenant.state, c.req.valid("param").id, toMinor(c.req.valid("json").amount));
      return c.json(fundsMovedView(ctx, moved, "Card unloaded successfully"), 200);
    })
    .openapi(action("freeze", "freezeVirtualCard", "Freeze a card (spend is declined until unfrozen)", DESCRIPTIONS.freezeVirtualCard, FREEZE), (c) => {
      const card = setCardStatus(c.get("tenant").state, c.req.valid("param").id, "freeze");
      return c.json({ success: true as const, message: "Card frozen successfully", card_id: card.card_id, status: card.status }, 200);
    })
    .openapi(action("unfreeze", "unfreezeVirtualCard", "Unfreeze a frozen card", DESCRIPTIONS.unfreezeVirtualCard, UNFREEZE), (c) => {
      const card = setCardStatus(c.get("tenant").state, c.req.valid("param").id, "unfreeze");
      return c.json({ success: true as const, message: "Card unfrozen successfully", card_id: card.card_id, status: card.status }, 200);
    })
    .openapi(action("terminate", "terminateVirtualCard", "Terminate a card permanently (its balance returns to the wallet)", DESCRIPTIONS.terminateVirtualCard, TERMINATE), (c) => {
      const tenant = c.get("tenant");
      const { card, refunded } = terminateCard(contextOf(tenant), tenant.state, c.req.valid("param").id);
      return c.json(
        { success: true as const, message: "Card terminated successfully", card_id: card.card_id, status: card.status, refunded_amount: toMajor(refunded) },
        200,
      );
    })
    .openapi(transactions, (c) => {
      const card = findCard(c.get("tenant").state, c.req.valid("param").id);
      const { page, per_page } = c.req.valid("query");
      const newestFirst = [...c.get("tenant").state.cardTransactions.get(card.card_id)!].reverse();
      const { items, pagination } = paginate(newestFirst, page, per_page);
      return c.json({ success: true as const, data: items.map(cardTransactionView), pagination }, 200);
    });
}
