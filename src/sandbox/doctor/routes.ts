/**
 * The webhook doctor's contract in the control API. The demo merchant has no webhook_url, so its example
 * is a run against its built-in capture, which checks nothing; the cases, counts and quotas are read from
 * the battery and the desk that run it.
 */
import { inWords } from "../../domain/prose.js";
import { z } from "@hono/zod-openapi";
import { httpUrl, isoTime } from "../../domain/fields.js";
import { DEFAULTS } from "../../domain/merchant.js";
import { CAPTURE_URL, CAPTURED } from "../../domain/webhook-policy.js";
import { CASES, planBattery, type CaseId } from "../../doctor/battery.js";
import { DOCTOR_RUNS_PER_MINUTE, doctorQuotaMessage } from "../../doctor/desk.js";
import { MAX_RECORDS_BYTES, RECORDS_QUERY } from "../../doctor/records.js";
import { createIds } from "../../engine/ids.js";
import { errorExample, errors, json } from "../../http/openapi.js";
import { routes, Success } from "../../http/route.js";
import { EXCERPT_CHARS } from "../../webhooks/transport.js";
import { controlErrors, validationError } from "../errors.js";

const route = routes({ tags: ["Sandbox"] });

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

const Scorecard = z
  .object({
    endpoint: z.string().openapi({ description: `The receiver: the merchant's webhook_url, or ${CAPTURE_URL}` }),
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
      description: `Your receiver's read-only records view: GET {records_url}?${RECORDS_QUERY}=TXN_a,TXN_b answers { "credited": ["TXN_a", ...] }, one entry per credit made. With it, the doctor also checks what was credited.`,
    }),
  })
  .strict()
  .openapi("WebhookDoctorRequest");

/** Small counts, spelled as the text reads them. */
const REFUSAL_CASES = inWords(CASES.filter((c) => c.expect === "refused").length);
/**
 * The deliveries of one run, counted on a battery planned (not sent) with throwaway keys and ids: seeded
 * ids, since a count needs no randomness and the platform's CSPRNG would be set up at every start for it.
 */
const DELIVERIES = planBattery({ secret: "-", signature: {}, now: 0, ids: createIds("delivery count") }).reduce((n, c) => n + c.deliveries.length, 0);

/** A case of the demo's run, as its built-in capture (200 to everything, at once) makes it. */
function captured(id: CaseId, transactionIds: string[]) {
  const { expect, credits, ...info } = CASES.find((c) => c.id === id)!;
  const pass = expect === "accepted";
  return {
    ...info,
    result: pass ? "pass" : "fail",
    problem: pass ? null : "answered 200; expected a refusal: any answer but a 2xx",
    observed: transactionIds.map(() => CAPTURED),
    credits: { transaction_ids: transactionIds, expected: credits, found: null },
  };
}

const capturedCases = [
  captured("valid_event", ["TXN_0B5J8Q2W6E4R1T7Y"]),
  captured("duplicate_delivery", ["TXN_0B5J8Q2W6E4R1T7Y"]),
  captured("missing_signature", ["TXN_3M9K1P5X7C2V8B4N"]),
  captured("bad_signature", ["TXN_6H2G8F4D0S3A9L5K"]),
  captured("tampered_body", ["TXN_1Z7X3C9V5B2N8M4Q"]),
  captured("stale_sent_at", ["TXN_8W4E0R6T2Y9U5I1O"]),
  captured("unknown_event_type", ["TXN_5P1A7S3D9F4G0H6J"]),
  captured("out_of_order", ["TXN_2K8L4Z0X6C1V7B3N", "TXN_9M5Q1W7E3R8T4Y0U"]),
  captured("large_payload", ["TXN_4I0O6P2A8S3D9F5G"]),
];
const capturedPassed = capturedCases.filter((c) => c.result === "pass").length;

export const run = route({
  method: "post",
  path: "/webhooks/doctor",
  operationId: "runWebhookDoctor",
  summary: "Send the webhook doctor's battery to the merchant's webhook_url and grade the answers",
  description: `
Sends the webhook doctor's battery to the calling merchant's \`webhook_url\`, signed with its \`webhook_secret\` and
\`webhook.signature_algorithm\`/\`signature_encoding\`, and grades every answer. The same battery as
\`merchant-sandbox doctor --endpoint URL --secret S\` and the dashboard's "Run webhook doctor" button. The cases, in order:

${CASES.map((c) => `- \`${c.id}\`: ${c.sent}. Expected: ${c.expected}.`).join("\n")}

Each delivery is built as the sandbox's own (\`{ event, nonce, sent_at, data }\`, the same headers), with new
transaction ids, and \`sent_at\` on the **wall clock** (a receiver compares it with its own clock, whatever the
merchant's clock says). Each waits at most \`webhook.timeout_seconds\` (${DEFAULTS.webhook.timeout_seconds} by default); a refusal is any answer but a 2xx.
The doctor changes nothing in the merchant's state: no event, delivery or ledger entry is recorded.

- \`records_url\` (optional): your receiver's read-only records view. The doctor calls
  \`GET {records_url}?${RECORDS_QUERY}=TXN_a,TXN_b,...\` (the run's transaction ids) and expects
  \`{ "credited": ["TXN_a", ...] }\`, one entry per credit made (a transaction credited twice is listed twice; up to
  ${MAX_RECORDS_BYTES / 1024 / 1024} MB is read). It is read again for up to the timeout while a credit is missing,
  as a receiver may credit just after answering. Then every case also checks its credits: the duplicate credited once,
  refused and unknown deliveries credited nothing. A view that cannot be read makes \`ok\` false.
- The answer waits for the whole battery (${DELIVERIES} deliveries). \`ok\` is true when every case passed. Each case gives
  \`result\`, \`problem\` (why it failed), \`observed\` (status, latency, error, the answer's first ${EXCERPT_CHARS} characters) and
  \`credits\`.
- No \`webhook_url\`: the built-in capture (\`webhook_capture\`) answers instead, as it answers the sandbox's own deliveries:
  200 to everything, so it fails the ${REFUSAL_CASES} refusal cases, which is what a receiver without checks scores. Neither: 409
  \`INVALID_STATE\`.
- One run at a time per merchant (another while one is under way: 409 \`INVALID_STATE\`), at most ${DOCTOR_RUNS_PER_MINUTE}
  per rolling minute (429 \`QUOTA_EXCEEDED\` with \`retry_after\`). In shared mode a \`records_url\` naming a loopback
  or private address is refused (422), as webhook URLs are.`.trim(),
  request: {
    body: {
      required: false,
      content: {
        "application/json": {
          schema: DoctorRequest,
          examples: {
            capture: { summary: "The demo merchant (no webhook_url): its built-in capture answers", value: {} },
            notHttp: { summary: "A records_url that is not http(s)", value: { records_url: "ftp://shop.example.com/credited" } },
          },
        },
      },
    },
  },
  responses: {
    200: json(Success({ data: Scorecard }), "The scorecard", {
      capture: {
        summary: `The built-in capture takes everything: it fails the ${REFUSAL_CASES} refusal cases`,
        value: {
          success: true,
          data: {
            endpoint: CAPTURE_URL,
            records_url: null,
            timeout_seconds: DEFAULTS.webhook.timeout_seconds,
            started_at: "2026-03-02T09:00:00.000Z",
            duration_ms: 3,
            ok: false,
            passed: capturedPassed,
            failed: capturedCases.length - capturedPassed,
            total: capturedCases.length,
            records: null,
            cases: capturedCases,
          },
        },
      },
    }),
    ...controlErrors({
      409: {
        noWebhookUrl: errorExample(
          "The merchant has no webhook_url and no webhook_capture",
          "INVALID_STATE",
          "No webhook_url is set for this merchant: set one with PATCH /sandbox/v1/merchant, or run `merchant-sandbox doctor --endpoint URL --secret S` against any receiver.",
        ),
        runUnderWay: errorExample("A run of this merchant's is under way", "INVALID_STATE", "A webhook doctor run is already under way for this merchant: wait for its answer."),
      },
      422: { notHttp: validationError("records_url is not an http(s) URL", "records_url", "Must be an http(s) URL.") },
    }),
    // The control API has no 429 of its own (controlErrors drops it); this route's quota is the exception.
    429: errors({
      429: {
        quotaExceeded: errorExample(
          `More than ${DOCTOR_RUNS_PER_MINUTE} runs in a rolling minute`,
          "QUOTA_EXCEEDED",
          doctorQuotaMessage(41),
          { retry_after: 41 },
        ),
      },
    })[429]!,
  },
});
