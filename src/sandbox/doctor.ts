/** POST /sandbox/v1/webhooks/doctor: the webhook doctor's battery against the merchant's own receiver. */
import { createRoute, z } from "@hono/zod-openapi";
import { DomainError } from "../domain/errors.js";
import { httpUrl, isoTime } from "../domain/fields.js";
import { CAPTURE_URL, deliveryTarget } from "../domain/webhook-policy.js";
import { CASES } from "../doctor/battery.js";
import type { DoctorDesk } from "../doctor/desk.js";
import { runDoctor, type Scorecard } from "../doctor/run.js";
import { createIds } from "../engine/ids.js";
import type { Transport } from "../webhooks/transport.js";
import { ApiError } from "../http/errors.js";
import { errors, json, security } from "../http/openapi.js";
import { router } from "../http/validation.js";
import { controlErrors } from "./errors.js";
import { assertWebhookTarget } from "./webhook-target.js";
import * as docs from "./doctor-docs.js";

const tags = ["Sandbox"];

const CASE_IDS = CASES.map((c) => c.id) as [string, ...string[]];

const Observed = z.object({
  status_code: z.number().int().nullable(),
  error: z.string().nullable(),
  latency_ms: z.number(),
  response_excerpt: z.string().nullable(),
});

const CaseResult = z.object({
  id: z.enum(CASE_IDS),
  title: z.string(),
  sent: z.string(),
  expected: z.string(),
  why: z.string(),
  faults: z.array(z.string()).openapi({ description: "The receiver faults this case catches" }),
  result: z.enum(["pass", "fail"]),
  problem: z.string().nullable().openapi({ description: "Why it failed, in one line; null when it passed" }),
  observed: z.array(Observed).openapi({ description: "What came back for each delivery of the case, in order" }),
  credits: z.object({
    transaction_ids: z.array(z.string()),
    expected: z.enum(["none", "once", "at least once"]),
    found: z.array(z.number().int()).nullable().openapi({ description: "How many times the records view lists each transaction; null when it was not read" }),
  }),
});

const ScorecardSchema = z
  .object({
    endpoint: z.string().openapi({ description: "The receiver: the merchant's webhook_url, or sandbox:webhook-capture" }),
    records_url: z.string().nullable(),
    timeout_seconds: z.number(),
    started_at: isoTime,
    duration_ms: z.number().int(),
    ok: z.boolean(),
    passed: z.number().int(),
    failed: z.number().int(),
    total: z.number().int(),
    records: z.object({ read: z.boolean(), error: z.string().nullable() }).nullable(),
    cases: z.array(CaseResult),
  })
  .openapi("WebhookDoctorScorecard");

const DoctorRequest = z
  .object({
    records_url: httpUrl.optional().openapi({
      description:
        'Your receiver\'s read-only records view: GET {records_url}?transaction_ids=TXN_a,TXN_b answers { "credited": ["TXN_a", ...] }, one entry per credit made. With it, the doctor also checks what was credited.',
    }),
  })
  .strict()
  .openapi("WebhookDoctorRequest");

const runWebhookDoctor = createRoute({
  method: "post",
  path: "/webhooks/doctor",
  tags,
  security,
  operationId: "runWebhookDoctor",
  summary: "Send the webhook doctor's battery to the merchant's webhook_url and grade the answers",
  description: docs.DOCTOR_DESCRIPTION,
  request: {
    body: { required: false, content: { "application/json": { schema: DoctorRequest, examples: docs.DOCTOR_BODY_EXAMPLES } } },
  },
  responses: {
    200: json(z.object({ success: z.literal(true), data: ScorecardSchema }), "The scorecard", docs.DOCTOR_RESPONSE_EXAMPLES),
    ...controlErrors(docs.DOCTOR_ERRORS),
    429: errors(docs.DOCTOR_QUOTA_ERRORS)[429]!,
  },
});

/** The built-in capture checks nothing: it answers 200 to every case (its `fail_first` is for the sandbox's own deliveries, not the doctor's). */
const captureDeliver = () => Promise.resolve({ status_code: 200, error: null, latency_ms: 0, response_excerpt: "captured by the sandbox (no webhook_url set)" });

export function doctorRoutes(opts: { desk: DoctorDesk; transport: Transport; shared: boolean }) {
  // The doctor's transactions are its own: drawing them from the merchant's seeded ids would shift every later id.
  const ids = createIds();
  return router().openapi(runWebhookDoctor, async (c) => {
    const tenant = c.var.tenant;
    // The body is optional: without one, validation hands over {}.
    const { records_url } = c.req.valid("json");
    assertWebhookTarget(records_url, opts.shared, "records_url");
    const { webhook_secret, webhook } = tenant.config;
    const target = deliveryTarget(tenant.config);
    if (!target) {
      throw new DomainError("INVALID_STATE", "No webhook_url is set for this merchant: set one with PATCH /sandbox/v1/merchant, or run `merchant-sandbox doctor --endpoint URL --secret S` against any receiver.");
    }
    const admission = opts.desk.admit(tenant);
    if (!admission.admitted) {
      if (admission.busy) throw new DomainError("INVALID_STATE", "A webhook doctor run is already under way for this merchant: wait for its answer.");
      throw new ApiError("QUOTA_EXCEEDED", `At most ${docs.RUNS_PER_MINUTE} webhook doctor runs per minute for one merchant; retry in ${admission.retryAfter} s.`, {
        retry_after: admission.retryAfter,
      });
    }
    let card: Scorecard | null = null;
    try {
      card = await runDoctor({
        endpoint: target,
        deliver: target === CAPTURE_URL ? captureDeliver : (d, timeoutMs) => opts.transport.post(target, d.headers, d.body, timeoutMs),
        secret: webhook_secret,
        signature: { algorithm: webhook.signature_algorithm, encoding: webhook.signature_encoding },
        timeoutSeconds: webhook.timeout_seconds,
        recordsUrl: records_url,
        transport: opts.transport,
        ids,
      });
    } finally {
      admission.done(card);
    }
    return c.json({ success: true as const, data: card }, 200);
  });
}
