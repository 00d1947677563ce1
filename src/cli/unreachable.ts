/**
 * Whether anything answers at a URL's host and port, asked with a bare TCP connection (no request is
 * sent, so a receiver records nothing): a command that is about to send many requests checks once and
 * says in one line why none could arrive, instead of failing each the same way.
 */
import { connect as netConnect, type Socket } from "node:net";

/** Opens a TCP connection (node:net's connect; a test passes one that never connects). */
export type Connect = (options: { host: string; port: number }) => Socket;

/** Who asks and what it expects to find: "doctor" and "receiver" make "Start your receiver, then run doctor again." */
export interface Asker {
  command: string;
  expects: string;
}

interface Failure {
  /** The error's code, or "timeout" when nothing answered in time. */
  code: string | undefined;
  message: string;
  url: string;
  host: string;
  port: number;
  timeoutMs: number;
}

/** What a connection failure means, for the person at the terminal. */
function describe({ code, message, url, host, port, timeoutMs }: Failure, { command, expects }: Asker): string {
  const again = `then run ${command} again.`;
  switch (code) {
    case "timeout":
      return `nothing answered at ${host} port ${port} within ${timeoutMs / 1000} s (${url}). Check the host and port in the URL (and any firewall in between), ${again}`;
    case "ECONNREFUSED":
      return `nothing is listening on ${url} (connection refused). Start your ${expects}, ${again}`;
    case "ENOTFOUND":
      return `the host ${host} of ${url} does not resolve (no such host). Check the host name in the URL, ${again}`;
    case "EAI_AGAIN":
      return `the host ${host} of ${url} could not be looked up (DNS did not answer). Check your network and the host name, ${again}`;
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return `cannot reach ${url}: no route to ${host} (${code}). Check the host in the URL and your network, ${again}`;
    default:
      return `cannot connect to ${url} (${code ? `${code}: ` : ""}${message}). Check the URL, ${again}`;
  }
}

/** Null when something accepts a connection at `url`'s host and port within `timeoutMs`; otherwise why not, naming the way out. */
export function whyUnreachable(url: string, timeoutMs: number, asker: Asker, connect: Connect = netConnect): Promise<string | null> {
  const target = new URL(url);
  const host = target.hostname.replace(/^\[(.*)\]$/, "$1");
  const port = Number(target.port || (target.protocol === "https:" ? 443 : 80));
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (why: string | null) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(why);
    };
    const failed = (code: string | undefined, message = "") => done(describe({ code, message, url, host, port, timeoutMs }, asker));
    const timer = setTimeout(() => failed("timeout"), timeoutMs);
    socket.once("connect", () => done(null));
    socket.once("error", (err: Error & { code?: string; errors?: Array<Error & { code?: string }> }) => {
      // With several addresses (happy eyeballs) Node reports an AggregateError: the first attempt's code speaks for it.
      const first = err.errors?.[0];
      failed(err.code ?? first?.code, err.message || first?.message);
    });
  });
}
