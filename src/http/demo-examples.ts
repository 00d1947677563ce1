/**
 * The demo merchant as the OpenAPI examples show it: the deterministic objects its sample activity
 * (fixtures/demo-activity.json) makes on every start, which path and query examples name, and the
 * records shared by more than one operation's examples. test/platform/openapi-examples.test.ts proves
 * the ids against a fresh demo merchant.
 */

/** The demo merchant's objects. */
export const DEMO = {
  merchantId: "mch_demo",
  virtualAccount: "5721596598",
  /** The transfer into it that is still pending (narration `Order 1003`), by its transaction_id. */
  pendingPayment: "TXN_32WJPO77L0TUWTZ5",
  checkout: "CHK_EIHCVSQ8DN0DMC5D",
  heldPayout: "demo-payout-held",
  processingPayout: "demo-payout-processing",
  vtu: "VTU_4FI280WZB7U0CVYV",
  event: "EVT_48GKWQH95ZQU17A9",
  rule: "rule_1",
} as const;

/** The time every example shows: the demo merchant's clock when its sample activity ran. */
export const AT = "2026-03-02T09:00:00.000Z";

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
  narration: "Refund for order 1001",
  created_at: AT,
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
  description: "Jollof rice for two",
  customer_email: "ada@example.com",
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

/** The demo's two payments: `Order 1001` cleared at once, `Order 1003` still pending (for a day of sim time). */
export const DEMO_PAYMENTS = {
  cleared: demoPaymentRecord("Order 1001", 5000, "success", "OKAFOR CHINEDU EMMANUEL", "Guaranty Trust Bank", "TXN_1TFI4AI7WX9S54YS"),
  pending: (status = "pending") => demoPaymentRecord("Order 1003", 2500, status, "OBI ADAEZE", "Access Bank", DEMO.pendingPayment),
};
