// A correct webhook receiver for merchant-sandbox (and the real service), in Node.js with no
// dependencies. It verifies X-Webhook-Signature over the raw body in constant time, refuses
// deliveries older than 5 minutes and repeated nonces, credits each transaction_id once, answers
// 2xx to event types it does not know (and ignores them), and answers before any slow work.
//
// Run:   WEBHOOK_SECRET=whsec_... PORT=3001 node examples/webhook-receivers/receiver.mjs
// Grade: merchant-sandbox doctor --endpoint http://127.0.0.1:3001/webhooks --secret whsec_... \
//          --records-url http://127.0.0.1:3001/credited
// Also: WEBHOOK_ALGORITHM (sha256 or sha512), WEBHOOK_ENCODING (hex or base64), HOST, PORT (0: any free port).
//
// A merchant on a manual clock sends sent_at from its own clock, not the wall's: point a realtime
// merchant (the demo merchant of `npm start`) at this receiver, or its deliveries are refused as stale.
//
// The broken receivers beside it import these pieces and change one thing each.
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import { pathToFileURL } from "node:url";

const MAX_AGE_MS = 5 * 60 * 1000;
const MAX_BODY_BYTES = 1024 * 1024;

/** The HMAC of the exact raw bytes, compared in constant time. Never verify a re-serialised body. */
export function verifySignature(raw, signature, secret, { algorithm = "sha256", encoding = "hex" } = {}) {
  if (typeof signature !== "string" || signature === "") return false;
  const expected = Buffer.from(createHmac(algorithm, secret).update(raw).digest(encoding));
  const given = Buffer.from(encoding === "hex" ? signature.trim().toLowerCase() : signature.trim());
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** sent_at within 5 minutes of our clock, either way: an older delivery is a replay (every retry is sent afresh). */
export function isFresh(sentAt, now = Date.now()) {
  const at = Date.parse(sentAt);
  return Number.isFinite(at) && Math.abs(now - at) <= MAX_AGE_MS;
}

/**
 * The merchant's records, in memory here. In real code: a database table with a unique key on
 * transaction_id, so that two deliveries racing each other cannot both credit.
 */
export function createLedger() {
  const credits = []; // one entry per credit made: what the records view shows
  const credited = new Set();
  const nonces = new Map(); // nonce -> when it was seen, for MAX_AGE_MS
  return {
    /** Credits unconditionally (the broken not-idempotent receiver calls this directly). */
    credit(transactionId) {
      credits.push(transactionId);
      credited.add(transactionId);
    },
    /** Credits a transaction the first time only; false when it already was. */
    creditOnce(transactionId) {
      if (credited.has(transactionId)) return false;
      this.credit(transactionId);
      return true;
    },
    /** True when the nonce was seen within MAX_AGE_MS; remembers it otherwise. */
    replayed(nonce, now = Date.now()) {
      for (const [seen, at] of nonces) if (at < now - MAX_AGE_MS) nonces.delete(seen);
      if (nonces.has(nonce)) return true;
      nonces.set(nonce, now);
      return false;
    },
    /** The records view: every credit made, of these transactions only when a filter is given. */
    list(filter) {
      return filter ? credits.filter((id) => filter.has(id)) : [...credits];
    },
  };
}

const reply = (status, body) => ({ status, body });

/** The events that move money in; the others are acknowledged (payouts) or ignored (unknown types). */
const CREDITS = new Set(["payment.received", "checkout.completed"]);
const KNOWN = new Set([...CREDITS, "payout.completed", "payout.failed"]);

/** The correct handling of one delivery: verify, check freshness and nonce, record once, answer. */
export function handleDelivery({ raw, headers }, { secret, signature, ledger, verify = verifySignature }) {
  if (!verify(raw, headers["x-webhook-signature"], secret, signature)) return reply(401, { error: "invalid signature" });
  let event;
  try {
    event = JSON.parse(raw.toString("utf8"));
  } catch {
    return reply(400, { error: "not JSON" });
  }
  if (!isFresh(event.sent_at)) return reply(400, { error: "stale delivery: sent_at is more than 5 minutes away" });
  if (ledger.replayed(event.nonce)) return reply(409, { error: "replayed nonce" });
  if (!KNOWN.has(event.event)) return reply(200, { ignored: event.event });
  if (CREDITS.has(event.event)) {
    const fresh = ledger.creditOnce(event.data.transaction_id);
    return reply(200, { credited: fresh, duplicate: !fresh });
  }
  // payout.completed / payout.failed: mark the payout settled here, then answer.
  return reply(200, { received: event.event });
}

/** Serves POST /webhooks (deliveries, through `handle`) and GET /credited (the records view). */
export function startReceiver({ secret, signature = {}, host = "127.0.0.1", port = 3001, handle = handleDelivery, ledger = createLedger() }) {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://receiver");
    const send = ({ status, body }) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (req.method === "GET" && url.pathname === "/credited") {
      const ids = url.searchParams.get("transaction_ids");
      return send(reply(200, { credited: ledger.list(ids ? new Set(ids.split(",")) : null) }));
    }
    if (req.method !== "POST" || url.pathname !== "/webhooks") return send(reply(404, { error: "not found" }));
    const chunks = [];
    let size = 0;
    req.on("data", (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) req.destroy();
      else chunks.push(chunk);
    });
    req.on("end", async () => send(await handle({ raw: Buffer.concat(chunks), headers: req.headers }, { secret, signature, ledger })));
  });
  server.listen(port, host, () => console.log(`webhook receiver listening on http://${host}:${server.address().port}/webhooks`));
  return server;
}

/** The settings from the environment, for this file and the broken receivers run as programs. */
export function settingsFromEnv(env = process.env) {
  if (!env.WEBHOOK_SECRET) {
    console.error("Set WEBHOOK_SECRET to the merchant's webhook secret.");
    process.exit(2);
  }
  return {
    secret: env.WEBHOOK_SECRET,
    signature: { algorithm: env.WEBHOOK_ALGORITHM ?? "sha256", encoding: env.WEBHOOK_ENCODING ?? "hex" },
    host: env.HOST ?? "127.0.0.1",
    port: Number(env.PORT ?? 3001),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) startReceiver(settingsFromEnv());
