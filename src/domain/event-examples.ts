/**
 * One example delivery of each event, as the sandbox sends it (tests check each against its payload
 * schema): the OpenAPI document's webhook examples and the README's.
 */
import type { EventType } from "./event-records.js";
import { TEST_EVENT_MESSAGE } from "./events.js";

const at = "2026-03-02T09:00:30.000Z";

export const EVENT_EXAMPLES: Record<EventType, { event: EventType; nonce: string; sent_at: string; data: Record<string, unknown> }> = {
  "payment.received": {
    event: "payment.received",
    nonce: "9f0c1d2e3a4b5c6d7e8f90a1b2c3d4e5",
    sent_at: at,
    data: {
      reference: "Order 1001",
      amount: 5000,
      currency: "NGN",
      virtual_account: "1234567890",
      payer_name: "OKAFOR CHINEDU EMMANUEL",
      payer_bank: "Guaranty Trust Bank",
      transaction_id: "TXN_7Q2M4K9P1X6B3N8D",
      status: "successful",
    },
  },
  "checkout.completed": {
    event: "checkout.completed",
    nonce: "0a1b2c3d4e5f60718293a4b5c6d7e8f9",
    sent_at: at,
    data: {
      reference: "CHK_4F8J2L6N0R3T7V1X",
      amount: 12500,
      currency: "NGN",
      description: "Jollof rice for two",
      customer_email: "ada@example.com",
      customer_name: null,
      account_number: "2345678901",
      paid_at: at,
      transaction_id: "TXN_5H9K3M7P1R4T8W2Z",
      order_no: "TXN_5H9K3M7P1R4T8W2Z",
      status: "successful",
    },
  },
  "payout.completed": {
    event: "payout.completed",
    nonce: "1b2c3d4e5f60718293a4b5c6d7e8f90a",
    sent_at: at,
    data: {
      reference: "payout-1001",
      amount: 5000,
      fee: 50,
      total_deducted: 5050,
      net_amount: 5000,
      currency: "NGN",
      account: "****6785",
      account_name: "EZE SEGUN FOLAKE",
      bank_name: "Guaranty Trust Bank",
      narration: "Refund for order 1001",
      created_at: "2026-03-02T09:00:00.000Z",
      processed_at: at,
      error: null,
      transaction_id: "PO_2C6G0K4M8Q2S6U0W",
      order_no: "PO_2C6G0K4M8Q2S6U0W",
      status: "completed",
    },
  },
  "payout.failed": {
    event: "payout.failed",
    nonce: "2c3d4e5f60718293a4b5c6d7e8f90a1b",
    sent_at: at,
    data: {
      reference: "payout-1002",
      amount: 5000,
      fee: 50,
      total_deducted: 5050,
      net_amount: 5000,
      currency: "NGN",
      account: "****0001",
      account_name: "BELLO HALIMA",
      bank_name: "Guaranty Trust Bank",
      narration: null,
      created_at: "2026-03-02T09:00:00.000Z",
      processed_at: at,
      error: "Transfer failed at the beneficiary bank",
      transaction_id: "PO_3D7H1L5N9R3T7X1Z",
      order_no: "PO_3D7H1L5N9R3T7X1Z",
      status: "failed",
    },
  },
  "webhook.test": {
    event: "webhook.test",
    nonce: "3d4e5f60718293a4b5c6d7e8f90a1b2c",
    sent_at: at,
    data: {
      transaction_id: "TEST_8K2M6P0R4T8W2Y6A",
      status: "test",
      message: TEST_EVENT_MESSAGE,
    },
  },
};
