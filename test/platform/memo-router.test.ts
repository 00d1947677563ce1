import { RegExpRouter } from "hono/router/reg-exp-router";
import { UnsupportedPathError } from "hono/router";
import { describe, expect, it } from "vitest";
import { MemoRouter } from "../../src/http/memo-router.js";
import { harness } from "../helpers.js";

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

  it("matches with the router hono's SmartRouter would pick for this app's routes: a RegExpRouter refuses them", async () => {
    const h = harness();
    const regexp = new RegExpRouter<number>();
    expect(() => {
      for (const r of h.app.routes) regexp.add(r.method, r.path, 0);
      regexp.match("GET", "/");
    }).toThrow(UnsupportedPathError);
  });
});
