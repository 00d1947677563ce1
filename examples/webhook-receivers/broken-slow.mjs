// A BROKEN webhook receiver, to show what the webhook doctor catches: it does its slow work (a
// call to another service, an email) before answering, so every delivery it accepts is answered
// after the sender's timeout (10 s) and counted as failed, then retried. The doctor fails it on every
// case that expects a 2xx (valid_event, duplicate_delivery, unknown_event_type, out_of_order,
// large_payload); it still refuses bad deliveries at once.
//
// Run:   WEBHOOK_SECRET=whsec_... PORT=3001 node examples/webhook-receivers/broken-slow.mjs
// Grade: merchant-sandbox doctor --endpoint http://127.0.0.1:3001/webhooks --secret whsec_...
// SLOW_SECONDS sets how long the slow work takes (default 15, past the 10 s timeout).
import { setTimeout as sleep } from "node:timers/promises";
import { handleDelivery, settingsFromEnv, startReceiver } from "./receiver.mjs";

const SLOW_MS = Number(process.env.SLOW_SECONDS ?? 15) * 1000;

// The mistake: waiting for the slow work before answering, instead of answering first.
async function answerAfterSlowWork(delivery, context) {
  const answer = handleDelivery(delivery, context);
  if (answer.status === 200) await sleep(SLOW_MS);
  return answer;
}

startReceiver({ ...settingsFromEnv(), handle: answerAfterSlowWork });
