/**
 * The request log through the control API: GET /sandbox/v1/requests (newest first, paged,
 * filtered, tailed with `after`), GET /sandbox/v1/requests/{seq} (headers, bodies, links) and DELETE
 * /sandbox/v1/requests. What is recorded for each /api/v1 request, what never is (the secret, requests
 * refused for their credentials, control routes), the bounds, and the log off with --request-log 0.
 */
import { describe, expect, it } from "vitest";
import { ConnectionReset } from "../../src/http/errors.js";
import { LOGGED_BODY_BYTES } from "../../src/domain/request-log.js";
import { at, client, expectInvalid, payoutBody } from "../client.js";
import { expectError, harness, START } from "../helpers.js";

const HOUR = 3_600_000;

/** A merchant whose log holds, oldest first: a payout (201), a refused payout (422), a status read, an airtime purchase. */
async function withTraffic(h = harness()) {
  const c = client(await h.merchant({ wallet_balance: 1_000_000 }));
  expect((await c.payout({ reference: "inv-1" })).status).toBe(201);
  expectInvalid(await c.payout({ reference: "inv-2", amount: 10.005 }), ["amount"]);
  await c.advance("1h");
  await c.payoutStatus("inv-1");
  expect((await c.airtime()).status).toBe(200);
  return c;
}

const seqs = (page: { data: Array<{ seq: number }> }) => page.data.map((r) => r.seq);

describe("GET /sandbox/v1/requests/{seq}: one request whole", () => {
  it("records every field: method, path, query, operation, status, bodies as sent, latency, client IP, both clocks, objects and links", async () => {
    const h = harness();
    const c = client(await h.merchant({ wallet_balance: 1_000_000 }));
    await c.advance("2h"); // the merchant's clock leaves the wall clock behind
    h.wall.now = START + 5 * 60_000;
    const sent = payoutBody({ reference: "ord-77", narration: "Order 77" });
    const res = await c.call("POST", "/api/v1/payout/transfer", { body: sent, ip: "203.0.113.9", headers: { "user-agent": "shop-backend/2.1" } });
    expect(res.status).toBe(201);

    const r = await c.loggedRequest(1);
    expect(r).toMatchObject({
      seq: 1,
      method: "POST",
      path: "/api/v1/payout/transfer",
      query: "",
      operation: "createPayout",
      status: 201,
      error_code: null,
      client_ip: "203.0.113.9",
      at: at(2 * 3600),
      wall_at: new Date(START + 5 * 60_000).toISOString(),
      delivery: "answered",
      request_body: JSON.stringify(sent),
      request_body_truncated: false,
      response_body: JSON.stringify(res.body),
      response_body_truncated: false,
      objects: [{ kind: "payout", id: "ord-77" }],
      events: [],
      links: { objects: [{ kind: "payout", id: "ord-77", url: "/api/v1/payout/status?reference=ord-77" }], events: [] },
    });
    expect(r.request_id).toBe(res.headers.get("x-request-id"));
    expect(r.request_headers["user-agent"]).toBe("shop-backend/2.1");
    expect(r.request_headers["content-type"]).toBe("application/json");
    expect(r.latency_ms).toBeGreaterThanOrEqual(0);

    // The link reads the object it names.
    const linked = await c.call("GET", r.links.objects[0]!.url!);
    expect(linked.body.data.reference).toBe("ord-77");

    // A GET keeps its query and has no body.
    await c.payoutStatus("ord-77");
    expect(await c.loggedRequest(2)).toMatchObject({ method: "GET", path: "/api/v1/payout/status", query: "reference=ord-77", operation: "getPayoutStatus", request_body: null });
  });

  it("never keeps the secret (nor Authorization or Cookie) and masks the key, in the list and in the request", async () => {
    const c = client(await harness().merchant());
    await c.call("GET", "/api/v1/wallet/balance", { headers: { authorization: "Bearer abc.def", cookie: "session=s3cr3t" } });
    const r = await c.loggedRequest(1);
    expect(r.request_headers["x-api-secret"]).toBe("[not logged]");
    expect(r.request_headers.authorization).toBe("[not logged]");
    expect(r.request_headers.cookie).toBe("[not logged]");
    const key = c.merchant.apiKey;
    expect(r.request_headers["x-api-key"]).toBe(`${key.slice(0, 8)}…${key.slice(-4)}`);
    for (const text of [JSON.stringify(r), JSON.stringify(await c.requests())]) {
      expect(text).not.toContain(c.merchant.apiSecret);
      expect(text).not.toContain(key);
      expect(text).not.toContain("s3cr3t");
    }
  });

  it("records a refusal with its status and error_code, and nothing touched", async () => {
    const c = client(await harness().merchant({ wallet_balance: 100 }));
    expectError(await c.payout({ amount: 5_000 }), 422, "INSUFFICIENT_BALANCE");
    expect(await c.loggedRequest(1)).toMatchObject({ status: 422, error_code: "INSUFFICIENT_BALANCE", objects: [], links: { objects: [] } });
  });

  it("links each webhook event a request caused to its deliveries (a payout that settles on its 3rd status read)", async () => {
    const c = client(await harness().merchant({ wallet_balance: 1_000_000 }));
    await c.processingPayout({ reference: "q-1", account_number: "0123450004" });
    await c.payoutStatus("q-1");
    await c.payoutStatus("q-1");
    expect((await c.payoutStatus("q-1")).status).toBe("completed");
    const [event] = await c.events("payout.completed");
    expect((await c.loggedRequest(2)).events).toEqual([]);
    const settling = await c.loggedRequest(4);
    expect(settling.events).toEqual([event!.id]);
    expect(settling.links.events).toEqual([
      { id: event!.id, type: "payout.completed", status: event!.status, deliveries_url: `/sandbox/v1/webhook-deliveries?event_id=${event!.id}` },
    ]);
    expect((await c.call("GET", settling.links.events[0]!.deliveries_url)).status).toBe(200);
  });

  it("links every kind of object to where it can be read now, and to null once a reset has removed it", async () => {
    const c = client(await harness().merchant({ wallet_balance: 1_000_000 }));
    const va = await c.virtualAccount();
    const link = await c.checkout();
    const vtu = (await c.airtime()).body;
    const card = await c.fundedCard(10);
    const page = await c.requests("per_page=100");
    const urls = new Map<string, string | null>();
    for (const { seq } of page.data) for (const o of (await c.loggedRequest(seq)).links.objects) urls.set(`${o.kind}:${o.id}`, o.url);
    expect(Object.fromEntries(urls)).toMatchObject({
      [`virtual_account:${va.account_number}`]: `/api/v1/virtual-account/${va.account_number}`,
      [`checkout:${link.reference}`]: `/api/v1/checkout/status?reference=${link.reference}`,
      [`vtu:${vtu.transaction_id}`]: `/api/v1/vtu/transaction/status?reference=${vtu.reference}`,
      [`cardholder:${card.cardholder_id}`]: `/api/v1/virtual-cards/cardholders/${card.cardholder_id}`,
      [`card:${card.card_id}`]: `/api/v1/virtual-cards/${card.card_id}`,
    });
    const funding = [...urls].find(([k]) => k.startsWith("card_transaction:"));
    expect(funding?.[1]).toBe(`/api/v1/virtual-cards/${card.card_id}/transactions`);
    for (const url of urls.values()) expect((await c.call("GET", url!)).status, url!).toBe(200);

    expect((await c.call("POST", "/sandbox/v1/reset")).status).toBe(200);
    const after = await c.loggedRequest(1);
    expect(after.links.objects).toEqual([{ kind: "virtual_account", id: va.account_number, url: null }]);
  });

  it("a seq the log does not hold gets 404; a seq that is not a whole number from 1 gets 422", async () => {
    const c = client(await harness().merchant());
    expectError(await c.call("GET", "/sandbox/v1/requests/1"), 404, "NOT_FOUND");
    for (const bad of ["0", "-1", "1.5", "abc"]) expectInvalid(await c.call("GET", `/sandbox/v1/requests/${bad}`), ["seq"]);
  });
});

describe("what is logged, and what is not", () => {
  it("requests refused for their credentials prove no merchant and are in no log; control routes are not logged", async () => {
    const h = harness();
    const c = client(await h.merchant());
    await h.call("GET", "/api/v1/wallet/balance", { headers: { "x-api-key": c.merchant.apiKey, "x-api-secret": "sk_wrong" } });
    await h.call("GET", "/api/v1/wallet/balance", { headers: { "x-api-key": c.merchant.apiKey } });
    await c.clock();
    await c.call("GET", "/sandbox/v1/payouts");
    expect((await c.requests()).data).toEqual([]);
    await c.balance();
    expect(seqs(await c.requests())).toEqual([1]);
  });

  it("a request refused before its credentials were checked (not JSON, too large) is logged for the merchant whose keys it carries", async () => {
    const h = harness({ bodyLimitBytes: 1024 });
    const c = client(await h.merchant());
    expectError(await c.call("POST", "/api/v1/vtu/airtime", { raw: "network=mtn&amount=500", headers: { "content-type": "application/x-www-form-urlencoded" } }), 415, "UNSUPPORTED_MEDIA_TYPE");
    expectError(await c.call("POST", "/api/v1/vtu/airtime", { body: { network: "mtn", note: "x".repeat(2048) } }), 413, "PAYLOAD_TOO_LARGE");
    // With wrong keys, or none, the same refusals are in no log.
    await h.call("POST", "/api/v1/vtu/airtime", { raw: "a=1", headers: { "content-type": "text/plain", "x-api-key": c.merchant.apiKey, "x-api-secret": "sk_wrong" } });
    await h.call("POST", "/api/v1/vtu/airtime", { raw: "a=1", headers: { "content-type": "text/plain" } });
    const page = await c.requests();
    expect(page.data.map((r) => [r.seq, r.status, r.error_code, r.client_ip])).toEqual([
      [2, 413, "PAYLOAD_TOO_LARGE", "127.0.0.1"],
      [1, 415, "UNSUPPORTED_MEDIA_TYPE", "127.0.0.1"],
    ]);
    expect((await c.loggedRequest(1)).request_body).toBe("network=mtn&amount=500");
    expect((await c.loggedRequest(2)).request_body).toBeNull(); // a body refused for its size is never read
  });

  it("an answer lost on purpose (connection reset) is logged with status null, and the payout it made", async () => {
    const c = client(await harness().merchant({ wallet_balance: 1_000_000 }));
    await c.rule({ target: "response", match: { operation: "createPayout" }, outcome: "connection_reset", times: 1 });
    await expect(c.payout({ reference: "lost-1" })).rejects.toBeInstanceOf(ConnectionReset);
    expect(await c.loggedRequest(1)).toMatchObject({
      status: null,
      error_code: null,
      delivery: "connection_reset",
      response_body: null,
      objects: [{ kind: "payout", id: "lost-1" }],
    });
    expect((await c.requests()).data[0]).toMatchObject({ seq: 1, status: null, delivery: "connection_reset" });
  });

  it("an answer replaced by a 504 after the payout was made keeps the 504 and names the payout", async () => {
    const c = client(await harness().merchant({ wallet_balance: 1_000_000 }));
    await c.rule({ target: "response", match: { operation: "createPayout" }, outcome: "gateway_timeout", times: 1 });
    expectError(await c.payout({ reference: "late-1" }), 504, "GATEWAY_TIMEOUT");
    const r = await c.loggedRequest(1);
    expect(r).toMatchObject({ status: 504, error_code: "GATEWAY_TIMEOUT", objects: [{ kind: "payout", id: "late-1" }] });
    expect(JSON.parse(r.response_body!).error_code).toBe("GATEWAY_TIMEOUT");
  });

  it("cuts bodies past 8 KB and says so", async () => {
    const c = client(await harness().merchant({ wallet_balance: 1_000_000 }));
    const note = "x".repeat(LOGGED_BODY_BYTES + 100); // unknown fields are ignored by the API, and logged
    expect((await c.call("POST", "/api/v1/vtu/airtime", { body: { network: "mtn", phone: "08031234567", amount: 500, note } })).status).toBe(200);
    for (let i = 0; i < 30; i++) await c.virtualAccount();
    const list = await c.call("GET", "/api/v1/virtual-accounts");
    expect(JSON.stringify(list.body).length).toBeGreaterThan(LOGGED_BODY_BYTES);

    const big = await c.loggedRequest(1);
    expect(big.request_body).toHaveLength(LOGGED_BODY_BYTES);
    expect(big.request_body_truncated).toBe(true);
    expect(big.response_body_truncated).toBe(false);
    const read = await c.loggedRequest(32);
    expect(read.operation).toBe("listVirtualAccounts");
    expect(read.response_body).toBe(JSON.stringify(list.body).slice(0, LOGGED_BODY_BYTES));
    expect(read.response_body_truncated).toBe(true);
  });

  it("is traffic, not state: not in the snapshot, kept through reset and snapshot PUT", async () => {
    const c = await withTraffic();
    const snapshot = await c.snapshot();
    expect(JSON.stringify(snapshot)).not.toContain("/api/v1/payout/transfer");
    expect((await c.call("POST", "/sandbox/v1/reset")).status).toBe(200);
    expect((await c.call("PUT", "/sandbox/v1/snapshot", { body: snapshot })).status).toBe(200);
    expect(seqs(await c.requests())).toEqual([4, 3, 2, 1]);
  });

  it("belongs to one merchant", async () => {
    const h = harness();
    const a = await withTraffic(h);
    const b = client(await h.merchant());
    expect((await b.requests()).data).toEqual([]);
    expectError(await b.call("GET", "/sandbox/v1/requests/1"), 404, "NOT_FOUND");
    expect((await a.requests()).pagination.total).toBe(4);
  });
});

describe("GET /sandbox/v1/requests: the list", () => {
  it("lists newest first without headers or bodies, with pagination and the log's state", async () => {
    const c = await withTraffic();
    const page = await c.requests();
    expect(seqs(page)).toEqual([4, 3, 2, 1]);
    expect(page.data.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      "POST /api/v1/vtu/airtime 200",
      "GET /api/v1/payout/status 200",
      "POST /api/v1/payout/transfer 422",
      "POST /api/v1/payout/transfer 201",
    ]);
    expect(page.pagination).toEqual({ current_page: 1, per_page: 20, total_pages: 1, total: 4 });
    expect(page.log).toEqual({ enabled: true, capacity: 500, size: 4, next_seq: 5 });
    for (const item of page.data) {
      expect(Object.keys(item)).not.toContain("request_body");
      expect(Object.keys(item)).not.toContain("request_headers");
      const { request_headers, request_body, request_body_truncated, response_body, response_body_truncated, links, ...rest } = await c.loggedRequest(item.seq);
      expect(rest).toEqual(item);
    }
  });

  it("pages: per_page and page; a page past the last is empty with the totals", async () => {
    const c = await withTraffic();
    expect(await c.requests("per_page=3&page=2")).toMatchObject({ data: [{ seq: 1 }], pagination: { current_page: 2, per_page: 3, total_pages: 2, total: 4 } });
    expect(await c.requests("per_page=3&page=3")).toMatchObject({ data: [], pagination: { current_page: 3, total_pages: 2, total: 4 } });
  });

  it("filters by status class or code, path prefix, error_code, operation, an inclusive time range, and all together", async () => {
    const c = await withTraffic();
    expect(seqs(await c.requests("status=2xx"))).toEqual([4, 3, 1]);
    expect(seqs(await c.requests("status=2XX"))).toEqual([4, 3, 1]);
    expect(seqs(await c.requests("status=4xx"))).toEqual([2]);
    expect(seqs(await c.requests("status=201"))).toEqual([1]);
    expect(seqs(await c.requests("status=5xx"))).toEqual([]);
    expect(seqs(await c.requests("path=/api/v1/payout"))).toEqual([3, 2, 1]);
    expect(seqs(await c.requests("path=/api/v1/payout/transfer"))).toEqual([2, 1]);
    expect(seqs(await c.requests("error_code=VALIDATION_ERROR"))).toEqual([2]);
    expect(seqs(await c.requests("operation=getPayoutStatus"))).toEqual([3]);
    const q = (p: Record<string, string>) => new URLSearchParams(p).toString();
    expect(seqs(await c.requests(q({ since: at(3600) })))).toEqual([4, 3]);
    expect(seqs(await c.requests(q({ until: at(0) })))).toEqual([2, 1]);
    expect(seqs(await c.requests(q({ since: at(0), until: at(3600), status: "2xx", path: "/api/v1/payout" })))).toEqual([3, 1]);
    expect(seqs(await c.requests(q({ since: new Date(START + HOUR).toISOString().replace("Z", "+01:00") })))).toEqual([4, 3, 2, 1]);
  });

  it("tails with after: only newer requests, oldest first, paged; past the newest an empty page", async () => {
    const c = await withTraffic();
    expect(seqs(await c.requests("after=1"))).toEqual([2, 3, 4]);
    expect(seqs(await c.requests("after=0&per_page=2"))).toEqual([1, 2]);
    expect(await c.requests("after=0&per_page=2&page=2")).toMatchObject({ data: [{ seq: 3 }, { seq: 4 }], pagination: { total: 4 } });
    expect(seqs(await c.requests("after=2&status=2xx"))).toEqual([3, 4]);
    expect(seqs(await c.requests("after=4"))).toEqual([]);
    await c.balance();
    expect(seqs(await c.requests("after=4"))).toEqual([5]);
  });

  it("refuses bad filters with 422 naming the field", async () => {
    const c = client(await harness().merchant());
    const bad: Array<[string, string]> = [
      ["status=abc", "status"],
      ["status=2x", "status"],
      ["status=600", "status"],
      ["path=api/v1", "path"],
      [`path=/${"a".repeat(500)}`, "path"],
      ["error_code=validation_error", "error_code"],
      ["operation=Create-Payout", "operation"],
      ["since=yesterday", "since"],
      ["until=2026-03-02T09:00:00", "until"],
      ["after=-1", "after"],
      ["after=1.5", "after"],
      ["per_page=101", "per_page"],
      ["page=0", "page"],
    ];
    for (const [query, field] of bad) expectInvalid(await c.call("GET", `/sandbox/v1/requests?${query}`), [field]);
    const backwards = new URLSearchParams({ since: at(60), until: at(0) }).toString();
    expect(expectInvalid(await c.call("GET", `/sandbox/v1/requests?${backwards}`), ["until"]).errors!.until).toEqual(["Must not be before since."]);
  });
});

describe("DELETE /sandbox/v1/requests", () => {
  it("empties the log; seqs go on from where they were, so a cursor stays good", async () => {
    const c = await withTraffic();
    const res = await c.call("DELETE", "/sandbox/v1/requests");
    expect(res.body).toEqual({ success: true, message: "4 request(s) cleared" });
    expect(await c.requests()).toMatchObject({ data: [], log: { size: 0, next_seq: 5 } });
    expectError(await c.call("GET", "/sandbox/v1/requests/4"), 404, "NOT_FOUND");
    await c.balance();
    expect(seqs(await c.requests("after=4"))).toEqual([5]);
    expect((await c.call("DELETE", "/sandbox/v1/requests")).body.message).toBe("1 request(s) cleared");
    expect((await c.call("DELETE", "/sandbox/v1/requests")).body.message).toBe("0 request(s) cleared");
    // Nothing else was touched.
    expect(await c.payoutStatus("inv-1")).toMatchObject({ reference: "inv-1" });
  });
});

describe("bounds", () => {
  it("keeps the newest --request-log requests: the oldest are dropped", async () => {
    const c = client(await harness({ requestLogSize: 3 }).merchant());
    for (let i = 0; i < 5; i++) await c.balance();
    const page = await c.requests();
    expect(seqs(page)).toEqual([5, 4, 3]);
    expect(page.log).toEqual({ enabled: true, capacity: 3, size: 3, next_seq: 6 });
    expectError(await c.call("GET", "/sandbox/v1/requests/2"), 404, "NOT_FOUND");
    expect((await c.loggedRequest(3)).seq).toBe(3);
    expect(seqs(await c.requests("after=0"))).toEqual([3, 4, 5]);
  });

  it("--request-log 0 turns the log off: nothing is kept, and the list says so", async () => {
    const c = client(await harness({ requestLogSize: 0 }).merchant({ wallet_balance: 1_000_000 }));
    await c.balance();
    expect((await c.payout()).status).toBe(201);
    expect(await c.requests()).toEqual({
      success: true,
      data: [],
      pagination: { current_page: 1, per_page: 20, total_pages: 0, total: 0 },
      log: { enabled: false, capacity: 0, size: 0, next_seq: 1 },
    });
    const body = expectError(await c.call("GET", "/sandbox/v1/requests/1"), 404, "NOT_FOUND");
    expect(body.message).toContain("--request-log 0");
  });
});

describe("the dashboard's Logs view (its fragments)", () => {
  it("lists the requests and opens one with its headers, bodies and links; the secret never appears; keys are needed", async () => {
    const h = harness();
    const c = client(await h.merchant({ wallet_balance: 1_000_000 }));
    expect((await c.payout({ reference: "dash-1" })).status).toBe(201);
    expectInvalid(await c.payout({ amount: 1.005 }), ["amount"]);
    const list = await c.call("GET", "/dashboard/fragments/logs");
    expect(list.status).toBe(200);
    expect(list.body).toContain('data-request-row="2"');
    expect(list.body).toContain("VALIDATION_ERROR");
    expect(list.body).toContain('data-request="1"');

    const one = await c.call("GET", "/dashboard/fragments/logs/1");
    expect(one.status).toBe(200);
    expect(one.body).toContain("createPayout");
    expect(one.body).toContain('data-header="x-api-secret">[not logged]');
    expect(one.body).toContain("GET /api/v1/payout/status?reference=dash-1");
    expect(one.body).toContain("&quot;status&quot;: &quot;processing&quot;"); // the payout as it is now
    expect(one.body).toContain("&quot;reference&quot;: &quot;dash-1&quot;"); // the bodies, indented, escaped
    for (const fragment of [list.body, one.body]) expect(fragment).not.toContain(c.merchant.apiSecret);

    expect((await c.call("GET", "/dashboard/fragments/logs/99")).body).toContain("no longer in the log");
    expect((await c.call("GET", "/dashboard/fragments/logs/abc")).status).toBe(404);
    expect((await h.call("GET", "/dashboard/fragments/logs/1")).status).toBe(401);
  });

  it("says when the log is off", async () => {
    const c = client(await harness({ requestLogSize: 0 }).merchant());
    expect((await c.call("GET", "/dashboard/fragments/logs")).body).toContain("--request-log 0");
  });
});
