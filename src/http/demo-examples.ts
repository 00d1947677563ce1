/**
 * The demo merchant as the OpenAPI examples show it: the deterministic objects its sample activity
 * (fixtures/demo-activity.json) makes on every start, which path and query examples name, the ids it
 * makes next, and the records shared by more than one operation's examples.
 * test/platform/openapi-examples.test.ts proves the values against a fresh demo merchant.
 */
import { newMerchantConfig } from "../domain/merchant.js";

/** The demo merchant's objects. */
export const DEMO = {
  merchantId: "mch_demo",
  virtualAccount: "5721596598",
  /** The transfer into it that is still pending (narration `Sample order 1003`), by its transaction_id. */
  pendingPayment: "TXN_32WJPO77L0TUWTZ5",
  checkout: "CHK_EIHCVSQ8DN0DMC5D",
  heldPayout: "sample-payout-held",
  processingPayout: "sample-payout-processing",
  vtu: "VTU_4FI280WZB7U0CVYV",
  event: "EVT_48GKWQH95ZQU17A9",
  rule: "rule_1",
} as const;

/**
 * What names each object of the sample activity as sample (its reference, narration, description,
 * label or email), so that no request of the docs or of a user's own code collides with one.
 */
export const SAMPLE = {
  /** The prefix of every reference the sample activity chooses. */
  prefix: "sample-",
  virtualAccountReference: "sample-customer-ada",
  /** The virtual account's customer and the approved cardholder. */
  email: "sample.ada@example.com",
  /** The cardholder whose KYC stays pending (an email starting `pending+`). */
  pendingEmail: "pending+sample.kemi@example.com",
  checkoutDescription: "Sample: jollof rice for two",
  clearedNarration: "Sample order 1001",
  pendingNarration: "Sample order 1003",
  heldNarration: "Sample supplier settlement",
  processingNarration: "Sample refund for order 1001",
  /** Cards 1 (funded), 2 (frozen) and 3. */
  cardLabels: ["Sample ads spend", "Sample subscriptions", "Sample old travel card"],
  /** The reference its outcome rule fails at settlement. */
  failingReference: "sample-will-fail",
} as const;

/** The demo merchant's wallet balance in Naira once its sample activity has run, as GET /api/v1/wallet/balance shows it. */
export const DEMO_BALANCE = 836850;

/**
 * The demo merchant's request log after its sample activity, every entry labelled `sample`: seq,
 * operationId, path, status, objects touched. A name enquiry comes before each payout.
 */
export const DEMO_LOG = [
  [1, "createVirtualAccount", "/api/v1/virtual-account/create", 200, [["virtual_account", DEMO.virtualAccount]]],
  [2, "createCheckout", "/api/v1/checkout/create", 200, [["checkout", DEMO.checkout]]],
  [3, "verifyAccount", "/api/v1/payout/verify-account", 200, []],
  [4, "createPayout", "/api/v1/payout/transfer", 201, [["payout", DEMO.heldPayout]]],
  [5, "verifyAccount", "/api/v1/payout/verify-account", 200, []],
  [6, "createPayout", "/api/v1/payout/transfer", 201, [["payout", DEMO.processingPayout]]],
  [7, "buyAirtime", "/api/v1/vtu/airtime", 200, [["vtu", "TXN_N408IIWLSHCFE7TA"]]],
  [8, "createCardholder", "/api/v1/virtual-cards/cardholders", 200, [["cardholder", "1"]]],
  [9, "createVirtualCard", "/api/v1/virtual-cards", 200, [["card", "1"]]],
  [10, "fundVirtualCard", "/api/v1/virtual-cards/1/fund", 200, [["card", "1"], ["card_transaction", "TXN_IEFKR5ZGCF1RYSW5"]]],
  [11, "createVirtualCard", "/api/v1/virtual-cards", 200, [["card", "2"]]],
  [12, "freezeVirtualCard", "/api/v1/virtual-cards/2/freeze", 200, [["card", "2"]]],
  [13, "createVirtualCard", "/api/v1/virtual-cards", 200, [["card", "3"]]],
  [14, "createCardholder", "/api/v1/virtual-cards/cardholders", 200, [["cardholder", "2"]]],
] as const;

/** The seqs of the demo log's requests to `operation`, oldest first. */
export const demoSeqs = (operation: (typeof DEMO_LOG)[number][1]) => DEMO_LOG.filter((r) => r[1] === operation).map((r) => r[0]);

/** The time every example shows: the demo merchant's clock when its sample activity ran. */
export const AT = "2026-03-02T09:00:00.000Z";

/** The demo merchant's settings (fixtures/merchants.json), made by the rules that make every merchant. */
export const DEMO_CONFIG = newMerchantConfig(
  { merchant_id: DEMO.merchantId, api_key: "pk_test_demo_4b1f0c9e7a2d46d1", api_secret: "sk_test_demo_9f3e2a7c5b8d4e61a0c2", webhook_secret: "whsec_demo_2c7e9a1f4b6d8e03" },
  { business_name: "Mama Put Foods Ltd", kyc: { bvn: "22212345678", nin: null }, webhook_capture: { fail_first: 0 } },
  "realtime",
  Date.parse(AT),
);

/**
 * The random part of the next identifiers a fresh demo merchant makes, in order: the first new id of a
 * request (a CHK_, PAYOUT_ or VTU_ reference, a lever's TXN_) ends in the first, the id made after it
 * (the TXN_ or PO_ beside that reference) in the second.
 */
const DEMO_NEXT_IDS = ["66WQ301SA53A0KGZ", "DDZRIHPSULSJ8HKV"] as const;

/** The demo merchant's next new identifier with `prefix`: `demoNextId("CHK")` is the reference of the next payment link. */
export const demoNextId = (prefix: string, nth: 0 | 1 = 0) => `${prefix}_${DEMO_NEXT_IDS[nth]}`;

/** The demo's payout that stays processing (account ending 0002), as POST /api/v1/payout/transfer answered it. */
export const DEMO_PROCESSING_PAYOUT = {
  reference: DEMO.processingPayout,
  amount: 5000,
  fee: 50,
  total_deducted: 5050,
  net_amount: 5000,
  order_no: "PO_W9B8N1Q40ZEZ82JA",
  transaction_id: "PO_W9B8N1Q40ZEZ82JA",
  status: "processing",
  account: "****0002",
  account_name: "ALIYU BABAJIDE",
  bank_name: "Guaranty Trust Bank",
  narration: SAMPLE.processingNarration,
  created_at: AT,
};

/**
 * The demo's payout held for review (at or above the review threshold), as POST /api/v1/payout/transfer
 * answered it: the same bank and time as the one processing.
 */
export const DEMO_HELD_PAYOUT = {
  ...DEMO_PROCESSING_PAYOUT,
  reference: DEMO.heldPayout,
  amount: 1500000,
  fee: 1000,
  total_deducted: 1501000,
  net_amount: 1500000,
  order_no: "PO_V4MUVUIU0KL3C47G",
  transaction_id: "PO_V4MUVUIU0KL3C47G",
  status: "pending_approval",
  account: "****3003",
  account_name: "ADEYEMI IBRAHIM IFEOMA",
  narration: SAMPLE.heldNarration,
};

/** The base URL of links in examples: the sandbox as `npm start` serves it. */
export const EXAMPLE_BASE_URL = "http://127.0.0.1:4010";

/** The demo payment link's record (GET /api/v1/checkout/status), pending or paid at AT. */
export const demoCheckoutRecord = (status: "pending" | "paid") => ({
  reference: DEMO.checkout,
  transaction_id: "TXN_I2RP4Z8D7JHGS3FK",
  order_no: "TXN_I2RP4Z8D7JHGS3FK",
  status,
  amount: 12500,
  currency: "NGN",
  description: SAMPLE.checkoutDescription,
  customer_email: SAMPLE.email,
  customer_name: null,
  redirect_url: null,
  account_number: "5836420702",
  account_name: "Mama Put Foods Ltd Checkout",
  bank_name: "Partner Bank (Sandbox)",
  created_at: AT,
  expires_at: "2026-03-02T09:30:00.000Z",
  paid_at: status === "paid" ? AT : null,
  payment_link: `${EXAMPLE_BASE_URL}/pay/${DEMO.checkout}`,
  checkout_url: `${EXAMPLE_BASE_URL}/processor/checkout/${DEMO.checkout}`,
});

/** A payment into the demo's virtual account, as its transaction status record shows it (GET /api/v1/transaction/status). */
export const demoPaymentRecord = (reference: string, amount: number, status: string, payer_name: string, payer_bank: string, transaction_id: string) => ({
  reference,
  amount,
  currency: "NGN",
  status,
  payer_name,
  payer_bank,
  virtual_account: DEMO.virtualAccount,
  transaction_id,
  created_at: AT,
});

/** The demo's two payments: `Sample order 1001` cleared at once, `Sample order 1003` still pending (for a day of sim time). */
export const DEMO_PAYMENTS = {
  cleared: demoPaymentRecord(SAMPLE.clearedNarration, 5000, "success", "OKAFOR CHINEDU EMMANUEL", "Guaranty Trust Bank", "TXN_1TFI4AI7WX9S54YS"),
  pending: (status = "pending") => demoPaymentRecord(SAMPLE.pendingNarration, 2500, status, "OBI ADAEZE", "Access Bank", DEMO.pendingPayment),
};

/** The data of the demo's payment.received event (its cleared payment), as the webhook carries it, in that order. */
export const DEMO_PAYMENT_RECEIVED = {
  reference: DEMO_PAYMENTS.cleared.reference,
  amount: DEMO_PAYMENTS.cleared.amount,
  currency: "NGN",
  virtual_account: DEMO.virtualAccount,
  payer_name: DEMO_PAYMENTS.cleared.payer_name,
  payer_bank: DEMO_PAYMENTS.cleared.payer_bank,
  transaction_id: DEMO_PAYMENTS.cleared.transaction_id,
  status: "successful",
};
