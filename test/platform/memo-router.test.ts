import { describe, expect, it } from "vitest";
import { MemoRouter } from "../../src/http/memo-router.js";

const handlers = <T>(result: [[T, unknown][], unknown?]) => result[0].map(([h]) => h);

describe("MemoRouter (hono's router, static matches remembered)", () => {
  it("answers a path with parameters with the request's own values, every time", () => {
    const r = new MemoRouter<string>();
    r.add("GET", "/cards/:id", "card");
    const params = (path: string) => {
      const [matches, stash] = r.match("GET", path) as [[string, Record<string, string | number>][], string[]?];
      const [, p] = matches[0]!;
      return stash ? stash[p.id as number] : p.id;
    };
    expect(params("/cards/A")).toBe("A");
    expect(params("/cards/B")).toBe("B");
    expect(params("/cards/A")).toBe("A");
    // Matched afresh each time: only paths without parameters are remembered.
    expect(r.match("GET", "/cards/A")).not.toBe(r.match("GET", "/cards/A"));
  });

  it("gives the same handlers for a static path each time, per method", () => {
    const r = new MemoRouter<string>();
    r.add("ALL", "/api/*", "mw");
    r.add("GET", "/api/balance", "balance");
    const first = r.match("GET", "/api/balance");
    expect(handlers(first as never)).toEqual(["mw", "balance"]);
    // Remembered: the same match, not one computed again.
    expect(r.match("GET", "/api/balance")).toBe(first);
    expect(handlers(r.match("POST", "/api/balance") as never)).toEqual(["mw"]);
  });
});
