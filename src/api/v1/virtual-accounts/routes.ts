/**
 * The virtual accounts' contract: each operation whole, as the OpenAPI document publishes it. Bounds
 * and the partner bank are read from the domain (limits.ts, bounds.ts, catalog.ts); each named request
 * example, sent to a fresh demo merchant with its sample activity, gets the response of the same name.
 */
import { z } from "@hono/zod-openapi";
import { MAX_NARRATION } from "../../../domain/bounds.js";
import { PARTNER_BANK } from "../../../domain/catalog.js";
import { digits, email, isoTime, text } from "../../../domain/fields.js";
import { ACCOUNT_LOOKUP_MAX, CAC_DIGITS, IDENTIFIER_DIGITS, VIRTUAL_ACCOUNT_REFERENCE_MAX } from "../../../domain/limits.js";
import { thousands } from "../../../domain/money.js";
import { TransactionStatus } from "../../../domain/va-payments.js";
import { AT, DEMO, DEMO_PAYMENTS, SAMPLE } from "../../../http/demo-examples.js";
import { body, errorExample, errors, examples, json } from "../../../http/openapi.js";
import { routes, Success } from "../../../http/route.js";

const route = routes({ tags: ["Virtual accounts"] });

/** What creation answers: a new account, or the existing one for a repeated request. */
export const MESSAGES = { created: "Virtual account created successfully", exists: "Virtual account already exists" } as const;

// ---- Schemas -------------------------------------------------------------------------------------

/** Identity fields refused for a business: the spec marks bvn and nin "individual only". */
const individualOnly = (field: string) =>
  z
    .unknown()
    .refine((v) => v === undefined, { message: `The ${field} field is accepted for individual customers only.` })
    .openapi({ not: {}, description: "Individual customers only: not accepted for a business." });

const common = {
  email,
  reference: text(VIRTUAL_ACCOUNT_REFERENCE_MAX).openapi({
    description: "Chosen by the merchant (an order or customer id). The same request again returns the existing account.",
  }),
  bank: z.literal(PARTNER_BANK.key, { message: `The only supported bank is ${PARTNER_BANK.key}.` }).openapi({ description: "The only supported bank." }),
};

/**
 * The spec's table, as two shapes: an individual (the default when customer_type is left out) needs
 * first_name and last_name and may give bvn or nin; a business needs business_name and cac_number,
 * and gives no bvn or nin. Generated clients and validators refuse what the sandbox refuses.
 */
const Individual = z
  .object({
    customer_type: z.literal("individual", { message: 'Must be "individual" or "business".' }).optional().openapi({ description: "Default: individual" }),
    ...common,
    first_name: text(100),
    last_name: text(100),
    bvn: digits(IDENTIFIER_DIGITS.bvn)
      .optional()
      .openapi({ description: `${IDENTIFIER_DIGITS.bvn} digits. Identification used: bvn, else nin, else the merchant's own KYC BVN, else its KYC NIN.` }),
    nin: digits(IDENTIFIER_DIGITS.nin).optional().openapi({ description: `${IDENTIFIER_DIGITS.nin} digits` }),
  })
  .openapi("IndividualVirtualAccount");

const CAC_EXAMPLE = "RC1234567";

const Business = z
  .object({
    customer_type: z.literal("business", { message: 'Must be "individual" or "business".' }),
    ...common,
    business_name: text(200).openapi({ description: "Registered name as on the business registration certificate" }),
    cac_number: z
      .string()
      .trim()
      // No regex flags: the pattern is also the OpenAPI document's, and JSON Schema has no flags.
      .regex(new RegExp(`^([Rr][Cc]|[Bb][Nn])\\d{${CAC_DIGITS.min},${CAC_DIGITS.max}}$`), {
        message: `Must start with RC or BN followed by digits, e.g. ${CAC_EXAMPLE}.`,
      })
      .openapi({ description: "RC or BN followed by digits; the identification used for a business" }),
    bvn: individualOnly("bvn").optional(),
    nin: individualOnly("nin").optional(),
  })
  .openapi("BusinessVirtualAccount");

export const CreateVirtualAccount = z.union([Individual, Business]).openapi("CreateVirtualAccount");

const VirtualAccount = z
  .object({
    account_number: z.string(),
    account_name: z.string(),
    bank_name: z.string(),
    customer_name: z.string(),
    customer_email: z.string(),
    customer_type: z.enum(["individual", "business"]),
    reference: z.string(),
    status: z.literal("Enabled"),
    created_at: isoTime,
  })
  .openapi("VirtualAccount");

// ---- Examples shared by the operations -----------------------------------------------------------

/** The demo merchant's account (fixtures/demo-activity.json), as the API shows it. */
const ADA = {
  account_number: DEMO.virtualAccount,
  account_name: "Mama Put Foods Ltd-Ada Obi",
  bank_name: PARTNER_BANK.bank_name,
  customer_name: "Ada Obi",
  customer_email: SAMPLE.email,
  customer_type: "individual",
  reference: SAMPLE.virtualAccountReference,
  status: "Enabled",
  created_at: AT,
};

/** A new account as creation answers it: the next number the demo merchant's seeded ids give. */
const created = (customer_type: "individual" | "business", customer_name: string, customer_email: string, reference: string) => ({
  success: true,
  message: MESSAGES.created,
  data: {
    account_number: "2465795191",
    account_name: `Mama Put Foods Ltd-${customer_name}`,
    bank_name: PARTNER_BANK.bank_name,
    customer_name,
    customer_email,
    customer_type,
    reference,
    status: "Enabled",
    created_at: AT,
  },
});

/** The demo merchant's own creation request for its sample account (its sample activity made it). */
const ADA_REQUEST = {
  customer_type: "individual",
  email: SAMPLE.email,
  reference: SAMPLE.virtualAccountReference,
  bank: PARTNER_BANK.key,
  first_name: "Ada",
  last_name: "Obi",
  bvn: "22212345678",
};

export const create = route({
  method: "post",
  path: "/virtual-account/create",
  operationId: "createVirtualAccount",
  summary: "Create a virtual account",
  description: `
Opens a dedicated NUBAN account at the partner bank for one customer. Any bank transfer into it is
credited to the merchant wallet at once and sends a \`payment.received\` webhook; no polling is needed.

**Fields by \`customer_type\`** (\`individual\` when left out):

| customer_type | Required | Optional | Identification used |
|---|---|---|---|
| \`individual\` | \`email\`, \`reference\`, \`bank\`, \`first_name\`, \`last_name\` | \`bvn\`, \`nin\` (${IDENTIFIER_DIGITS.bvn} digits each) | \`bvn\` if sent, else \`nin\`, else the merchant's own KYC BVN, else its KYC NIN; with none of them: 422 \`KYC_REQUIRED\` |
| \`business\` | \`email\`, \`reference\`, \`bank\`, \`business_name\`, \`cac_number\` | none: \`bvn\` and \`nin\` are refused (422 \`VALIDATION_ERROR\`) | always the \`cac_number\` sent (\`RC\` or \`BN\` followed by ${CAC_DIGITS.min} to ${CAC_DIGITS.max} digits, e.g. \`${CAC_EXAMPLE}\`); the merchant's BVN is never used |

- \`bank\` must be \`${PARTNER_BANK.key}\`, the only supported bank.
- \`reference\` (at most ${VIRTUAL_ACCOUNT_REFERENCE_MAX} characters) is chosen by the merchant, e.g. a customer id. Sending the same
  request again (same reference, customer type, email, name and identification) is a safe retry: it answers
  200 with the existing account and the message "${MESSAGES.exists}". The same reference with
  another customer or identification is refused with 409 \`DUPLICATE_REFERENCE\`: the identity behind an
  account cannot be changed after creation.
- \`account_name\` is the merchant's business name and the customer's name joined by \`-\`.
- Every field that breaks its rule is reported in \`errors\` (422 \`VALIDATION_ERROR\`).

In the sandbox, accounts are opened at "${PARTNER_BANK.bank_name}", a fictional bank (CBN code ${PARTNER_BANK.cbn_code} for the
check digit) so that no sandbox number is mistaken for a real account. Simulate a customer's transfer into
an account with \`POST /sandbox/v1/virtual-accounts/{account_number}/transfers\`.
`.trim(),
  request: body(CreateVirtualAccount, {
    individual: {
      summary: "An individual customer, identified by their BVN",
      description: `Sent again, it answers 200 with the same account ("${MESSAGES.exists}").`,
      value: {
        customer_type: "individual",
        email: "chinedu.okafor@example.com",
        reference: "customer-chinedu",
        bank: PARTNER_BANK.key,
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
        bank: PARTNER_BANK.key,
        business_name: "Bukka Hut Restaurants Ltd",
        cac_number: CAC_EXAMPLE,
      },
    },
    existingAccount: {
      summary: "The same request again (a safe retry)",
      description: `The demo merchant's own creation request for ${SAMPLE.virtualAccountReference}, sent again: the existing account comes back.`,
      value: ADA_REQUEST,
    },
    duplicateReference: { summary: "A reference already used for another customer", value: { ...ADA_REQUEST, first_name: "Adaeze" } },
  }),
  responses: {
    200: json(Success({ message: z.string(), data: VirtualAccount }), "The new account, or the existing one when the same request is repeated", {
      individual: {
        summary: "A new account for an individual",
        value: created("individual", "Chinedu Okafor", "chinedu.okafor@example.com", "customer-chinedu"),
      },
      business: {
        summary: "A new account for a business",
        value: created("business", "Bukka Hut Restaurants Ltd", "accounts@bukkahut.example.com", "customer-bukka-hut"),
      },
      existingAccount: { summary: "The existing account, unchanged", value: { success: true, message: MESSAGES.exists, data: ADA } },
    }),
    ...errors({
      409: {
        duplicateReference: errorExample(
          "The reference is taken by another customer or identity",
          "DUPLICATE_REFERENCE",
          `A virtual account with reference ${SAMPLE.virtualAccountReference} already exists for another customer or identity; the identity behind an account cannot be changed.`,
        ),
      },
      422: {
        validationError: errorExample("Fields break their rules (every field is reported)", "VALIDATION_ERROR", "The given data was invalid.", {
          errors: {
            email: ["Must be a valid email address."],
            bank: [`The only supported bank is ${PARTNER_BANK.key}.`],
            last_name: ["The last_name field is required."],
            bvn: [`Must be exactly ${IDENTIFIER_DIGITS.bvn} digits.`],
          },
        }),
        businessWithBvn: errorExample("A business sent with bvn and a bad cac_number", "VALIDATION_ERROR", "The given data was invalid.", {
          errors: {
            cac_number: [`Must start with RC or BN followed by digits, e.g. ${CAC_EXAMPLE}.`],
            bvn: ["The bvn field is accepted for individual customers only."],
          },
        }),
        kycRequired: errorExample(
          "An individual without bvn or nin, for a merchant with no KYC of its own",
          "KYC_REQUIRED",
          "No identification for this customer: send bvn or nin, or complete the merchant's own KYC (BVN or NIN).",
        ),
      },
    }),
  },
});

export const getOne = route({
  method: "get",
  path: "/virtual-account/{account_number}",
  operationId: "getVirtualAccount",
  summary: "Get a virtual account",
  description: `
One of the merchant's virtual accounts, by its ${IDENTIFIER_DIGITS.account_number}-digit \`account_number\`. An account number the merchant
does not hold (unknown, or another merchant's) answers 404 \`NOT_FOUND\`.
`.trim(),
  request: {
    params: z.object({
      account_number: examples(z.string().max(ACCOUNT_LOOKUP_MAX, { message: `Must be at most ${ACCOUNT_LOOKUP_MAX} characters.` }), {
        virtualAccount: { summary: `The demo merchant's account for ${SAMPLE.virtualAccountReference}`, value: DEMO.virtualAccount },
        notFound: { summary: "An account number the merchant does not hold", value: "1234567890" },
      }),
    }),
  },
  responses: {
    200: json(Success({ data: VirtualAccount }), "The account", { virtualAccount: { summary: "The account", value: { success: true, data: ADA } } }),
    ...errors({
      404: { notFound: errorExample("No such account for this merchant", "NOT_FOUND", "No virtual account 1234567890.") },
      422: {
        validationError: errorExample(`An account number over ${ACCOUNT_LOOKUP_MAX} characters`, "VALIDATION_ERROR", "The given data was invalid.", {
          errors: { account_number: [`Must be at most ${ACCOUNT_LOOKUP_MAX} characters.`] },
        }),
      },
    }),
  },
});

export const list = route({
  method: "get",
  path: "/virtual-accounts",
  operationId: "listVirtualAccounts",
  summary: "List the merchant's virtual accounts",
  description: `
Every virtual account the merchant has created, oldest first, in one array: the sandbox does not page this list.
`.trim(),
  responses: {
    200: json(Success({ data: z.array(VirtualAccount) }), "All accounts, oldest first", {
      virtualAccounts: { summary: "The demo merchant's one account", value: { success: true, data: [ADA] } },
    }),
    ...errors(),
  },
});

/** The demo merchant's two transfers, which the examples look up. */
const cleared = DEMO_PAYMENTS.cleared;
const pending = DEMO_PAYMENTS.pending();

export const status = route({
  method: "get",
  path: "/transaction/status",
  operationId: "getTransactionStatus",
  summary: "Status of a virtual account payment by reference (the payer's narration)",
  description: `
The transaction status record of a transfer into one of the merchant's virtual accounts, looked up by
\`reference\`: the payer's transfer narration exactly as the payer's bank sent it (compared as is, case and
spaces included; URL-encode it, \`+\` included). It is 1 to ${MAX_NARRATION} characters here: a transfer whose narration was
empty cannot be looked up by reference, so keep its \`transaction_id\` from the \`payment.received\` webhook.

A narration is free text and not unique: two payments can carry the same one, and this endpoint returns the
**most recent** payment with that reference. Match payments to your records with \`transaction_id\` (the
same value as the \`payment.received\` webhook's), never with \`reference\`. No payment with that reference:
404 \`NOT_FOUND\`.

\`status\` is the spec's: \`success\` (credited to the wallet), \`pending\` or \`processing\` (the transfer has
arrived but is not credited yet; poll again, or wait for \`payment.received\`), \`failed\` (returned to the payer,
never credited: no webhook is sent). In the sandbox a transfer is \`success\` at once unless the control API or a
scenario made it arrive \`pending\` or \`processing\` (POST /sandbox/v1/virtual-accounts/{account_number}/transfers).
Demo merchant: \`${cleared.reference}\` is \`${cleared.status}\`, \`${pending.reference}\` is \`${pending.status}\`.
`.trim(),
  request: {
    query: z.object({
      reference: examples(
        z
          .string()
          .min(1, { message: "The reference field is required." })
          .max(MAX_NARRATION, { message: `Must be at most ${MAX_NARRATION} characters.` }),
        {
          payment: { summary: "The narration of the demo merchant's sample transfer", value: cleared.reference },
          pending: { summary: "The narration of the demo merchant's transfer that is still pending", value: pending.reference },
          notFound: { summary: "A narration no transfer carried", value: "Order 9999" },
        },
      ),
    }),
  },
  responses: {
    200: json(Success({ data: TransactionStatus }), "The most recent payment with this reference", {
      payment: { summary: `A transfer of NGN ${thousands(cleared.amount)} into the demo account`, value: { success: true, data: cleared } },
      pending: { summary: `A transfer of NGN ${thousands(pending.amount)} that has arrived but is not credited yet`, value: { success: true, data: pending } },
    }),
    ...errors({
      404: { notFound: errorExample("No transfer carried this narration", "NOT_FOUND", "No transaction with reference Order 9999.") },
      422: {
        validationError: errorExample("No reference sent", "VALIDATION_ERROR", "The given data was invalid.", {
          errors: { reference: ["The reference field is required."] },
        }),
      },
    }),
  },
});
