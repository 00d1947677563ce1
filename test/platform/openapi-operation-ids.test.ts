/**
 * operationIds are what generated SDKs name their methods after: they are part of the contract, so
 * this list changes only on purpose (a rename breaks every merchant's generated client).
 */
import { expect, it } from "vitest";
import { openApiDocument } from "../openapi-check.js";

const OPERATION_IDS: Record<string, string> = {
  "GET /api/v1/wallet/balance": "getWalletBalance",
  "POST /api/v1/virtual-account/create": "createVirtualAccount",
  "GET /api/v1/virtual-account/{account_number}": "getVirtualAccount",
  "GET /api/v1/virtual-accounts": "listVirtualAccounts",
  "GET /api/v1/transaction/status": "getTransactionStatus",
  "POST /api/v1/checkout/create": "createCheckout",
  "GET /api/v1/checkout/status": "getCheckoutStatus",
  "GET /api/v1/payout/banks": "listBanks",
  "POST /api/v1/payout/verify-account": "verifyAccount",
  "POST /api/v1/payout/transfer": "createPayout",
  "GET /api/v1/payout/status": "getPayoutStatus",
  "POST /api/v1/vtu/airtime": "buyAirtime",
  "POST /api/v1/vtu/data": "buyData",
  "POST /api/v1/vtu/cable": "payCable",
  "POST /api/v1/vtu/electricity": "buyElectricity",
  "POST /api/v1/vtu/exam": "buyExamPins",
  "GET /api/v1/vtu/data-plans": "listDataPlans",
  "GET /api/v1/vtu/cable-plans": "listCablePlans",
  "GET /api/v1/vtu/discos": "listDiscos",
  "GET /api/v1/vtu/exam-types": "listExamTypes",
  "GET /api/v1/vtu/transaction/status": "getVtuTransactionStatus",
  "POST /api/v1/virtual-cards/cardholders": "createCardholder",
  "GET /api/v1/virtual-cards/cardholders/{id}": "getCardholder",
  "POST /api/v1/virtual-cards": "createVirtualCard",
  "GET /api/v1/virtual-cards": "listVirtualCards",
  "GET /api/v1/virtual-cards/{id}": "getVirtualCard",
  "POST /api/v1/virtual-cards/{id}/fund": "fundVirtualCard",
  "POST /api/v1/virtual-cards/{id}/unload": "unloadVirtualCard",
  "POST /api/v1/virtual-cards/{id}/freeze": "freezeVirtualCard",
  "POST /api/v1/virtual-cards/{id}/unfreeze": "unfreezeVirtualCard",
  "POST /api/v1/virtual-cards/{id}/terminate": "terminateVirtualCard",
  "GET /api/v1/virtual-cards/{id}/transactions": "listVirtualCardTransactions",
  "POST /sandbox/v1/merchants": "createMerchant",
  "DELETE /sandbox/v1/merchant": "deleteMerchant",
  "GET /sandbox/v1/merchant": "getMerchant",
  "PATCH /sandbox/v1/merchant": "updateMerchant",
  "POST /sandbox/v1/wallet/fund": "fundWallet",
  "GET /sandbox/v1/wallet/ledger": "listLedgerEntries",
  "POST /sandbox/v1/cardholders/{id}/approve": "approveCardholder",
  "POST /sandbox/v1/virtual-accounts/{account_number}/transfers": "simulateTransferIn",
  "POST /sandbox/v1/virtual-accounts/payments/{transaction_id}/clear": "clearVirtualAccountPayment",
  "POST /sandbox/v1/virtual-accounts/payments/{transaction_id}/fail": "failVirtualAccountPayment",
  "POST /sandbox/v1/payouts/{reference}/approve": "approvePayout",
  "POST /sandbox/v1/payouts/{reference}/reject": "rejectPayout",
  "POST /sandbox/v1/payouts/{reference}/complete": "completePayout",
  "POST /sandbox/v1/payouts/{reference}/fail": "failPayout",
  "POST /sandbox/v1/vtu/{reference}/succeed": "succeedVtuPurchase",
  "POST /sandbox/v1/vtu/{reference}/fail": "failVtuPurchase",
  "POST /sandbox/v1/checkout/{reference}/pay": "payCheckout",
  "GET /sandbox/v1/payouts": "listPayouts",
  "GET /sandbox/v1/vtu": "listVtuPurchases",
  "GET /sandbox/v1/checkout": "listCheckouts",
  "GET /sandbox/v1/virtual-accounts/payments": "listVirtualAccountPayments",
  "POST /sandbox/v1/virtual-cards/{id}/spend": "spendWithCard",
  "POST /sandbox/v1/outcomes": "createOutcomeRule",
  "GET /sandbox/v1/outcomes": "listOutcomeRules",
  "DELETE /sandbox/v1/outcomes": "deleteOutcomeRules",
  "DELETE /sandbox/v1/outcomes/{id}": "deleteOutcomeRule",
  "GET /sandbox/v1/clock": "getClock",
  "POST /sandbox/v1/clock/advance": "advanceClock",
  "POST /sandbox/v1/reset": "resetMerchant",
  "GET /sandbox/v1/incidents": "listIncidents",
  "GET /sandbox/v1/events": "listEvents",
  "GET /sandbox/v1/webhook-deliveries": "listWebhookDeliveries",
  "POST /sandbox/v1/events/{id}/redeliver": "redeliverEvent",
  "GET /sandbox/v1/snapshot": "exportSnapshot",
  "PUT /sandbox/v1/snapshot": "importSnapshot",
  "POST /sandbox/v1/scenarios": "loadScenario",
  // Integration checks
  "GET /sandbox/v1/checks": "getIntegrationChecks",
  "PUT /sandbox/v1/checks/credits": "reportCreditedTransactions",
  "DELETE /sandbox/v1/checks/credits": "clearCreditedTransactions",
  // The webhook doctor.
  "POST /sandbox/v1/webhooks/doctor": "runWebhookDoctor",
  // The dashboard's "Send test event".
  "POST /sandbox/v1/webhooks/test": "sendTestWebhook",
  // The request log.
  "GET /sandbox/v1/requests": "listRequests",
  "DELETE /sandbox/v1/requests": "clearRequests",
  "GET /sandbox/v1/requests/{seq}": "getRequest",
};

it("every operation has its stable camelCase operationId", () => {
  const doc = openApiDocument() as unknown as { paths: Record<string, Record<string, { operationId?: string }>> };
  const actual = Object.fromEntries(
    Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([m, op]) => [`${m.toUpperCase()} ${path}`, op.operationId])),
  );
  expect(actual).toEqual(OPERATION_IDS);
  for (const id of Object.values(OPERATION_IDS)) expect(id).toMatch(/^[a-z][a-zA-Z0-9]*$/);
});
