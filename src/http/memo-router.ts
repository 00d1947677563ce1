/**
 * Hono's TrieRouter with its answers remembered for paths without parameters: the API's hot routes
 * (GET /api/v1/wallet/balance, POST /api/v1/payout/transfer) are matched once, not walked through the
 * trie on every request (bench/FAST-PATH.md). A match with parameters is never kept (its values are the
 * request's own), and at most MAX_REMEMBERED paths are, so requests for made-up paths cannot grow it.
 *
 * The trie is what hono's default SmartRouter ends up with for this app: it tries a RegExpRouter first,
 * which refuses these routes (test/platform/memo-router.test.ts) after building its matchers for
 * nothing at the first request, a cold start cost.
 */
import type { Result, Router } from "hono/router";
import { TrieRouter } from "hono/router/trie-router";

const MAX_REMEMBERED = 1_000;

export class MemoRouter<T> implements Router<T> {
  readonly name = "MemoRouter";
  private readonly inner: Router<T> = new TrieRouter();
  private readonly remembered = new Map<string, Result<T>>();

  add(method: string, path: string, handler: T): void {
    this.inner.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    const key = `${method} ${path}`;
    let result = this.remembered.get(key);
    if (result === undefined) {
      result = this.inner.match(method, path);
      if (this.remembered.size < MAX_REMEMBERED && withoutParams(result)) this.remembered.set(key, result);
    }
    return result;
  }
}

/** A match that names no path parameter: the same for every request to that path. */
function withoutParams<T>(result: Result<T>): boolean {
  if (result.length === 2) return result[0].every(([, indexes]) => Object.keys(indexes).length === 0);
  return result[0].every(([, params]) => Object.keys(params).length === 0);
}
