/**
 * A minimal webhook receiver: keeps each request's exact bytes, answers as told. Shared by the
 * scenario runner (`webhook_capture`), the `merchant-sandbox/testing` helper and `listen`.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface Delivery {
  path: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  /** The parsed JSON, or the text when it is not JSON. */
  body: any;
  signature: string | undefined;
}

export interface ReceiverOptions {
  host?: string;
  port?: number;
  /** Status and body for the n-th delivery (0-based); default 200 "ok". */
  answer?: (n: number, delivery: Delivery) => { status: number; body?: string };
  onDelivery?: (delivery: Delivery) => void;
}

export interface WebhookReceiver {
  url: string;
  server: Server;
  received: Delivery[];
  close(): Promise<void>;
}

export async function startWebhookReceiver(options: ReceiverOptions = {}): Promise<WebhookReceiver> {
  const received: Delivery[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      let body: unknown = raw.toString("utf8");
      try {
        body = JSON.parse(body as string);
      } catch {
        // not JSON: kept as text
      }
      const delivery: Delivery = { path: req.url ?? "/", headers: req.headers, raw, body, signature: req.headers["x-webhook-signature"] as string | undefined };
      const n = received.length;
      received.push(delivery);
      const answer = options.answer?.(n, delivery) ?? { status: 200 };
      res.writeHead(answer.status, { "content-type": "text/plain" }).end(answer.body ?? "ok");
      options.onDelivery?.(delivery);
    });
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  return {
    url: `http://${host}:${(server.address() as AddressInfo).port}`,
    server,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
