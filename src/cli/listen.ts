/**
 * `merchant-sandbox listen`: a local webhook receiver for developers without one yet (like
 * `stripe listen`). Prints each event and whether its signature verifies, and answers 200.
 */
import type { Server } from "node:http";
import { parseArgs } from "node:util";
import { listenError } from "../listen-error.js";
import { startWebhookReceiver } from "../webhooks/receiver.js";
import { verifyWebhookSignature, type SignatureOptions } from "../webhooks/sign.js";

export interface ListenOptions extends SignatureOptions {
  host: string;
  port: number;
  secret?: string;
  write?: (line: string) => void;
}

/** Where `listen` receives when no --port is given. */
export const DEFAULT_LISTEN_PORT = 3001;

export const LISTEN_USAGE = `Usage: merchant-sandbox listen [--port ${DEFAULT_LISTEN_PORT}] [--host 127.0.0.1] [--secret WEBHOOK_SECRET]
                              [--algorithm sha256|sha512] [--encoding hex|base64]

Receives webhooks on http://HOST:PORT/ (any path), prints each event and whether X-Webhook-Signature
verifies with the secret (also MERCHANT_SANDBOX_WEBHOOK_SECRET), and answers 200.
Point a merchant at it: PATCH /sandbox/v1/merchant {"webhook_url": "http://127.0.0.1:${DEFAULT_LISTEN_PORT}/webhooks"}
`;

export function parseListenArgs(argv: string[], env: NodeJS.ProcessEnv): { options: ListenOptions } | { error: string } {
  try {
    const { values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        port: { type: "string", default: String(DEFAULT_LISTEN_PORT) },
        host: { type: "string", default: "127.0.0.1" },
        secret: { type: "string" },
        algorithm: { type: "string", default: "sha256" },
        encoding: { type: "string", default: "hex" },
      },
    });
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) return { error: `invalid --port ${values.port}` };
    if (values.algorithm !== "sha256" && values.algorithm !== "sha512") return { error: "--algorithm must be sha256 or sha512" };
    if (values.encoding !== "hex" && values.encoding !== "base64") return { error: "--encoding must be hex or base64" };
    const secret = values.secret ?? env.MERCHANT_SANDBOX_WEBHOOK_SECRET;
    return { options: { host: values.host!, port, secret: secret || undefined, algorithm: values.algorithm, encoding: values.encoding } };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

/** Starts the receiver; a port it cannot take rejects with `start`'s explanation, worded for `listen`'s flags. */
export async function listen(options: ListenOptions): Promise<{ url: string; server: Server }> {
  const write = options.write ?? ((line: string) => process.stdout.write(line + "\n"));
  const receiver = await startWebhookReceiver({
    host: options.host,
    port: options.port,
    answer: () => ({ status: 200, body: JSON.stringify({ received: true }) }),
    onDelivery: (d) => {
      const verdict = !options.secret
        ? "not checked (no --secret)"
        : verifyWebhookSignature(d.raw, d.signature, options.secret, options)
          ? "valid"
          : "INVALID";
      const body = d.body as { event?: string; nonce?: string; data?: { transaction_id?: string } } | string;
      const summary =
        typeof body === "object" && body !== null
          ? `${body.event ?? "(no event)"} transaction_id=${body.data?.transaction_id ?? "-"} nonce=${body.nonce ?? "-"}`
          : `POST ${d.path}`;
      write(`[${new Date().toISOString()}] ${summary}  signature: ${verdict}`);
      write(typeof body === "object" && body !== null ? JSON.stringify(body, null, 2) : body);
    },
  }).catch((err: NodeJS.ErrnoException) => {
    throw listenError(err, options, { choose: "--port N", example: DEFAULT_LISTEN_PORT });
  });
  return { url: receiver.url, server: receiver.server };
}
