// A BROKEN webhook receiver, to show what the webhook doctor catches: it never verifies
// X-Webhook-Signature, so anyone who finds its URL can post a payment and be credited. The doctor
// fails it on missing_signature, bad_signature and tampered_body, and on nothing else.
//
// Run:   WEBHOOK_SECRET=whsec_... PORT=3001 node examples/webhook-receivers/broken-no-signature-check.mjs
// Grade: merchant-sandbox doctor --endpoint http://127.0.0.1:3001/webhooks --secret whsec_...
import { handleDelivery, settingsFromEnv, startReceiver } from "./receiver.mjs";

// The mistake: every signature "verifies" (as when the check is skipped, or done only when the header is there).
const trustEverything = () => true;

startReceiver({ ...settingsFromEnv(), handle: (delivery, context) => handleDelivery(delivery, { ...context, verify: trustEverything }) });
