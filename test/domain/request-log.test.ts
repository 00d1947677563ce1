/**
 * The request log's pure parts (domain/request-log.ts, request-log-views.ts), called directly: the ring
 * and its two bounds (entries and bytes), reading by seq across the wrap, clearing, the log off, key
 * masking, body cutting, the objects read from an answer, and the list's filters and cursor.
 */
import { describe, expect, it } from "vitest";
import {
  ENTRY_OVERHEAD_BYTES,
  entryBytes,
  keepBody,
  LOGGED_BODY_BYTES,
  maskKey,
  REQUEST_LOG_BYTES,
  RequestLog,
  touchedObjects,
} from "../../src/domain/request-log.js";
import { listRequests, requestLogView } from "../../src/domain/request-log-views.js";
import { loggedRequest as entry } from "./context.js";

const seqs = (entries: Array<{ seq: number }>) => entries.map((e) => e.seq);
const paging = { page: 1, per_page: 100 };

describe("RequestLog, the ring", () => {
  it("gives increasing seqs and keeps the newest `capacity` entries, oldest first, round and round", () => {
    const log = new RequestLog(3);
    for (let i = 1; i <= 8; i++) expect(log.add(entry()).seq).toBe(i);
    expect(seqs(log.all())).toEqual([6, 7, 8]);
    expect(log.size).toBe(3);
    expect(log.next).toBe(9);
    expect(log.get(5)).toBeUndefined();
    expect(log.get(9)).toBeUndefined();
    expect(log.get(1.5)).toBeUndefined();
    for (const seq of [6, 7, 8]) expect(log.get(seq)?.seq).toBe(seq);
  });

  it("drops the oldest entries once their bytes pass REQUEST_LOG_BYTES, whatever their number, keeping at least the newest", () => {
    const log = new RequestLog(10_000);
    const body = "x".repeat(LOGGED_BODY_BYTES);
    const fit = Math.floor(REQUEST_LOG_BYTES / entryBytes(entry({ request_body: body, response_body: body })));
    for (let i = 0; i < fit + 10; i++) log.add(entry({ request_body: body, response_body: body }));
    expect(log.size).toBe(fit);
    expect(log.all()[0]!.seq).toBe(11);
    const huge = new RequestLog(5);
    huge.add(entry({ response_body: "y".repeat(REQUEST_LOG_BYTES + 1) }));
    expect(huge.size).toBe(1);
  });

  it("clear empties it, and seqs go on", () => {
    const log = new RequestLog(5);
    log.add(entry());
    log.add(entry());
    log.clear();
    expect(log.all()).toEqual([]);
    expect(log.get(2)).toBeUndefined();
    expect(log.add(entry()).seq).toBe(3);
    expect(seqs(log.all())).toEqual([3]);
    expect(log.get(3)?.seq).toBe(3);
  });

  it("with capacity 0 it is off and keeps nothing", () => {
    const log = new RequestLog(0);
    log.add(entry());
    expect(log.enabled).toBe(false);
    expect(log.all()).toEqual([]);
    expect(requestLogView(log)).toEqual({ enabled: false, capacity: 0, size: 0, next_seq: 2 });
  });

  it("counts an entry's bodies, headers, path and query, plus a fixed overhead and a few bytes per object and event", () => {
    const bare = entryBytes(entry({ path: "", query: "" }));
    expect(bare).toBe(ENTRY_OVERHEAD_BYTES);
    const full = entry({
      path: "/p",
      query: "a=1",
      request_headers: { "user-agent": "x".repeat(1_000) },
      request_body: "b".repeat(300),
      response_body: "r".repeat(200),
      objects: [{ kind: "payout", id: "p1" }],
      events: ["EVT_1"],
    });
    expect(entryBytes(full) - bare).toBe(2 + 3 + "user-agent".length + 1_000 + 300 + 200 + 2 * (entryBytes(entry({ path: "", query: "", events: ["e"] })) - bare));
  });

  it("tells its listener what each change added or freed, and `shed` drops its oldest for a budget without telling it", () => {
    const heard: number[] = [];
    const log = new RequestLog(3, (delta) => heard.push(delta));
    const size = entryBytes(entry());
    for (let i = 0; i < 4; i++) log.add(entry());
    expect(heard).toEqual([size, size, size, 0]); // the 4th replaced the 1st
    expect(log.bytes).toBe(3 * size);
    expect(log.shed(size + 1)).toBe(2 * size); // whole entries: two
    expect(seqs(log.all())).toEqual([4]);
    expect(log.get(3)).toBeUndefined();
    expect(log.shed(10 * size)).toBe(size);
    expect(log.size).toBe(0);
    expect(log.add(entry()).seq).toBe(5);
    expect(seqs(log.all())).toEqual([5]);
    log.clear();
    expect(heard.slice(4)).toEqual([size, -size]);
    expect(log.bytes).toBe(0);
  });
});

describe("RequestLog, adopting seqs given elsewhere (a shared store)", () => {
  const given = (seq: number, over: Parameters<typeof entry>[0] = {}) => ({ ...entry(over), seq });

  it("adopting entries in seq order leaves the log as adding them would, through both bounds", () => {
    const body = "x".repeat(LOGGED_BODY_BYTES);
    const sized = (i: number) => (i % 3 === 0 ? { request_body: body, response_body: body } : { path: `/p/${i}` });
    for (const capacity of [3, 10_000]) {
      const added = new RequestLog(capacity);
      const adopted = new RequestLog(capacity);
      const count = capacity === 3 ? 8 : Math.ceil((3 * REQUEST_LOG_BYTES) / entryBytes(entry(sized(0))));
      for (let i = 1; i <= count; i++) {
        added.add(entry(sized(i)));
        adopted.adopt(given(i, sized(i)));
      }
      expect(adopted.all()).toEqual(added.all());
      expect([adopted.next, adopted.size, adopted.bytes]).toEqual([added.next, added.size, added.bytes]);
    }
  });

  it("a seq past `next` skips the ones between: what it held goes, and reads by seq stay right", () => {
    const heard: number[] = [];
    const log = new RequestLog(5, (delta) => heard.push(delta));
    log.adopt(given(1));
    log.adopt(given(2));
    log.adopt(given(7));
    expect(seqs(log.all())).toEqual([7]);
    expect(log.next).toBe(8);
    expect(log.get(2)).toBeUndefined();
    expect(log.get(7)?.seq).toBe(7);
    expect(heard.reduce((a, b) => a + b, 0)).toBe(log.bytes);
    expect(log.add(entry()).seq).toBe(8);
  });

  it("refuses a seq already given, so seqs only ever grow", () => {
    const log = new RequestLog(5);
    log.adopt(given(3));
    expect(() => log.adopt(given(3))).toThrow(RangeError);
    expect(() => log.adopt(given(1))).toThrow(RangeError);
    expect(() => log.adopt(given(4.5))).toThrow(RangeError);
    expect(seqs(log.all())).toEqual([3]);
  });

  it("skipTo drops the entries below a seq (a clear made elsewhere) and moves `next` up to it, never down", () => {
    const heard: number[] = [];
    const log = new RequestLog(5, (delta) => heard.push(delta));
    for (let i = 0; i < 4; i++) log.add(entry());
    log.skipTo(3);
    expect(seqs(log.all())).toEqual([3, 4]);
    expect(log.next).toBe(5);
    log.skipTo(2);
    expect(seqs(log.all())).toEqual([3, 4]);
    log.skipTo(9);
    expect(log.size).toBe(0);
    expect(log.next).toBe(9);
    expect(heard.reduce((a, b) => a + b, 0)).toBe(0);
    log.adopt(given(9));
    expect(log.get(9)?.seq).toBe(9);
  });

  it("with capacity 0 it holds nothing but follows the seqs", () => {
    const log = new RequestLog(0);
    log.adopt(given(4));
    expect(log.size).toBe(0);
    expect(log.next).toBe(5);
  });
});

describe("what an entry keeps", () => {
  it("masks a key to its first 8 and last 4 characters, and a short one wholly", () => {
    expect(maskKey("pk_test_demo_4b1f0c9e7a2d46d1")).toBe("pk_test_…46d1");
    expect(maskKey("short")).toBe("*****");
  });

  it("cuts a body at LOGGED_BODY_BYTES and says so", () => {
    expect(keepBody(null)).toEqual({ body: null, truncated: false });
    expect(keepBody("{}")).toEqual({ body: "{}", truncated: false });
    const cut = keepBody("z".repeat(LOGGED_BODY_BYTES + 1));
    expect(cut.body).toHaveLength(LOGGED_BODY_BYTES);
    expect(cut.truncated).toBe(true);
  });

  it("reads the objects from the answer's top level, its data (one or a list), and a card's path id", () => {
    expect(touchedObjects("createPayout", {}, { success: true, data: { reference: "inv-1" } })).toEqual([{ kind: "payout", id: "inv-1" }]);
    expect(touchedObjects("listVirtualAccounts", {}, { data: [{ account_number: "1" }, { account_number: "2" }] })).toEqual([
      { kind: "virtual_account", id: "1" },
      { kind: "virtual_account", id: "2" },
    ]);
    expect(touchedObjects("fundVirtualCard", { id: "3" }, { card_id: 3, transaction_id: "TXN_1" })).toEqual([
      { kind: "card", id: "3" },
      { kind: "card_transaction", id: "TXN_1" },
    ]);
    expect(touchedObjects("getWalletBalance", {}, { data: { balance: 1 } })).toEqual([]);
    expect(touchedObjects(null, {}, { data: { reference: "x" } })).toEqual([]);
  });
});

describe("listRequests", () => {
  const log = new RequestLog(100);
  log.add(entry({ at: 1_000, method: "POST", path: "/api/v1/payout/transfer", operation: "createPayout", status: 201 }));
  log.add(entry({ at: 2_000, method: "POST", path: "/api/v1/payout/transfer", operation: "createPayout", status: 422, error_code: "VALIDATION_ERROR" }));
  log.add(entry({ at: 3_000, path: "/api/v1/payout/status", operation: "getPayoutStatus" }));
  log.add(entry({ at: 4_000, method: "POST", path: "/api/v1/payout/transfer", operation: "createPayout", status: null, delivery: "connection_reset" }));
  log.add(entry({ at: 5_000, status: 500, error_code: "INTERNAL_ERROR" }));

  it("is newest first; each filter narrows; a reset connection matches no status", () => {
    expect(seqs(listRequests(log, {}, paging).items)).toEqual([5, 4, 3, 2, 1]);
    expect(seqs(listRequests(log, { status: [200, 299] }, paging).items)).toEqual([3, 1]);
    expect(seqs(listRequests(log, { status: [100, 599] }, paging).items)).toEqual([5, 3, 2, 1]);
    expect(seqs(listRequests(log, { status: [422, 422] }, paging).items)).toEqual([2]);
    expect(seqs(listRequests(log, { path: "/api/v1/payout/" }, paging).items)).toEqual([4, 3, 2, 1]);
    expect(seqs(listRequests(log, { error_code: "INTERNAL_ERROR" }, paging).items)).toEqual([5]);
    expect(seqs(listRequests(log, { operation: "createPayout", since: 2_000, until: 4_000 }, paging).items)).toEqual([4, 2]);
  });

  it("with `after` is oldest first from the cursor, and pages count what passes the filters", () => {
    expect(seqs(listRequests(log, { after: 2 }, paging).items)).toEqual([3, 4, 5]);
    const page = listRequests(log, { after: 0, operation: "createPayout" }, { page: 2, per_page: 2 });
    expect(seqs(page.items)).toEqual([4]);
    expect(page.pagination).toEqual({ current_page: 2, per_page: 2, total_pages: 2, total: 3 });
    expect(listRequests(log, { after: 5 }, paging).items).toEqual([]);
  });
});
