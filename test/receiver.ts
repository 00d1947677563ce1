/**
 * A real webhook receiver for tests: listens on an ephemeral 127.0.0.1 port, keeps every request
 * with its raw bytes, and answers as the test scripts it (status, or hold the request open), counting
 * the requests it holds.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  body: any;
}

export interface Answer {
  status?: number;
  body?: string;
  /** Keep the request open until the returned promise resolves. */
  hold?: Promise<void>;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Decides the answer to the n-th request (0-based); default 200. */
  answer: (n: number, req: Received) => Answer;
  /** Requests open now: arrived, and neither answered nor cut off. */
  readonly open: number;
  /** The most requests that were open at once. */
  readonly maxOpen: number;
  /** Resolves once `count` requests have arrived (rejects after `timeoutMs` of real time). */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** An answer that never comes: each request stays open until the sender gives up or the receiver closes. */
export const neverAnswer: Receiver["answer"] = () => ({ hold: new Promise<void>(() => undefined) });

export async function startReceiver(answer: Receiver["answer"] = () => ({ status: 200 })): Promise<Receiver> {
  const received: Received[] = [];
  const waiters: Array<() => void> = [];
  let open = 0;
  let maxOpen = 0;
  const receiver: Receiver = {
    url: "",
    received,
    answer,
    get open() {
      return open;
    },
    get maxOpen() {
      return maxOpen;
    },
    waitFor(count, timeoutMs = 5_000) {
      return new Promise((resolve, reject) => {
        const resolveOnceArrived = () => {
          if (received.length >= count) {
            clearTimeout(timer);
            resolve(received.slice(0, count));
            return;
          }
          waiters.push(resolveOnceArrived); // not there yet: wait for the next arrival again
        };
        const timer = setTimeout(() => reject(new Error(`only ${received.length} of ${count} webhooks arrived`)), timeoutMs);
        resolveOnceArrived();
      });
    },
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  const server = createServer((req, res) => {
    open += 1;
    maxOpen = Math.max(maxOpen, open);
    res.once("close", () => (open -= 1));
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const raw = Buffer.concat(chunks);
      let body: unknown = null;
      try {
        body = JSON.parse(raw.toString("utf8"));
      } catch {
        body = raw.toString("utf8");
      }
      const entry: Received = { path: req.url ?? "/", headers: req.headers, raw, body };
      const n = received.length;
      received.push(entry);
      for (const wake of waiters.splice(0)) wake();
      const a = receiver.answer(n, entry);
      if (a.hold) await a.hold;
      if (!res.destroyed) res.writeHead(a.status ?? 200, { "content-type": "text/plain" }).end(a.body ?? "ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  return receiver;
}
