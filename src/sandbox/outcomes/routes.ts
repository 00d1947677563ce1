/**
 * The outcome rules' contract: add, list and delete the merchant's overrides of how its next matching
 * objects end. The targets, outcomes, match fields and bounds the text states are read from the domain's
 * tables (domain/records.ts, domain/outcomes.ts, domain/bounds.ts); the examples are real bodies.
 */
import { code } from "../../domain/prose.js";
import { z } from "@hono/zod-openapi";
import { MAX_DELAY_SECONDS, MAX_OUTCOME_RULES, MAX_RESPONSE_DELAY_SECONDS, MAX_STATUS_QUERIES } from "../../domain/bounds.js";
import { iso } from "../../domain/context.js";
import { isoTime } from "../../domain/fields.js";
import { thousands } from "../../domain/money.js";
import { OUTCOMES, SLOW_RESPONSE_SECONDS, type OutcomeTarget, type RuleInput as RuleBody } from "../../domain/outcomes.js";
import { MAX_MATCH_FIELDS, maxDelaySeconds, OUTCOME_TARGETS, OutcomeRuleRecord, QUERY_OUTCOMES, RESPONSE_OPERATIONS, RULE_SHAPES, ruleMatch, ruleProblems } from "../../domain/records.js";
import { DEFAULT_FAULT_DELAY_SECONDS } from "../../domain/webhook-policy.js";
import { AT, DEMO, SAMPLE } from "../../http/demo-examples.js";
import { body, errorExample, examples, json } from "../../http/openapi.js";
import { routes, Success } from "../../http/route.js";
import { controlErrors, validationError } from "../errors.js";

const route = routes({ tags: ["Sandbox"] });

/** The stored rule's fields: the input takes the same bounds. */
const stored = OutcomeRuleRecord.shape;
const MAX_USES = stored.times.unwrap().maxValue!;
/** The targets whose delay_seconds is wall-clock time, bounded tightly. */
const WALL_CLOCK_TARGETS = OUTCOME_TARGETS.filter((t) => maxDelaySeconds(t) === MAX_RESPONSE_DELAY_SECONDS).sort();

/** The outcomes that settle on a status read, per target: "payout completed or failed, vtu ...". */
const queryOutcomes = (show: (s: string) => string) =>
  Object.entries(QUERY_OUTCOMES)
    .map(([target, outcomes]) => `${target} ${outcomes!.map(show).join(" or ")}`)
    .join(", ");

const RuleInput = z
  .object({
    target: z.enum(OUTCOME_TARGETS, { message: `Must be one of: ${OUTCOME_TARGETS.join(", ")}.` }),
    match: ruleMatch.optional()
      .openapi({ description: "Field values the request or object must have, e.g. { \"account_number\": \"0123456789\" }" }),
    outcome: stored.outcome.min(1).openapi({ description: Object.entries(OUTCOMES).map(([t, o]) => `${t}: ${o.join(" | ")}`).join("; ") }),
    delay_seconds: stored.delay_seconds
      .unwrap()
      .optional()
      .openapi({ description: `Sim seconds before the object settles; for targets ${WALL_CLOCK_TARGETS.join(" and ")}, wall-clock seconds the answer is held back (at most ${MAX_RESPONSE_DELAY_SECONDS})` }),
    times: stored.times.unwrap().optional().openapi({ description: "Uses before the rule is removed; default: until deleted" }),
    window_seconds: stored.window_seconds
      .unwrap()
      .unwrap()
      .optional()
      .openapi({ description: "Sim seconds from now (the merchant's clock) during which the rule applies; default: until deleted" }),
    queries: stored.queries
      .unwrap()
      .unwrap()
      .optional()
      .openapi({ description: `${queryOutcomes((s) => s)}: the object stays processing and settles on its Nth status read (instead of delay_seconds)` }),
  })
  .openapi("OutcomeRuleInput");

const Rule = z
  .object({
    id: z.string(),
    target: z.string(),
    match: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).nullable(),
    outcome: z.string(),
    delay_seconds: z.number().nullable(),
    times: z.number().nullable(),
    window_seconds: z.number().nullable(),
    queries: z.number().nullable(),
    created_at: isoTime,
    active_until: isoTime.nullable().openapi({ description: "When the rule's window ends (created_at + window_seconds), or null: until deleted" }),
  })
  .openapi("OutcomeRule");

const Deleted = Success({ message: z.string() });
/** The answers of the two deletes. */
export const DELETED_ONE = "Outcome rule deleted";
export const deletedRules = (count: number) => `${count} outcome rule(s) deleted`;

/** The rule POST answers for this body, made at the examples' time (the demo merchant already holds rule_1). */
const created = (b: RuleBody, id = "rule_2") => ({
  id,
  target: b.target,
  match: b.match ?? null,
  outcome: b.outcome,
  delay_seconds: b.delay_seconds ?? null,
  times: b.times ?? null,
  window_seconds: b.window_seconds ?? null,
  queries: b.queries ?? null,
  created_at: AT,
  active_until: b.window_seconds === undefined ? null : iso(Date.parse(AT) + b.window_seconds * 1000),
});

// ---- POST /sandbox/v1/outcomes -------------------------------------------------------------------

type Notes<T extends OutcomeTarget> = Partial<Record<(typeof OUTCOMES)[T][number], string>>;
/** One row of the targets table: what each outcome does (with text around the list), the delay, and notes on match fields. */
type Row<T extends OutcomeTarget> = { before?: string; notes?: Notes<T>; after?: string; delay?: string; match?: string; fieldNotes?: Record<string, string> };

const TARGETS: { [T in OutcomeTarget]: Row<T> } = {
  payout: { notes: { failed: "funds returned", processing: "held until forced" }, delay: "Settlement delay (sim time)" },
  vtu: { notes: { fail: "at once, refunded", processing: "held until forced" }, delay: "When processing settles (sim time)" },
  kyc: { notes: { pending: "never approves by itself" }, delay: "KYC delay (sim time)" },
  verify_account: {
    notes: { not_found: "422 `INVALID_ACCOUNT`", timeout: "504 `GATEWAY_TIMEOUT`, no name" },
    after: ": for an enquiry, and for the enquiry a transfer makes before any debit",
    delay: `For ${RULE_SHAPES.verify_account.delay.map(code).join(", ")}: wall-clock seconds before the 504 (default 0, at most ${maxDelaySeconds("verify_account")})`,
  },
  bank: { after: ": name enquiries and transfers to the bank get 503 `BANK_UNAVAILABLE`, nothing debited; `retry_after` is the rest of `window_seconds`" },
  response: {
    before: "After the change is made and saved: ",
    notes: { connection_reset: "no answer", slow_response: "the answer, late", server_error: "500 `INTERNAL_ERROR`", gateway_timeout: "504 `GATEWAY_TIMEOUT`" },
    delay: `Wall-clock seconds before it happens (default ${SLOW_RESPONSE_SECONDS} for \`slow_response\`, else 0; at most ${maxDelaySeconds("response")})`,
    match: `\`operation\` (${RESPONSE_OPERATIONS.map(code).join(", ")}), the request's body fields and path parameters (\`id\`)`,
  },
  card_fund: { notes: { failed: "422 `CARD_FUNDING_FAILED`, nothing charged" }, fieldNotes: { amount: "(USD)" } },
  webhook: { delay: `The wait of \`delay\` (default ${DEFAULT_FAULT_DELAY_SECONDS}, sim time)` },
};

const targetRow = <T extends OutcomeTarget>(target: T) => {
  const row: Row<T> = TARGETS[target];
  const notes: Record<string, string | undefined> = row.notes ?? {};
  const outcomes = OUTCOMES[target].map((o) => (notes[o] ? `${code(o)} (${notes[o]})` : code(o))).join(", ");
  const delay = RULE_SHAPES[target].delay.length === 0 ? "(none)" : row.delay;
  const match = row.match ?? RULE_SHAPES[target].match.map((f) => [code(f), row.fieldNotes?.[f]].filter(Boolean).join(" ")).join(", ");
  return `| ${code(target)} | ${row.before ?? ""}${outcomes}${row.after ?? ""} | ${delay} | ${match} |`;
};

/** The examples that add a rule: the body sent, and the summary of the rule answered for it. */
const ADDED: Record<string, { summary: string; value: RuleBody; answer: string }> = {
  failOnePayout: {
    summary: "The next payout to account 0123456789 fails at settlement",
    value: { target: "payout", match: { account_number: "0123456789" }, outcome: "failed", times: 1 },
    answer: "The rule, used once",
  },
  slowAirtime: {
    summary: "Airtime purchases stay processing for 2 minutes, then fail (refunded)",
    value: { target: "vtu", match: { service: "airtime" }, outcome: "processing_fail", delay_seconds: 120 },
    answer: "The rule, until deleted",
  },
  duplicateWebhook: {
    summary: "The next payout.completed webhook is delivered twice",
    value: { target: "webhook", match: { event: "payout.completed" }, outcome: "duplicate", times: 1 },
    answer: "The webhook fault, used once",
  },
  lostAnswer: {
    summary: "The next transfer is made, then its connection is reset with no answer",
    value: { target: "response", match: { operation: "createPayout" }, outcome: "connection_reset", times: 1 },
    answer: "The answer fault, used once",
  },
  bankDown: {
    summary: "Guaranty Trust Bank (058) is down for 10 minutes of the merchant's clock",
    value: { target: "bank", match: { bank_code: "058" }, outcome: "down", window_seconds: 600 },
    answer: "The outage, with the end of its window",
  },
  settleOnStatusRead: {
    summary: "The next payout stays processing until its status is read 3 times, then completes",
    value: { target: "payout", outcome: "completed", queries: 3, times: 1 },
    answer: "The rule, used once",
  },
};
const eachAdded = <T>(f: (e: (typeof ADDED)[string]) => T) => Object.fromEntries(Object.entries(ADDED).map(([name, e]) => [name, f(e)]));
const INVALID_OUTCOME = { target: "payout", outcome: "exploded" } as const;
type RuleFields = Parameters<typeof ruleProblems>[0];
/** What the domain's check says about a rule with these fields: the 422 examples' messages. */
const problemWith = (fields: Partial<RuleFields> & Pick<RuleFields, "target" | "outcome">) => ruleProblems({ match: null, delay_seconds: null, queries: null, ...fields });

export const create = route({
  method: "post",
  path: "/outcomes",
  operationId: "createOutcomeRule",
  summary: "Add an outcome rule (the newest matching rule wins)",
  description: `
Adds an outcome rule: how the next matching objects of the calling merchant end, in place of the sandbox's
defaults and magic values. A rule is looked up when an object is created (a payout, a VTU purchase, a cardholder,
an account verification, a card funding), when a bank is asked (name enquiry, transfer), when a money-moving
operation has been made and is about to answer, or when a webhook attempt is made, so it never changes objects that
already exist. The newest matching rule wins. Answers 201 with the rule and its \`id\` (\`rule_N\`).

| \`target\` | \`outcome\` | \`delay_seconds\` | Fields \`match\` can use |
|---|---|---|---|
${OUTCOME_TARGETS.map(targetRow).join("\n")}

- \`match\` (optional, at most ${MAX_MATCH_FIELDS} fields): values the request must have, compared as text and case-insensitively
  (\`{ "amount": 5000 }\` matches 5000, \`{ "network": "MTN" }\` matches \`mtn\`). A field the target does not have
  never matches. Without \`match\`, the rule applies to every object of its target.
- \`outcome\`: one of its target's (else 422 on \`outcome\`).
- \`delay_seconds\` (optional, 0 to ${thousands(MAX_DELAY_SECONDS)}): replaces the merchant's delay for the matching object.
- \`times\` (optional, 1 to ${thousands(MAX_USES)}): uses before the rule removes itself. Without it the rule lasts until deleted.
- \`window_seconds\` (optional, 1 to ${thousands(MAX_DELAY_SECONDS)}): the rule applies only for this long from its creation, on the merchant's
  clock (\`active_until\` in the answer); after that it never matches again. Without it the rule lasts until deleted.
- \`queries\` (optional, 1 to ${thousands(MAX_STATUS_QUERIES)}; ${queryOutcomes(code)}):
  the object stays \`processing\` until its status is read that many times (\`GET /api/v1/payout/status\`,
  \`GET /api/v1/vtu/transaction/status\`); that read settles it, with the same ledger entries and webhook as a settlement by
  time. Not with \`delay_seconds\`.
- A merchant holds at most ${MAX_OUTCOME_RULES} rules: beyond, 422 (delete some with DELETE /sandbox/v1/outcomes).

**The merchant's side of an ambiguous outcome.** After a lost, late or 5xx answer to a payout, query its status by the
reference it was sent with, and never send it again with a new reference (the same reference gets 409). A \`processing\`
payout may still fail hours later (its \`payout.failed\` webhook returns the funds). A name enquiry that times out is
retried before any transfer; a bank that is down is retried after \`retry_after\`.

Webhook faults apply to the attempts the sandbox makes by itself (first attempts and retries), not to
redeliveries. Rules belong to one merchant, and POST /sandbox/v1/reset clears them.`.trim(),
  request: body(RuleInput, {
    ...eachAdded(({ summary, value }) => ({ summary, value })),
    invalidOutcome: { summary: "An outcome the target does not have", value: INVALID_OUTCOME },
  }),
  responses: {
    201: json(Success({ data: Rule }), "The rule", eachAdded(({ answer, value }) => ({ summary: answer, value: { success: true, data: created(value) } }))),
    ...controlErrors({
      422: {
        invalidOutcome: validationError("Not an outcome of the target", "outcome", problemWith(INVALID_OUTCOME).outcome!),
        queriesWithDelay: validationError("queries and delay_seconds together", "queries", problemWith({ target: "payout", outcome: "completed", queries: 3, delay_seconds: 60 }).queries!),
        responseDelayTooLong: validationError(
          `A response held back longer than ${maxDelaySeconds("response")} s`,
          "delay_seconds",
          problemWith({ target: "response", outcome: "slow_response", delay_seconds: maxDelaySeconds("response") + 1 }).delay_seconds!,
        ),
        tooManyRules: validationError(
          `The merchant already holds ${MAX_OUTCOME_RULES} rules`,
          "target",
          `A merchant holds at most ${MAX_OUTCOME_RULES} outcome rules: delete some first (DELETE /sandbox/v1/outcomes).`,
        ),
      },
    }),
  },
});

// ---- GET /sandbox/v1/outcomes --------------------------------------------------------------------

export const list = route({
  method: "get",
  path: "/outcomes",
  operationId: "listOutcomeRules",
  summary: "List the merchant's outcome rules, oldest first",
  description: `
The calling merchant's outcome rules, oldest first (the newest matching one wins). \`times\` shows the uses left
(null: until deleted); a rule whose uses are spent is gone from the list. \`match\` is null for a rule that applies
to every object of its target.`.trim(),
  responses: {
    200: json(Success({ data: z.array(Rule) }), "The rules", {
      rules: {
        summary: `The demo merchant's sample rule: payouts with reference ${SAMPLE.failingReference} fail at settlement`,
        value: { success: true, data: [created({ target: "payout", match: { reference: SAMPLE.failingReference }, outcome: "failed" }, DEMO.rule)] },
      },
    }),
    ...controlErrors(),
  },
});

// ---- DELETE /sandbox/v1/outcomes/{id} ------------------------------------------------------------

export const removeOne = route({
  method: "delete",
  path: "/outcomes/{id}",
  operationId: "deleteOutcomeRule",
  summary: "Delete one outcome rule",
  description: `
Deletes one outcome rule of the calling merchant, by its \`id\` (\`rule_N\`, from POST or GET /sandbox/v1/outcomes).
Objects that already exist keep the outcome decided when they were created. An unknown id gets 404 \`NOT_FOUND\`.`.trim(),
  request: {
    params: z.object({
      id: examples(z.string().max(40), {
        deleteRule: { summary: "The demo merchant's rule", value: DEMO.rule },
        notFound: { summary: "No rule with this id", value: "rule_99" },
      }),
    }),
  },
  responses: {
    200: json(Deleted, "Deleted", { deleteRule: { summary: "Deleted", value: { success: true, message: DELETED_ONE } } }),
    ...controlErrors({ 404: { notFound: errorExample("No rule with this id", "NOT_FOUND", "No outcome rule rule_99.") } }),
  },
});

// ---- DELETE /sandbox/v1/outcomes -----------------------------------------------------------------

export const removeAll = route({
  method: "delete",
  path: "/outcomes",
  operationId: "deleteOutcomeRules",
  summary: "Delete all of the merchant's outcome rules",
  description: `
Deletes every outcome rule of the calling merchant, so objects created from now on end by the sandbox's defaults
and magic values again. Objects that already exist keep the outcome decided when they were created. The message
says how many rules were deleted (0 is not an error).`.trim(),
  responses: {
    200: json(Deleted, "Deleted", { cleared: { summary: "The demo merchant's one rule deleted", value: { success: true, message: deletedRules(1) } } }),
    ...controlErrors(),
  },
});
