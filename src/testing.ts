/**
 * `import { startSandbox } from "merchant-sandbox/testing"`: an in-process sandbox for JavaScript and
 * TypeScript test suites. Each call starts its own server on an ephemeral 127.0.0.1 port with its own
 * merchant (manual clock) whose webhooks go to a built-in receiver, so tests stay isolated.
 */
import { serve, type ServerType } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { createApp } from "./app.js";
import { createRuntime } from "./runtime.js";
import type { NewMerchantInput } from "./domain/merchant-settings.js";
import { buildRegistry } from "./server.js";
import { startWebhookReceiver } from "./webhooks/receiver.js";
import { verifyWebhookSignature } from "./webhooks/sign.js";

export interface Webhook {
  event: string;
  nonce: string;
  sent_at: string;
  data: Record<string, any>;
  /** The exact bytes received, and whether X-Webhook-Signature verifies with the merchant's secret. */
  raw: string;
  signature: string | undefined;
  verified: boolean;
}

export interface Reply {
  status: number;
  body: any;
}

export interface Sandbox {
  baseUrl: string;
  merchant: { id: string; apiKey: string; apiSecret: string; webhookSecret: string };
  /** The X-Api-Key / X-Api-Secret headers of the merchant. */
  headers: Record<string, string>;
  /** Calls the sandbox as the merchant; JSON in, parsed JSON out. */
  request(method: string, path: string, body?: unknown): Promise<Reply>;
  /** Moves the merchant's clock: a number of seconds, or "30s", "5m", "2h", "1d". Fires due timers. */
  advance(by: number | string): Promise<{ now: string; fired: number }>;
  simulateTransfer(t: { accountNumber: string; amount: number; narration?: string; payerName?: string; payerBank?: string }): Promise<any>;
  payLink(reference: string, amount?: number): Promise<Reply>;
  /** Resolves with the next webhook delivered (of `type`, if given), waiting up to `timeout` ms of real time. */
  nextWebhook(options?: { type?: string; timeout?: number }): Promise<Webhook>;
  close(): Promise<void>;
}

export interface StartOptions {
  /** Settings of the merchant (as POST /sandbox/v1/merchants takes them). */
  merchant?: NewMerchantInput;
  seed?: string;
  fixtures?: string;
}

export async function startSandbox(options: StartOptions = {}): Promise<Sandbox> {
  const { registry } = buildRegistry({ seed: options.seed, fixtures: options.fixtures });
  const runtime = createRuntime();
  const app = createApp({ registry, runtime });
  const receiver = await startReceiver();
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve(s));
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const tenant = registry.create({ webhook_url: receiver.url, ...options.merchant }, { defaultClockMode: "manual" });
  const { merchant_id, api_key, api_secret, webhook_secret } = tenant.config;
  receiver.secret = webhook_secret;
  receiver.signature = tenant.config.webhook;
  const headers = { "x-api-key": api_key, "x-api-secret": api_secret };

  const request = async (method: string, path: string, body?: unknown): Promise<Reply> => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: res.status, body: parsed };
  };
  const ok = (reply: Reply, what: string) => {
    if (reply.status >= 300) throw new Error(`${what} failed: ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply;
  };

  return {
    baseUrl,
    merchant: { id: merchant_id, apiKey: api_key, apiSecret: api_secret, webhookSecret: webhook_secret },
    headers,
    request,
    async advance(by) {
      const body = typeof by === "number" ? { seconds: by } : { by };
      return ok(await request("POST", "/sandbox/v1/clock/advance", body), "advance").body.data;
    },
    async simulateTransfer(t) {
      const reply = await request("POST", `/sandbox/v1/virtual-accounts/${encodeURIComponent(t.accountNumber)}/transfers`, {
        amount: t.amount,
        narration: t.narration,
        payer_name: t.payerName,
        payer_bank: t.payerBank,
      });
      return ok(reply, "simulateTransfer").body.data;
    },
    payLink: (reference, amount) => request("POST", `/sandbox/v1/checkout/${encodeURIComponent(reference)}/pay`, amount === undefined ? {} : { amount }),
    nextWebhook: ({ type, timeout = 5_000 } = {}) => receiver.next(type, timeout),
    async close() {
      runtime.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await receiver.close();
    },
  };
}

/** The built-in receiver: verifies each delivery and hands it to the oldest matching `nextWebhook` waiter. */
async function startReceiver() {
  const queue: Webhook[] = [];
  const waiters: Array<{ type?: string; resolve: (w: Webhook) => void }> = [];
  const state = {
    secret: "",
    signature: { signature_algorithm: "sha256", signature_encoding: "hex" } as { signature_algorithm: "sha256" | "sha512"; signature_encoding: "hex" | "base64" },
  };
  const receiver = await startWebhookReceiver({
    onDelivery: (d) => {
      if (d.body === null || typeof d.body !== "object") return;
      const raw = d.raw.toString("utf8");
      const verified = verifyWebhookSignature(d.raw, d.signature, state.secret, {
        algorithm: state.signature.signature_algorithm,
        encoding: state.signature.signature_encoding,
      });
      const webhook: Webhook = { ...(d.body as Omit<Webhook, "raw" | "signature" | "verified">), raw, signature: d.signature, verified };
      const waiter = waiters.findIndex((w) => !w.type || w.type === webhook.event);
      if (waiter >= 0) waiters.splice(waiter, 1)[0]!.resolve(webhook);
      else queue.push(webhook);
    },
  });
  return Object.assign(state, {
    url: `${receiver.url}/webhooks`,
    close: receiver.close,
    next(type: string | undefined, timeout: number): Promise<Webhook> {
      const index = queue.findIndex((w) => !type || w.event === type);
      if (index >= 0) return Promise.resolve(queue.splice(index, 1)[0]!);
      return new Promise((resolve, reject) => {
        const waiter = {
          type,
          resolve: (w: Webhook) => {
            clearTimeout(timer);
            resolve(w);
          },
        };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`no ${type ?? "webhook"} arrived within ${timeout} ms`));
        }, timeout);
        waiters.push(waiter);
      });
    },
  });
}
