/**
 * Bounds on the connections themselves, so that slow, idle or numerous sockets cannot hold the
 * server: headers within a few seconds, a whole request within a bound no real client reaches (408 in
 * the error envelope, then closed), idle keep-alive connections closed, and a cap on the connections
 * one client address holds open (past it a new connection is closed at once).
 *
 * A connection the server closes after an answer lingers: its write side is closed and what the client
 * is still sending is read and dropped for a moment, before the socket is closed. Closing a socket with
 * unread data makes the kernel reset it, and a reset can destroy the answer before the client reads it
 * (a 413 to a chunked upload still streaming in was lost that way).
 */
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerOptions, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { normaliseIp } from "../domain/fields.js";
import { errorBody, STATUS_OF } from "./errors.js";
import { DENY_ALL } from "./response-headers.js";

/** Time from the connection (on a kept-alive one, from the next request's first byte) to the end of the headers. */
export const HEADERS_TIMEOUT_MS = 10_000;
/** Time from the start of a request to the end of its body: a 5 MB snapshot at 100 KB/s takes under this. */
export const REQUEST_TIMEOUT_MS = 60_000;
/** An idle keep-alive connection is closed after this (Node adds a second before it acts). */
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;
/** Open connections per client address; CI suites on one machine come from one address. */
export const CONNECTIONS_PER_ADDRESS = 256;
/** The same with `--shared`, where the addresses are strangers'. */
export const SHARED_CONNECTIONS_PER_ADDRESS = 64;
/** How long a connection closed by the server keeps reading and dropping what the client still sends. */
export const LINGER_MS = 5_000;
/** ...and at most this much of it. */
export const LINGER_MAX_BYTES = 64 * 1024 * 1024;

export interface ConnectionLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** Open connections per client address; 0 = no cap. */
  perAddress: number;
  lingerMs: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: HEADERS_TIMEOUT_MS,
  requestTimeoutMs: REQUEST_TIMEOUT_MS,
  keepAliveTimeoutMs: KEEP_ALIVE_TIMEOUT_MS,
  perAddress: CONNECTIONS_PER_ADDRESS,
  lingerMs: LINGER_MS,
};

const seconds = (ms: number) => `${+(ms / 1000).toFixed(3)} s`;

/** The 408 a timed-out request gets, written on the socket itself (no request object exists for it). */
function timeoutAnswerOf(limits: ConnectionLimits): string {
  const message = `The request was not received in time: headers within ${seconds(limits.headersTimeoutMs)}, the whole request within ${seconds(limits.requestTimeoutMs)}.`;
  const body = JSON.stringify(errorBody("REQUEST_TIMEOUT", message));
  return (
    `HTTP/1.1 ${STATUS_OF.REQUEST_TIMEOUT} Request Timeout\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
    `X-Content-Type-Options: nosniff\r\nContent-Security-Policy: ${DENY_ALL}\r\nConnection: close\r\n\r\n${body}`
  );
}

// Malformed HTTP keeps Node's own answers (a `clientError` listener replaces them all).
const PARSE_ERRORS: Record<string, string> = { HPE_HEADER_OVERFLOW: "431 Request Header Fields Too Large", HPE_CHUNK_EXTENSIONS_OVERFLOW: "413 Payload Too Large" };

interface Connection {
  /** The newest request dispatched on it, and its response. */
  req?: IncomingMessage;
  res?: ServerResponse;
  /** Closing: its answer is out; nothing more is served on it. */
  closing?: boolean;
}

/**
 * `createServer` for `createAdaptorServer` with these limits: Node's timeouts set (and checked often
 * enough to hold them), connections counted per address, and closes that linger.
 */
export function guardedServer(limits: ConnectionLimits): typeof createServer {
  const connections = new WeakMap<Socket, Connection>();
  const open = new Map<string, number>();
  const timeoutAnswer = timeoutAnswerOf(limits);

  const linger = (socket: Socket, conn: Connection) => {
    if (conn.closing) return;
    conn.closing = true;
    socket.end();
    const timer = setTimeout(() => socket.destroy(), limits.lingerMs);
    socket.once("close", () => clearTimeout(timer));
    // The rest of a body cut off mid-stream: read and dropped (the handler that stopped reading it is done).
    const req = conn.req;
    if (req && !req.complete) {
      let dropped = 0;
      req.removeAllListeners("data");
      req.on("data", (chunk: Buffer) => (dropped += chunk.length) > LINGER_MAX_BYTES && socket.destroy());
      req.resume();
    }
  };

  const onConnection = (socket: Socket) => {
    const conn: Connection = {};
    connections.set(socket, conn);
    const address = socket.remoteAddress === undefined ? undefined : normaliseIp(socket.remoteAddress);
    if (limits.perAddress > 0 && address !== undefined) {
      const count = open.get(address) ?? 0;
      if (count >= limits.perAddress) {
        // Refused before anything is read: an answer would have to wait for the request, holding the
        // very socket the cap is there to free; the client sees its connection closed.
        socket.destroy();
        return;
      }
      open.set(address, count + 1);
      socket.once("close", () => {
        const left = (open.get(address) ?? 1) - 1;
        if (left > 0) open.set(address, left);
        else open.delete(address);
      });
    }
    // Node closes a connection with `destroySoon` once its last answer is flushed (and a body drain that
    // gives up does the same): here the close lingers instead.
    socket.destroySoon = () => linger(socket, conn);
  };

  const onClientError = (err: NodeJS.ErrnoException, socket: Socket) => {
    const conn = connections.get(socket) ?? {};
    // A request still arriving that has its answer already (a refusal mid-body) needs no other.
    const answered = conn.req !== undefined && !conn.req.complete && conn.res?.headersSent;
    if (!socket.writable || conn.closing || answered || err.code === "ECONNRESET") {
      socket.destroy();
      return;
    }
    const answer =
      err.code === "ERR_HTTP_REQUEST_TIMEOUT" ? timeoutAnswer : `HTTP/1.1 ${PARSE_ERRORS[err.code ?? ""] ?? "400 Bad Request"}\r\nConnection: close\r\n\r\n`;
    conn.closing = true;
    // Closed once the answer is out, not lingering: a request whose body was still arriving must end now.
    socket.end(answer, () => socket.destroy());
  };

  // createAdaptorServer calls it with (options, listener), the one overload of createServer needed here.
  const guarded = (options: ServerOptions, listener: RequestListener): Server => {
    const server = createServer(
      {
        ...options,
        headersTimeout: limits.headersTimeoutMs,
        requestTimeout: limits.requestTimeoutMs,
        keepAliveTimeout: limits.keepAliveTimeoutMs,
        // Node looks for expired requests only every 30 s by default: too seldom to keep the headers bound.
        connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.round(limits.headersTimeoutMs / 4))),
      },
      (req, res) => {
        const conn = connections.get(req.socket) ?? {};
        // A request arriving on a connection that is closing could never get its answer: not served.
        if (conn.closing) return void req.resume();
        conn.req = req;
        conn.res = res;
        listener(req, res);
      },
    );
    server.on("connection", onConnection);
    server.on("clientError", onClientError);
    return server;
  };
  return guarded as typeof createServer;
}
