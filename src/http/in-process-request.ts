/**
 * A request the sandbox makes of its own app (the demo merchant's sample activity): what `app.fetch`
 * reads of a Request (method, URL, headers, the body as text), without building one. `app.request`
 * builds an undici Request with a stream for its body, which the body limit then reads and wraps in a
 * second Request, and undici's first Request and Headers set up its machinery: most of what the
 * activity cost at start (bench/FAST-PATH.md). The app answers it as it answers `app.request`;
 * test/platform/demo-activity-in-process.test.ts holds the two equal.
 */

/** A path a URL keeps as written (as @hono/node-server tests it): any other is normalised as a Request's URL would be. */
const PLAIN_PATH = /^\/(?!.*\/\.\.?(?:[/?#]|$))[!#$&-;=?-[\]_a-z~]*$/;

export interface InProcessInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * `body` stays null: the text is in memory already, nothing streams, so the body limit (which reads
 * streams) has nothing to count; the bodies are the sandbox's own fixtures. A body under a blank
 * Content-Type is refused: the route's media-type check would look for it in the stream.
 */
export function inProcessRequest(path: string, init: InProcessInit): Request {
  const text = init.body ?? "";
  const headers = new InProcessHeaders(init.headers);
  if (init.body !== undefined) {
    // As the Fetch standard builds a Request with a text body.
    if (init.method === "GET" || init.method === "HEAD") throw new TypeError(`a ${init.method} request cannot have a body`);
    if (!headers.has("content-type")) headers.set("content-type", "text/plain;charset=UTF-8");
    else if (headers.get("content-type") === "" && text !== "") throw new TypeError("an in-process request's body needs a Content-Type");
  }
  let signal: AbortSignal | undefined;
  const request = {
    method: init.method,
    url: PLAIN_PATH.test(path) ? `http://localhost${path}` : new URL(`http://localhost${path}`).href,
    headers,
    body: null,
    bodyUsed: false,
    get signal() {
      return (signal ??= new AbortController().signal); // never aborted: nobody hangs up
    },
    text: () => Promise.resolve(text),
    json: () => Promise.resolve(text).then(JSON.parse),
    arrayBuffer: () => Promise.resolve(new TextEncoder().encode(text).buffer),
  };
  return request as unknown as Request;
}

/** What the app reads of a Headers: names lower-cased, values trimmed, a repeated name joined, listed in name order. */
class InProcessHeaders {
  private readonly values = new Map<string, string>();

  constructor(init: Record<string, string>) {
    for (const [name, value] of Object.entries(init)) {
      const key = name.toLowerCase();
      const kept = this.values.get(key);
      this.values.set(key, kept === undefined ? value.trim() : `${kept}, ${value.trim()}`);
    }
  }

  get(name: string): string | null {
    return this.values.get(name.toLowerCase()) ?? null;
  }

  has(name: string): boolean {
    return this.values.has(name.toLowerCase());
  }

  set(name: string, value: string): void {
    this.values.set(name.toLowerCase(), value.trim());
  }

  forEach(each: (value: string, name: string, headers: this) => void): void {
    for (const [name, value] of this.entries()) each(value, name, this);
  }

  entries(): IterableIterator<[string, string]> {
    return [...this.values].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))[Symbol.iterator]();
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}
