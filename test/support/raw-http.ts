/**
 * One HTTP/1.1 connection driven by hand: what a client that reuses its connection, streams a body in
 * chunks, trickles bytes or holds its socket open sees, which `fetch` hides.
 */
import { connect, type Socket } from "node:net";

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface RawConnection {
  socket: Socket;
  /** The next complete response, or null if the server closes the connection first. */
  response(): Promise<RawResponse | null>;
  /** Resolves once the server has closed the connection, with the milliseconds it was open. */
  closed: Promise<number>;
  /** Closed by either side already. */
  isClosed(): boolean;
}

/** Opens a connection to `base` (an http URL), from `localAddress` when given. */
export async function rawConnection(base: string, opts: { localAddress?: string } = {}): Promise<RawConnection> {
  const { hostname, port } = new URL(base);
  const opened = Date.now();
  const socket = connect({ port: Number(port), host: hostname, localAddress: opts.localAddress });
  let buffer = Buffer.alloc(0);
  let closed = false;
  let wake: (() => void) | null = null;
  socket.on("data", (d: Buffer) => ((buffer = Buffer.concat([buffer, d])), wake?.()));
  const closedAt = new Promise<number>((resolve) => socket.on("close", () => ((closed = true), wake?.(), resolve(Date.now() - opened))));
  socket.on("error", () => undefined); // a reset shows as a close
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));

  /** The body of a response starting at `from`, or null while incomplete. */
  const bodyOf = (headers: Record<string, string>, from: number): { body: string; end: number } | null => {
    if (headers["transfer-encoding"]?.toLowerCase() === "chunked") {
      let at = from;
      const parts: Buffer[] = [];
      for (;;) {
        const eol = buffer.indexOf("\r\n", at);
        if (eol < 0) return null;
        const size = parseInt(buffer.subarray(at, eol).toString("latin1"), 16);
        if (buffer.length < eol + 2 + size + 2) return null;
        if (size === 0) return { body: Buffer.concat(parts).toString("utf8"), end: eol + 4 };
        parts.push(buffer.subarray(eol + 2, eol + 2 + size));
        at = eol + 2 + size + 2;
      }
    }
    const length = Number(headers["content-length"] ?? 0);
    return buffer.length >= from + length ? { body: buffer.subarray(from, from + length).toString("utf8"), end: from + length } : null;
  };

  async function response(): Promise<RawResponse | null> {
    for (;;) {
      const headEnd = buffer.indexOf("\r\n\r\n");
      if (headEnd >= 0) {
        const [statusLine, ...lines] = buffer.subarray(0, headEnd).toString("latin1").split("\r\n");
        const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).trim().toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
        const body = bodyOf(headers, headEnd + 4);
        if (body) {
          buffer = buffer.subarray(body.end);
          return { status: Number(statusLine!.split(" ")[1]), headers, body: body.body };
        }
      }
      if (closed) return null;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
    }
  }
  return { socket, response, closed: closedAt, isClosed: () => closed };
}

/** Writes `body` as a chunked request body, in chunks of `size` bytes, and its last chunk. */
export function writeChunked(socket: Socket, body: string, size = 64 * 1024): void {
  for (let i = 0; i < body.length; i += size) {
    const chunk = body.slice(i, i + size);
    socket.write(`${Buffer.byteLength(chunk).toString(16)}\r\n${chunk}\r\n`);
  }
  socket.write("0\r\n\r\n");
}
