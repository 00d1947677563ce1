/**
 * What the OpenAPI document says about the virtual account routes: descriptions and examples. The
 * examples are a contract (src/http/openapi.ts, `Example`): each named request, sent to a fresh demo
 * merchant with its sample activity, gets the response of the same name. The bodies are real ones.
 */
import { DEMO_PAYMENTS } from "../../http/demo-examples.js";
import { errorExample, type Examples } from "../../http/openapi.js";

const AT = "2026-03-02T09:00:00.000Z";

/** The demo merchant's account (fixtures/demo-activity.json), as the API shows it. */
const ADA = {
  account_number: "5721596598",
  account_name: "Mama Put Foods Ltd-Ada Obi",
  bank_name: "Partner Bank (Sandbox)",
  customer_name: "Ada Obi",
  customer_email: "ada@example.com",
  customer_type: "individual",
  reference: "customer-ada",
  status: "Enabled",
  created_at: AT,
};

// ---- POST /virtual-account/create ---------------------------------------------------------------

export const CREATE_DESCRIPTION = `
Opens a dedicated NUBAN account at the partner bank for one customer. Any bank transfer into it is
credited to the merchant wallet at once and sends a \`payment.received\` webhook; no polling is needed.

**Fields by \`customer_type\`** (\`individual\` when left out):

| customer_type | Required | Optional | Identification used |
|---|---|---|---|
| \`individual\` | \`email\`, \`reference\`, \`bank\`, \`first_name\`, \`last_name\` | \`bvn\`, \`nin\` (11 digits each) | \`bvn\` if sent, else \`nin\`, else the merchant's own KYC BVN, else its KYC NIN; with none of them: 422 \`KYC_REQUIRED\` |
| \`business\` | \`email\`, \`reference\`, \`bank\`, \`business_name\`, \`cac_number\` | none: \`bvn\` and \`nin\` are refused (422 \`VALIDATION_ERROR\`) | always the \`cac_number\` sent (\`RC\` or \`BN\` followed by 1 to 8 digits, e.g. \`RC1234567\`); the merchant's BVN is never used |

- \`bank\` must be \`partnerbank\`, the only supported bank.
- \`reference\` (at most 100 characters) is chosen by the merchant, e.g. a customer id. Sending the same
  request again (same reference, customer type, email, name and identification) is a safe retry: it answers
  200 with the existing account and the message "Virtual account already exists". The same reference with
  another customer or identification is refused with 409 \`DUPLICATE_REFERENCE\`: the identity behind an
  account cannot be changed after creation.
- \`account_name\` is the merchant's business name and the customer's name joined by \`-\`.
- Every field that breaks its rule is reported in \`errors\` (422 \`VALIDATION_ERROR\`).

In the sandbox, accounts are opened at "Partner Bank (Sandbox)", a fictional bank (CBN code 999 for the
check digit) so that no sandbox number is mistaken for a real account. Simulate a customer's transfer into
an account with \`POST /sandbox/v1/virtual-accounts/{account_number}/transfers\`.
`.trim();

export const CREATE_BODY_EXAMPLES: Examples = {
  individual: {
    summary: "An individual customer, identified by their BVN",
    description: "Sent again, it answers 200 with the same account (\"Virtual account already exists\").",
    value: {
      customer_type: "individual",
      email: "chinedu.okafor@example.com",
      reference: "customer-chinedu",
      bank: "partnerbank",
      first_name: "Chinedu",
      last_name: "Okafor",
      bvn: "22298765432",
    },
  },
  business: {
    summary: "A business customer, identified by its CAC number",
    value: {
      customer_type: "business",
      email: "accounts@bukkahut.example.com",
      reference: "customer-bukka-hut",
      bank: "partnerbank",
      business_name: "Bukka Hut Restaurants Ltd",
      cac_number: "RC1234567",
    },
  },
  existingAccount: {
    summary: "The same request again (a safe retry)",
    description: "The demo merchant's own creation request for customer-ada, sent again: the existing account comes back.",
    value: {
      customer_type: "individual",
      email: "ada@example.com",
      reference: "customer-ada",
      bank: "partnerbank",
      first_name: "Ada",
      last_name: "Obi",
      bvn: "22212345678",
    },
  },
  duplicateReference: {
    summary: "A reference already used for another customer",
    value: {
      customer_type: "individual",
      email: "ada@example.com",
      reference: "customer-ada",
      bank: "partnerbank",
      first_name: "Adaeze",
      last_name: "Obi",
      bvn: "22212345678",
    },
  },
};

export const CREATE_RESPONSE_EXAMPLES: Examples = {
  individual: {
    summary: "A new account for an individual",
    value: {
      success: true,
      message: "Virtual account created successfully",
      data: {
        account_number: "8771511476",
        account_name: "Mama Put Foods Ltd-Chinedu Okafor",
        bank_name: "Partner Bank (Sandbox)",
        customer_name: "Chinedu Okafor",
        customer_email: "chinedu.okafor@example.com",
        customer_type: "individual",
        reference: "customer-chinedu",
        status: "Enabled",
        created_at: AT,
      },
    },
  },
  business: {
    summary: "A new account for a business",
    value: {
      success: true,
      message: "Virtual account created successfully",
      data: {
        account_number: "8771511476",
        account_name: "Mama Put Foods Ltd-Bukka Hut Restaurants Ltd",
        bank_name: "Partner Bank (Sandbox)",
        customer_name: "Bukka Hut Restaurants Ltd",
        customer_email: "accounts@bukkahut.example.com",
        customer_type: "business",
        reference: "customer-bukka-hut",
        status: "Enabled",
        created_at: AT,
      },
    },
  },
  existingAccount: {
    summary: "The existing account, unchanged",
    value: { success: true, message: "Virtual account already exists", data: ADA },
  },
};

export const CREATE_ERRORS = {
  409: {
    duplicateReference: errorExample(
      "The reference is taken by another customer or identity",
      "DUPLICATE_REFERENCE",
      "A virtual account with reference customer-ada already exists for another customer or identity; the identity behind an account cannot be changed.",
    ),
  },
  422: {
    validationError: errorExample("Fields break their rules (every field is reported)", "VALIDATION_ERROR", "The given data was invalid.", {
      errors: {
        email: ["Must be a valid email address."],
        bank: ["The only supported bank is partnerbank."],
        last_name: ["The last_name field is required."],
        bvn: ["Must be exactly 11 digits."],
      },
    }),
    businessWithBvn: errorExample("A business sent with bvn and a bad cac_number", "VALIDATION_ERROR", "The given data was invalid.", {
      errors: {
        cac_number: ["Must start with RC or BN followed by digits, e.g. RC1234567."],
        bvn: ["The bvn field is accepted for individual customers only."],
      },
    }),
    kycRequired: errorExample(
      "An individual without bvn or nin, for a merchant with no KYC of its own",
      "KYC_REQUIRED",
      "No identification for this customer: send bvn or nin, or complete the merchant's own KYC (BVN or NIN).",
    ),
  },
};

// ---- GET /virtual-account/{account_number} -------------------------------------------------------

export const GET_DESCRIPTION = `
One of the merchant's virtual accounts, by its 10-digit \`account_number\`. An account number the merchant
does not hold (unknown, or another merchant's) answers 404 \`NOT_FOUND\`.
`.trim();

export const GET_PARAM_EXAMPLES: Examples = {
  virtualAccount: { summary: "The demo merchant's account for customer-ada", value: "5721596598" },
  notFound: { summary: "An account number the merchant does not hold", value: "1234567890" },
};

export const GET_RESPONSE_EXAMPLES: Examples = {
  virtualAccount: { summary: "The account", value: { success: true, data: ADA } },
};

export const GET_ERRORS = {
  404: { notFound: errorExample("No such account for this merchant", "NOT_FOUND", "No virtual account 1234567890.") },
  422: {
    validationError: errorExample("An account number over 20 characters", "VALIDATION_ERROR", "The given data was invalid.", {
      errors: { account_number: ["Must be at most 20 characters."] },
    }),
  },
};

// ---- GET /virtual-accounts -----------------------------------------------------------------------

export const LIST_DESCRIPTION = `
Every virtual account the merchant has created, oldest first, in one array: the sandbox does not page this list.
`.trim();

export const LIST_RESPONSE_EXAMPLES: Examples = {
  virtualAccounts: { summary: "The demo merchant's one account", value: { success: true, data: [ADA] } },
};

// ---- GET /transaction/status ---------------------------------------------------------------------

export const STATUS_DESCRIPTION = `
The transaction status record of a transfer into one of the merchant's virtual accounts, looked up by
\`reference\`: the payer's transfer narration exactly as the payer's bank sent it (compared as is, case and
spaces included; URL-encode it, \`+\` included). It is 1 to 500 characters here: a transfer whose narration was
empty cannot be looked up by reference, so keep its \`transaction_id\` from the \`payment.received\` webhook.

A narration is free text and not unique: two payments can carry the same one, and this endpoint returns the
**most recent** payment with that reference. Match payments to your records with \`transaction_id\` (the
same value as the \`payment.received\` webhook's), never with \`reference\`. No payment with that reference:
404 \`NOT_FOUND\`.

\`status\` is the spec's: \`success\` (credited to the wallet), \`pending\` or \`processing\` (the transfer has
arrived but is not credited yet; poll again, or wait for \`payment.received\`), \`failed\` (returned to the payer,
never credited: no webhook is sent). In the sandbox a transfer is \`success\` at once unless the control API or a
scenario made it arrive \`pending\` or \`processing\` (POST /sandbox/v1/virtual-accounts/{account_number}/transfers).
Demo merchant: \`Order 1001\` is \`success\`, \`Order 1003\` is \`pending\`.
`.trim();

export const STATUS_PARAM_EXAMPLES: Examples = {
  payment: { summary: "The narration of the demo merchant's sample transfer", value: "Order 1001" },
  pending: { summary: "The narration of the demo merchant's transfer that is still pending", value: "Order 1003" },
  notFound: { summary: "A narration no transfer carried", value: "Order 9999" },
};

export const STATUS_RESPONSE_EXAMPLES: Examples = {
  payment: { summary: "A transfer of NGN 5,000 into the demo account", value: { success: true, data: DEMO_PAYMENTS.cleared } },
  pending: { summary: "A transfer of NGN 2,500 that has arrived but is not credited yet", value: { success: true, data: DEMO_PAYMENTS.pending() } },
};

export const STATUS_ERRORS = {
  404: { notFound: errorExample("No transfer carried this narration", "NOT_FOUND", "No transaction with reference Order 9999.") },
  422: {
    validationError: errorExample("No reference sent", "VALIDATION_ERROR", "The given data was invalid.", {
      errors: { reference: ["The reference field is required."] },
    }),
  },
};
