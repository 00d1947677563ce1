/** The virtual cards' handlers. */
import {
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
} from "../../../domain/cards.js";
import { paginate } from "../../../domain/lists.js";
import { toMajor, toMinor } from "../../../domain/money.js";
import type { Deps } from "../../../http/deps.js";
import { tenantOf, okFields } from "../../../http/route.js";
import { router } from "../../../http/validation.js";
import * as op from "./routes.js";

export function virtualCardRoutes(_deps: Deps) {
  return router()
    .openapi(op.createHolder, (c) => {
      const { ctx, state } = tenantOf(c);
      const { cardholder } = createCardholder(ctx, state, c.req.valid("json"));
      return c.json(okFields(cardholderView(cardholder)), 200);
    })
    .openapi(op.getHolder, (c) => c.json(okFields(cardholderView(findCardholder(tenantOf(c).state, c.req.valid("param").id))), 200))
    .openapi(op.issue, (c) => {
      const { ctx, state } = tenantOf(c);
      return c.json(okFields(cardView(issueCard(ctx, state, c.req.valid("json")))), 200);
    })
    .openapi(op.list, (c) => {
      const { page, per_page } = c.req.valid("query");
      const { items, pagination } = paginate([...tenantOf(c).state.cards.values()], page, per_page);
      return c.json(okFields({ data: items.map(cardView), pagination }), 200);
    })
    .openapi(op.getOne, (c) => c.json(okFields(cardView(findCard(tenantOf(c).state, c.req.valid("param").id))), 200))
    .openapi(op.fund, (c) => {
      const { ctx, state } = tenantOf(c);
      const moved = fundCard(ctx, state, c.req.valid("param").id, toMinor(c.req.valid("json").amount));
      return c.json(fundsMovedView(ctx, moved, op.MESSAGES.funded), 200);
    })
    .openapi(op.unload, (c) => {
      const { ctx, state } = tenantOf(c);
      const moved = unloadCard(ctx, state, c.req.valid("param").id, toMinor(c.req.valid("json").amount));
      return c.json(fundsMovedView(ctx, moved, op.MESSAGES.unloaded), 200);
    })
    .openapi(op.freeze, (c) => {
      const card = setCardStatus(tenantOf(c).state, c.req.valid("param").id, "freeze");
      return c.json(okFields({ message: op.MESSAGES.frozen, card_id: card.card_id, status: card.status }), 200);
    })
    .openapi(op.unfreeze, (c) => {
      const card = setCardStatus(tenantOf(c).state, c.req.valid("param").id, "unfreeze");
      return c.json(okFields({ message: op.MESSAGES.unfrozen, card_id: card.card_id, status: card.status }), 200);
    })
    .openapi(op.terminate, (c) => {
      const { ctx, state } = tenantOf(c);
      const { card, refunded } = terminateCard(ctx, state, c.req.valid("param").id);
      return c.json(okFields({ message: op.MESSAGES.terminated, card_id: card.card_id, status: card.status, refunded_amount: toMajor(refunded) }), 200);
    })
    .openapi(op.transactions, (c) => {
      const { state } = tenantOf(c);
      const card = findCard(state, c.req.valid("param").id);
      const { page, per_page } = c.req.valid("query");
      const { items, pagination } = paginate([...state.cardTransactions.get(card.card_id)!].reverse(), page, per_page);
      return c.json(okFields({ data: items.map(cardTransactionView), pagination }), 200);
    });
}
