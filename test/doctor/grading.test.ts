/**
 * How the webhook doctor grades what comes back, with scripted answers and a scripted records view
 * (no sockets): the status rules, the credit rules, a records view that cannot be read, and reading
 * it again while a credit the receiver owes is missing. Seeded ids give the run's transactions.
 */
import { describe, expect, it } from "vitest";
import { CASES, planBattery } from "../../src/doctor/battery.js";
import { runDoctor, type DoctorOptions } from "../../src/doctor/run.js";
import { createIds } from "../../src/engine/ids.js";
import type { GetResult, PostResult, Transport } from "../../src/webhooks/transport.js";
import { START } from "../helpers.js";

const SECRET = "whsec_grading";
const SEED = "grading";
/** The run's transactions, per case: the battery the doctor will build with the same seed and clock. */
const TXNS = Object.fromEntries(planBattery({ secret: SECRET, signature: {}, now: START, ids: createIds(SEED) }).map((c) => [c.id, c.transaction_ids]));
const ALL_IDS = [...new Set(Object.values(TXNS).flat())];

/** What a correct receiver answers to the ten deliveries, in the battery's order. */
const CORRECT = [200, 200, 401, 401, 401, 400, 200, 200, 200, 200];
/** What a correct receiver's records view lists: one credit per payment it acknowledged. */
const CORRECT_CREDITS = [TXNS.valid_event!, TXNS.out_of_order!, TXNS.large_payload!].flat();

const answer = (status_code: number): PostResult => ({ status_code, error: null, latency_ms: 3, response_excerpt: "ok" });
const recordsAnswer = (body: string, status_code = 200, truncated = false): GetResult => ({ status_code, error: null, latency_ms: 2, response_excerpt: body.slice(0, 500), body, truncated });

function recordsTransport(answers: Array<GetResult | ((url: string) => GetResult)>) {
  const urls: string[] = [];
  const transport: Transport = {
    post: () => Promise.reject(new Error("the doctor delivers through `deliver`")),
    get: async (url) => {
      urls.push(url);
      const next = answers.length > 1 ? answers.shift()! : answers[0]!;
      return typeof next === "function" ? next(url) : next;
    },
    abortAll: () => undefined,
    inflight: () => 0,
  };
  return { transport, urls };
}

function run(statuses: Array<number | PostResult>, extra: Partial<DoctorOptions> = {}) {
  let n = 0;
  return runDoctor({
    endpoint: "https://shop.example.com/webhooks",
    deliver: async () => {
      const s = statuses[n++]!;
      return typeof s === "number" ? answer(s) : s;
    },
    secret: SECRET,
    timeoutSeconds: 10,
    transport: recordsTransport([recordsAnswer("{}", 500)]).transport,
    ids: createIds(SEED),
    now: () => START,
    ...extra,
  });
}

const problems = (card: Awaited<ReturnType<typeof run>>) => Object.fromEntries(card.cases.filter((c) => c.result === "fail").map((c) => [c.id, c.problem]));

describe("grading the answers", () => {
  it("a correct receiver's answers pass every case; without a records view nothing is said about credits", async () => {
    const card = await run(CORRECT);
    expect(problems(card)).toEqual({});
    expect(card).toMatchObject({ ok: true, passed: 9, failed: 0, total: 9, records: null, records_url: null, endpoint: "https://shop.example.com/webhooks", timeout_seconds: 10 });
    expect(card.started_at).toBe(new Date(START).toISOString());
    for (const c of card.cases) expect(c.credits.found).toBeNull();
    expect(card.cases.find((c) => c.id === "out_of_order")!.observed).toHaveLength(2);
  });

  it("a receiver that takes everything fails the four refusal cases, each saying so", async () => {
    const card = await run(Array(10).fill(200));
    const refusal = "answered 200; expected a refusal: any answer but a 2xx";
    expect(problems(card)).toEqual({ missing_signature: refusal, bad_signature: refusal, tampered_body: refusal, stale_sent_at: refusal });
    expect(card).toMatchObject({ ok: false, passed: 5, failed: 4, total: 9 });
  });

  it("a valid delivery answered anything but a 2xx fails, as does a redirect (never followed) and a refusal with no answer at all", async () => {
    const refused: PostResult = { status_code: null, error: "ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9", latency_ms: 1, response_excerpt: null };
    const card = await run([500, 301, 401, refused, 401, 400, 200, 200, 409, 200]);
    expect(problems(card)).toEqual({
      valid_event: "answered 500; expected a 2xx within 10 s (anything else is retried, then failed)",
      duplicate_delivery: "answered 301; expected a 2xx within 10 s (anything else is retried, then failed)",
      bad_signature: "no answer (ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9); expected a refusal: any answer but a 2xx",
      out_of_order: "delivery 2: answered 409; expected a 2xx within 10 s (anything else is retried, then failed)",
    });
  });

  it("a timeout is no answer within the timeout", async () => {
    const timedOut: PostResult = { status_code: null, error: "Timed out after 10 s", latency_ms: 10_000, response_excerpt: null };
    const card = await run([timedOut, ...CORRECT.slice(1)]);
    expect(problems(card)).toEqual({ valid_event: "no answer within 10 s; expected a 2xx within 10 s (anything else is retried, then failed)" });
  });
});

describe("grading the credits, from the merchant's records view", () => {
  it("asks GET {records_url}?transaction_ids= with every transaction of the run, keeping the view's own query", async () => {
    const { transport, urls } = recordsTransport([recordsAnswer(JSON.stringify({ credited: CORRECT_CREDITS }))]);
    const card = await run(CORRECT, { transport, recordsUrl: "https://shop.example.com/credited?token=abc" });
    expect(urls).toHaveLength(1);
    const asked = new URL(urls[0]!);
    expect(asked.origin + asked.pathname).toBe("https://shop.example.com/credited");
    expect(asked.searchParams.get("token")).toBe("abc");
    expect(asked.searchParams.get("transaction_ids")!.split(",")).toEqual(ALL_IDS);
    expect(problems(card)).toEqual({});
    expect(card).toMatchObject({ ok: true, records: { read: true, error: null }, records_url: "https://shop.example.com/credited?token=abc" });
    expect(card.cases.find((c) => c.id === "duplicate_delivery")!.credits).toEqual({ transaction_ids: TXNS.valid_event, expected: "once", found: [1] });
  });

  it("a duplicate credited twice, a refused delivery credited, an unknown type credited, a payment never credited: each fails its case", async () => {
    const credited = [TXNS.valid_event!, TXNS.valid_event!, TXNS.tampered_body!, TXNS.unknown_event_type!, [TXNS.out_of_order![0]!], TXNS.large_payload!].flat();
    const { transport } = recordsTransport([recordsAnswer(JSON.stringify({ credited }))]);
    const card = await run(CORRECT, { transport, recordsUrl: "https://shop.example.com/credited", sleep: async () => undefined });
    expect(problems(card)).toEqual({
      duplicate_delivery: `${TXNS.valid_event![0]} credited 2 times; expected once`,
      tampered_body: `${TXNS.tampered_body![0]} credited once; expected no credit`,
      unknown_event_type: `${TXNS.unknown_event_type![0]} credited once; expected no credit`,
      out_of_order: `${TXNS.out_of_order![1]} credited nothing; expected once`,
    });
    // valid_event asks only that its payment was credited: the duplicate's own case tells the second credit.
    expect(card.cases.find((c) => c.id === "valid_event")!.result).toBe("pass");
  });

  it("a view that cannot be read fails the run, says why, and checks no credit", async () => {
    const bodies: Array<[GetResult, string]> = [
      [recordsAnswer("oops", 404), "answered 404, not 200"],
      [recordsAnswer("<html>"), 'the answer is not JSON: "<html>"'],
      [recordsAnswer(JSON.stringify({ credited: "TXN_1" })), 'the answer is not { "credited": ["TXN_...", ...] } (an array of transaction ids)'],
      [recordsAnswer('{"credited": [', 200, true), "the answer is longer than 1 MB: filter it by transaction_ids"],
      [{ ...recordsAnswer(""), status_code: null, body: null, error: "ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9" }, "ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9"],
    ];
    for (const [reply, error] of bodies) {
      const card = await run(CORRECT, { transport: recordsTransport([reply]).transport, recordsUrl: "https://shop.example.com/credited" });
      expect(card, error).toMatchObject({ ok: false, passed: 9, failed: 0, records: { read: false, error } });
      for (const c of card.cases) expect(c.credits.found).toBeNull();
    }
  });

  it("reads the view again while a payment the receiver acknowledged is not credited yet (it may credit just after answering), up to the timeout", async () => {
    const clock = { now: START };
    const sleeps: number[] = [];
    const sleep = async (ms: number) => {
      sleeps.push(ms);
      clock.now += ms;
    };
    const late = recordsTransport([recordsAnswer(JSON.stringify({ credited: [] })), recordsAnswer(JSON.stringify({ credited: CORRECT_CREDITS }))]);
    const settled = await run(CORRECT, { transport: late.transport, recordsUrl: "https://shop.example.com/credited", now: () => clock.now, sleep });
    expect(late.urls).toHaveLength(2);
    expect(sleeps).toEqual([200]);
    expect(problems(settled)).toEqual({});

    // A receiver that never credits: read until the timeout, then graded on the last read.
    sleeps.length = 0;
    const never = recordsTransport([recordsAnswer(JSON.stringify({ credited: [] }))]);
    const card = await run(CORRECT, { transport: never.transport, recordsUrl: "https://shop.example.com/credited", now: () => clock.now, sleep, timeoutSeconds: 1 });
    expect(sleeps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(1_000);
    expect(never.urls.length).toBeGreaterThan(1);
    expect(Object.keys(problems(card))).toEqual(["valid_event", "duplicate_delivery", "out_of_order", "large_payload"]);
  });

  it("does not wait for credits of payments the receiver refused", async () => {
    const { transport, urls } = recordsTransport([recordsAnswer(JSON.stringify({ credited: [] }))]);
    const card = await run(Array(10).fill(401), { transport, recordsUrl: "https://shop.example.com/credited", sleep: () => Promise.reject(new Error("no wait expected")) });
    expect(urls).toHaveLength(1);
    expect(card.failed).toBe(CASES.filter((c) => c.expect === "accepted").length);
  });
});
