/**
 * A request the sandbox makes of its own app (the demo merchant's sample activity): what `app.fetch`
 * reads of a Request (method, URL, headers, the body as text), without building one. `app.request`
 * builds an undici Request with a stream for its body, which the body limit then reads and wraps in a
 * second Request: most of what the activity cost at start (bench/FAST-PATH.md). The app answers it as
 * it answers `app.request`; test/platform/demo-activity-in-process.test.ts holds the two equal.
 */

export interface InProcessInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * `body` stays null: the text is in memory already, nothing streams, so the body limit (which reads
 * streams) has nothing to count; the bodies are the sandbox's own fixtures.
 */
export function inProcessRequest(path: string, init: InProcessInit): Request {
  const text = init.body ?? "";
  const headers = new Headers(init.headers);
  if (init.body !== undefined) {
    // As the Fetch standard builds a Request with a text body.
    if (init.method === "GET" || init.method === "HEAD") throw new TypeError(`a ${init.method} request cannot have a body`);
    if (!headers.has("content-type")) headers.set("content-type", "text/plain;charset=UTF-8");
  }
  let signal: AbortSignal | undefined;
  const request = {
    method: init.method,
    url: `http://localhost${path}`,
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
