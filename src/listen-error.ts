/**
 * Why a server could not listen, in words that name the way out: shared by `start` (src/server.ts)
 * and `listen` (src/cli/listen.ts), so both explain a busy port the same way.
 */
import type { Settings } from "./config.js";

/** How a command is given another port: `start` also reads its environment, `listen` only its flag. */
export interface PortFlags {
  choose: string;
  example: number;
}

/** A listen failure in words that name the way out (`start`'s, or with `flags` another command's). */
export function listenError(
  err: NodeJS.ErrnoException,
  settings: Pick<Settings, "host" | "port">,
  flags: PortFlags = { choose: "--port N or MERCHANT_SANDBOX_PORT", example: 4010 },
): Error {
  const where = `${settings.host}:${settings.port}`;
  switch (err.code) {
    case "EADDRINUSE":
      return new Error(`port ${settings.port} is already in use on ${settings.host}: stop the program using it, or choose another port with ${flags.choose} (0 picks a free one)`);
    case "EACCES":
      return new Error(`not allowed to listen on ${where}: ports below 1024 need privileges; use a higher one, e.g. --port ${flags.example}`);
    case "EADDRNOTAVAIL":
    case "ENOTFOUND":
      return new Error(`cannot listen on ${settings.host}: it is not an address of this machine; use --host 127.0.0.1 (this machine only) or --host 0.0.0.0 (every interface)`);
    default:
      return new Error(`cannot listen on ${where}: ${err.message}`);
  }
}
