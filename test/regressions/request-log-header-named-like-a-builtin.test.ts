/**
 * The request log built each request's headers in a plain object and asked it for the name first: a
 * header named `constructor` found Object.prototype's and was shown as "function Object() { [native
 * code] }, <value>", and one named `__proto__` set the object's prototype (a string: ignored) and was
 * not shown at all. Every header is now shown as sent, whatever its name.
 */
import { request as httpRequest } from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { harness, signUpAt, startFromArgs, stopServers } from "../helpers.js";

afterAll(stopServers);

/** Headers named like what every object has, in the case a client may send them, each with a value of its own. */
const SENT: ReadonlyArray<readonly [string, string]> = [["constructor", "c-1"], ["__proto__", "p-2"], ["toString", "t-3"], ["hasOwnProperty", "h-4"], ["valueOf", "v-5"]];

/** The headers as the log shows them: each name lower-cased, with its own value. */
function expectShownAsSent(shown: Record<string, string>) {
  for (const [name, value] of SENT) {
    const key = name.toLowerCase();
    expect(Object.hasOwn(shown, key), `${key} is shown`).toBe(true);
    expect(shown[key], key).toBe(value);
  }
}

/** GET /api/v1/wallet/balance over a socket with the headers above, set one by one on node's own request. */
function balanceOverSocket(url: string, keys: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}/api/v1/wallet/balance`, { method: "GET" }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode!));
    });
    req.on("error", reject);
    for (const [name, value] of Object.entries(keys)) req.setHeader(name, value);
    for (const [name, value] of SENT) req.setHeader(name, value);
    req.end();
  });
}

describe("a request whose headers are named like a property every object has", () => {
  it("is logged with each of them shown as any other header (in process)", async () => {
    const h = harness();
    const m = await h.merchant();
    // Appended one by one: a record of headers (fetch's, Request's) would read "__proto__" as the prototype.
    const headers = new Headers(m.keys);
    for (const [name, value] of SENT) headers.append(name, value);
    expect((await h.app.request("/api/v1/wallet/balance", { headers }, { incoming: { socket: { remoteAddress: "127.0.0.1" } } })).status).toBe(200);
    const res = await m.call("GET", "/sandbox/v1/requests/1");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectShownAsSent(res.body.data.request_headers);
  });

  it("is logged with each of them shown as any other header (over a socket, names as sent)", async () => {
    const { url } = await startFromArgs([]);
    const m = await signUpAt(url);
    expect(await balanceOverSocket(url, m.keys)).toBe(200);
    const page = await m.call("GET", "/sandbox/v1/requests?per_page=1");
    expect(page.status, page.text).toBe(200);
    const res = await m.call("GET", `/sandbox/v1/requests/${page.body.data[0].seq}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.path).toBe("/api/v1/wallet/balance");
    expectShownAsSent(res.body.data.request_headers);
  });
});
