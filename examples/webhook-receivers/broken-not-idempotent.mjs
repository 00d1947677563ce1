// A BROKEN webhook receiver, to show what the webhook doctor catches: it credits every delivery,
// so an event delivered twice (a retry after a lost answer, a duplicate) is paid twice. The doctor
// fails it on duplicate_delivery when it is given the records view (--records-url), and on nothing else.
//
// Run:   WEBHOOK_SECRET=whsec_... PORT=3001 node examples/webhook-receivers/broken-not-idempotent.mjs
// Grade: merchant-sandbox doctor --endpoint http://127.0.0.1:3001/webhooks --secret whsec_... \
//          --records-url http://127.0.0.1:3001/credited
import { createLedger, handleDelivery, settingsFromEnv, startReceiver } from "./receiver.mjs";

const ledger = createLedger();
// The mistake: crediting without looking for the transaction_id among earlier credits.
const creditEveryTime = { ...ledger, creditOnce: (transactionId) => (ledger.credit(transactionId), true) };

startReceiver({ ...settingsFromEnv(), ledger, handle: (delivery, context) => handleDelivery(delivery, { ...context, ledger: creditEveryTime }) });
