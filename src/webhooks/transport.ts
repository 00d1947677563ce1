/**
 * The HTTP client behind webhook deliveries. It is built on `node:http`/`node:https` rather than fetch
 * so that it can see and veto the address a request actually connects to (shared mode must not let a
 * merchant's webhook_url reach the sandbox's own network), read only a bounded part of the answer, and
 * cut every request short at once when the server shuts down.
 */
import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import { performance } from "node:perf_hooks";
import { timeoutError } from "../domain/webhook-policy.js";

export interface PostResult {
  status_code: number | null;
  error: string | null;
  latency_ms: number;
  response_excerpt: string | null;
}

/** A GET's answer: the post's fields, and the body as text, read up to the caller's bound. */
export interface GetResult extends PostResult {
  body: string | null;
  /** The answer was longer than the bound: `body` is its start only. */
  truncated: boolean;
}

export interface Transport {
  /** Never rejects: every failure is a result with `error` set. */
  post(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<PostResult>;
  /**
   * A GET with the same address checks, deadline and slots as a delivery (the webhook doctor reads a
   * merchant's records view with it); at most `maxBytes` of the answer are read. Never rejects.
   */
  get(url: string, headers: Record<string, string>, timeoutMs: number, maxBytes: number): Promise<GetResult>;
  /** Ends every request in flight and every queued one now, each with an error result. */
  abortAll(reason?: string): void;
  /** Requests in flight plus those waiting for a slot. */
  inflight(): number;
}

export interface TransportOptions {
  /** Refuse loopback, private and other non-public targets (shared mode on a network). */
  blockPrivate: boolean;
  /** Requests in flight at once across the process; the rest wait in arrival order. Default 256. */
  maxConcurrent?: number;
}

/** A delivery's `response_excerpt`: the answer's first characters, this many. */
export const EXCERPT_CHARS = 500;
// Far more than the excerpt needs, yet small enough that a huge or endless answer costs nothing.
export const MAX_BODY_BYTES = 64 * 1024;
export const DEFAULT_MAX_CONCURRENT = 256;

const NON_PUBLIC = new net.BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network": connecting to 0.0.0.0 reaches the local host on Linux
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // CGNAT, often a provider's internal network
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, where cloud metadata services live
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved and broadcast
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7], // unique-local
  ["fe80::", 10], // link-local
  ["ff00::", 8], // multicast
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, "ipv6");
}
// BlockList matches an IPv4-mapped IPv6 address (::ffff:127.0.0.1, ::ffff:7f00:1) against the IPv4
// rules, so those forms need no rules of their own; the tests pin that behaviour.

/** True when `ip` is an IP address outside the public internet. Anything that is not an IP is false. */
export function isPrivateAddress(ip: string): boolean {
  const family = net.isIP(ip);
  if (family === 0) return false;
  return NON_PUBLIC.check(ip, family === 4 ? "ipv4" : "ipv6");
}

/**
 * Why a webhook URL cannot be used, or null. Synchronous, so a settings validator can call it: it
 * knows only what the URL says, so a hostname (other than localhost) is checked at delivery time.
 */
export function describeUrlProblem(url: string, blockPrivate: boolean): string | null {
  const target = parseTarget(url);
  if (typeof target === "string") return target;
  if (!blockPrivate) return null;
  const host = bareHost(target);
  if (net.isIP(host) !== 0) return isPrivateAddress(host) ? refusal(host, host) : null;
  // Resolvers answer loopback for these names without asking DNS (RFC 6761).
  const name = host.toLowerCase().replace(/\.$/, "");
  if (name === "localhost" || name.endsWith(".localhost")) return `Refused: ${host} is a loopback name (shared mode refuses these webhook targets)`;
  return null;
}

export function createTransport(options: TransportOptions): Transport {
  const maxConcurrent = options.maxConcurrent ?? DEFAULT_MAX_CONCURRENT;
  if (!Number.isInteger(maxConcurrent) || maxConcurrent < 1) throw new RangeError(`maxConcurrent must be a positive integer, got ${maxConcurrent}`);
  // Own agents: a socket pooled by the global agent may have been connected without our lookup check.
  // No keep-alive, so every delivery connects (and is checked) afresh and leaves nothing open behind it.
  const agents = { "http:": new http.Agent({ keepAlive: false }), "https:": new https.Agent({ keepAlive: false }) };
  const lookup = options.blockPrivate ? guardedLookup : undefined;
  const running = new Set<Exchange>();
  const queue: Array<{ start: () => void; abort: (reason: string) => void }> = [];

  function next(): void {
    while (running.size < maxConcurrent && queue.length > 0) queue.shift()!.start();
  }

  function queued(url: string, request: Omit<Request, "target" | "agent" | "lookup">): Promise<Answer> {
    const target = parseTarget(url);
    if (typeof target === "string") return Promise.resolve(failed(target, 0));
    if (options.blockPrivate) {
      // Node skips `lookup` for an IP literal, so the literal is checked here instead.
      const host = bareHost(target);
      if (isPrivateAddress(host)) return Promise.resolve(failed(refusal(host, host), 0));
    }
    return new Promise<Answer>((resolve) => {
      const start = () => {
        const exchange = send({ ...request, target, agent: agents[target.protocol as "http:" | "https:"], lookup });
        running.add(exchange);
        exchange.done.then((result) => {
          running.delete(exchange);
          resolve(result);
          next();
        });
      };
      queue.push({ start, abort: (reason) => resolve(failed(reason, 0)) });
      next();
    });
  }

  return {
    post: (url, headers, body, timeoutMs) =>
      queued(url, { method: "POST", headers, body, timeoutMs, maxBytes: MAX_BODY_BYTES }).then(({ bytes, ...result }) => ({
        ...result,
        response_excerpt: bytes === null ? null : excerpt(bytes),
      })),
    get: (url, headers, timeoutMs, maxBytes) =>
      queued(url, { method: "GET", headers, body: null, timeoutMs, maxBytes }).then(({ bytes, ...result }) => ({
        ...result,
        response_excerpt: bytes === null ? null : excerpt(bytes),
        body: bytes === null ? null : bytes.subarray(0, maxBytes).toString("utf8"),
        truncated: bytes !== null && bytes.length > maxBytes,
      })),
    abortAll(reason = "the sandbox is shutting down") {
      const message = `Aborted: ${reason}`;
      for (const waiting of queue.splice(0)) waiting.abort(message);
      for (const exchange of running) exchange.abort(message);
    },
    inflight: () => running.size + queue.length,
  };
}

/** What one exchange gives back: the answer's first bytes (up to the bound, and a byte more to tell it was longer). */
interface Answer extends Omit<PostResult, "response_excerpt"> {
  bytes: Buffer | null;
}

interface Exchange {
  done: Promise<Answer>;
  abort(message: string): void;
}

interface Request {
  method: "POST" | "GET";
  target: URL;
  headers: Record<string, string>;
  body: string | null;
  timeoutMs: number;
  /** Stop reading the answer past this many bytes. */
  maxBytes: number;
  agent: http.Agent;
  lookup: net.LookupFunction | undefined;
}

function send({ method, target, headers, body, timeoutMs, maxBytes, agent, lookup }: Request): Exchange {
  const started = performance.now();
  const outgoing: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(headers)) if (name.toLowerCase() !== "content-length") outgoing[name] = value;
  if (body !== null) outgoing["content-length"] = Buffer.byteLength(body);

  let req: http.ClientRequest | undefined;
  let timer: NodeJS.Timeout | undefined;
  let settle!: (result: Omit<Answer, "latency_ms">) => void;
  const done = new Promise<Answer>((resolve) => {
    let settled = false;
    settle = (result) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // Ends the socket too when we stop early (body cap, deadline, abort); a no-op once complete.
      req?.destroy();
      resolve({ ...result, latency_ms: Math.round(performance.now() - started) });
    };
  });
  const fail = (error: string) => settle({ status_code: null, error, bytes: null });

  try {
    req = (target.protocol === "https:" ? https : http).request(target, { method, headers: outgoing, agent, lookup }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const answer = () => settle({ status_code: res.statusCode ?? null, error: null, bytes: Buffer.concat(chunks) });
      res.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size > maxBytes) answer();
      });
      res.on("end", answer);
      // The receiver answered and then cut its body short: its status still stands.
      res.on("close", answer);
    });
  } catch (err) {
    // A header name or value Node refuses (a newline in it, say) throws here rather than emitting.
    fail(describeError(err as Error));
    return { done, abort: fail };
  }
  req.on("error", (err) => fail(describeError(err)));
  timer = setTimeout(() => fail(timeoutError(timeoutMs)), timeoutMs);
  req.end(body ?? undefined);
  return { done, abort: fail };
}

function failed(error: string, latency_ms: number): Answer {
  return { status_code: null, error, latency_ms, bytes: null };
}

/** The URL, or why it cannot be a webhook target. */
function parseTarget(url: string): URL | string {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return `Invalid webhook URL: ${JSON.stringify(url)} is not a URL`;
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") {
    return `Invalid webhook URL: protocol ${target.protocol} is not supported (use http or https)`;
  }
  return target;
}

/** The host without the brackets URL keeps around an IPv6 literal. */
function bareHost(target: URL): string {
  return target.hostname.replace(/^\[(.*)\]$/, "$1");
}

function refusal(host: string, ip: string): string {
  const what = host === ip ? host : `${host} resolves to ${ip}, which`;
  return `Refused: ${what} is a private or loopback address (shared mode refuses these webhook targets)`;
}

class RefusedTarget extends Error {}

/**
 * Resolves like Node's default and refuses the connection when any address is non-public. Checking
 * the address actually connected to (not an earlier, separate resolution) leaves no window for DNS
 * rebinding. Node 20 asks for `all: true` (it races the addresses, "happy eyeballs"), so every
 * address is checked: a name with one private address among public ones is refused as a whole.
 */
const guardedLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, "");
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad) return callback(new RefusedTarget(refusal(hostname, bad.address)), "");
    const first = addresses[0];
    if (!first) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }), "");
    if (options.all) callback(null, addresses);
    else callback(null, first.address, first.family);
  });
};

function describeError(err: Error & { code?: string }): string {
  if (err instanceof RefusedTarget) return err.message;
  // With several addresses Node tries each and reports an AggregateError whose own message is empty.
  const message = err instanceof AggregateError && !err.message ? err.errors.map((e: Error) => e.message).join("; ") : err.message;
  return err.code ? `${err.code}: ${message}` : message;
}

/** The first characters of the answer, without a surrogate pair cut in half at the end. */
function excerpt(bytes: Buffer): string {
  const text = bytes.toString("utf8").slice(0, EXCERPT_CHARS);
  return /[\uD800-\uDBFF]$/.test(text) ? text.slice(0, -1) : text;
}
