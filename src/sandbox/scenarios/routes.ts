/**
 * Loading a scenario, in the control API (no auth, like sign-up). The examples are small scenarios in
 * the format of scenarios/*.yaml, without a seed, so that loading one again works.
 */
import { z } from "@hono/zod-openapi";
import { MAX_JSON_DEPTH, MAX_OUTCOME_RULES, SCENARIO_LOADS_PER_MINUTE } from "../../domain/bounds.js";
import { thousands } from "../../domain/money.js";
import { BODY_LIMIT_BYTES, megabytes } from "../../http/body-limit.js";
import type { BodiesBesideJson } from "../../http/json-only.js";
import { errorExample, json, type Examples } from "../../http/openapi.js";
import { routes, Success } from "../../http/route.js";
import { ErrorSchema } from "../../http/schemas.js";
import { FIXED_KEYS_REFUSED } from "../../scenarios/load.js";
import { MAX_SCENARIO_MERCHANTS, MAX_SCENARIO_OBJECTS, SCENARIO_START } from "../../scenarios/schema.js";
import { isYamlMediaType, MAX_YAML_ALIASES, YAML_MEDIA_TYPES } from "../../scenarios/yaml-text.js";
import { openErrors } from "../errors.js";
import { LINK_SCENARIO_YAML } from "../../scenarios/examples.js";

const route = routes({ tags: ["Sandbox"] });

const scenarioTypeRefused = (type: string) =>
  `A scenario is posted as JSON or YAML (Content-Type: application/json, ${YAML_MEDIA_TYPES.join(" or ")}), not ${type}.`;

/** Beside JSON, a scenario comes as the YAML text of its file, which the handler reads itself. */
export const SCENARIO_BODIES: BodiesBesideJson = { accepts: isYamlMediaType, refused: scenarioTypeRefused };

const Loaded = Success({
  data: z.object({
    name: z.string(),
    merchants: z.record(z.string(), z.object({ merchant_id: z.string(), api_key: z.string(), api_secret: z.string(), webhook_secret: z.string() })),
    objects: z.record(z.string(), z.union([z.string(), z.number()])),
  }),
}).openapi("LoadedScenario");

const VA_SCENARIO = {
  name: "Virtual account funding",
  merchants: { shop: { business_name: "Mama Put Foods Ltd", wallet_balance: 0, kyc: { bvn: "22212345678" }, webhook_capture: {} } },
  virtual_accounts: [{ as: "ada_account", email: "ada@example.com", reference: "customer-ada", first_name: "Ada", last_name: "Obi" }],
  timeline: [{ at: "+5m", transfer: { to: "ada_account", amount: 5000, narration: "Order 1001" } }],
};

const LINK_YAML = LINK_SCENARIO_YAML;

/** The payment link scenario with its merchant's mapping left open: YAML that does not parse. */
const BROKEN_YAML = LINK_YAML.replace("webhook_capture: {} }", "webhook_capture: {}");

/** The VA scenario with two misspelt keys, a merchant setting and a step kind. */
const MISSPELT_SCENARIO = {
  name: "Virtual account funding",
  merchants: { shop: { business_name: "Mama Put Foods Ltd", wallet_balanse: 0, kyc: { bvn: "22212345678" } } },
  steps: [{ advance: { by: "5m" } }, { expect_balance: { balance: 5000 } }, { advanse: { by: "1m" } }],
};

/** The YAML bodies: the text of a scenario file as is (`curl --data-binary @file.yaml`). */
const yamlBody = (examples: Examples) => ({
  schema: z.string().openapi({ description: "The YAML text of a scenario file (the format of scenarios/*.yaml)" }),
  examples,
});
const YAML_EXAMPLES: Examples = {
  paymentLinkYaml: { summary: "A merchant with a payment link of NGN 12,500", value: LINK_YAML },
  invalidYaml: { summary: "A mapping left unclosed", value: BROKEN_YAML },
};

/** A load's answer for a scenario of one merchant, `shop`. */
const loaded = (name: string, merchant: Record<string, string>, objects: Record<string, string>) => ({
  success: true,
  data: { name, merchants: { shop: merchant }, objects },
});

const LOAD_ERRORS = openErrors("scenario loads", {
  400: {
    invalidJson: errorExample("The body is not valid JSON", "INVALID_JSON", "The request body is not valid JSON."),
    invalidYaml: errorExample(
      "YAML posted as such that does not parse (each error with its line and column)",
      "INVALID_YAML",
      "The request body is not valid YAML: line 4, column 1: Flow map in block collection must be sufficiently indented and end with a }",
      { errors: { body: ["line 4, column 1: Flow map in block collection must be sufficiently indented and end with a }"] } },
    ),
  },
  415: { unsupportedMediaType: errorExample("A body that is neither JSON nor YAML", "UNSUPPORTED_MEDIA_TYPE", scenarioTypeRefused("text/plain")) },
  422: {
    unknownAlias: errorExample("The scenario refers to an object it does not declare", "VALIDATION_ERROR", 'The scenario is invalid: no virtual account "bola_account"', {
      errors: { "timeline.0.transfer.to": ['no virtual account "bola_account"'] },
    }),
    misspeltKeys: errorExample(
      "Every problem at once, each under its path; an unknown key near a known one says which",
      "VALIDATION_ERROR",
      "The scenario is invalid: 2 problems, each under its path in errors.",
      {
        errors: {
          "merchants.shop.wallet_balanse": ["Unknown field. Did you mean `wallet_balance`?"],
          "steps.2.advanse": ["Unknown field. Did you mean `advance`?"],
        },
      },
    ),
    invalidField: errorExample("A field breaks its rule (the path names it)", "VALIDATION_ERROR", "The scenario is invalid: Must have at most two decimal places.", {
      errors: { "merchants.shop.wallet_balance": ["Must have at most two decimal places."] },
    }),
    fixedKeysShared: errorExample(
      "With --shared: a merchant with a fixed api_key or api_secret (whether the key is in use or not)",
      "VALIDATION_ERROR",
      `The scenario is invalid: ${FIXED_KEYS_REFUSED}`,
      { errors: { "merchants.shop.api_key": [FIXED_KEYS_REFUSED] } },
    ),
    tooDeep: errorExample(`A body nested deeper than ${MAX_JSON_DEPTH} levels`, "VALIDATION_ERROR", `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`, {
      errors: { body: [`Must nest at most ${MAX_JSON_DEPTH} levels deep.`] },
    }),
  },
});
// Beside malformed JSON, this route's 400 is YAML that does not parse: said in its description too.
LOAD_ERRORS[400] = json(ErrorSchema, "Malformed JSON (INVALID_JSON) or YAML (INVALID_YAML)", LOAD_ERRORS[400]!.content["application/json"].examples);

export const load = route({
  method: "post",
  path: "/scenarios",
  operationId: "loadScenario",
  summary: "Load a scenario into new merchants and return their keys (no authentication)",
  description: `
Loads a scenario into new merchants of this running sandbox and returns their keys and the scenario's named
objects. **No authentication: send no keys.** Use it to set up the state an SDK or integration test needs in one
call: merchants with their balances and settings, virtual accounts, cardholders, cards, payment links, outcome
rules, and a timeline of outside events. Answers 201.

The body is a scenario in the format of the files in \`scenarios/\`: the file's YAML text as is (\`Content-Type:
${YAML_MEDIA_TYPES.join("\` or \`")}\`, as \`curl -H 'Content-Type: application/yaml' --data-binary @scenarios/05-payout-completed.yaml\`
sends it), the same document as JSON, or JSON \`{ "yaml": "<the file's text>" }\`:

- \`name\` (required), \`description\`.
- \`merchants\` (1 to ${MAX_SCENARIO_MERCHANTS}): an alias for each, with any setting of POST /sandbox/v1/merchants (\`wallet_balance\`,
  \`webhook_url\`, \`webhook_capture\`, \`limits\`...), and optional fixed \`api_key\` and \`api_secret\` (together; not
  with \`--shared\`, see below), \`webhook_secret\`.
- \`virtual_accounts\`, \`cardholders\` (\`approved: true\` skips KYC), \`cards\` (\`fund\` in USD, charged to the
  wallet), \`payment_links\`: each named with \`as\` (and \`merchant: <alias>\` when there are several merchants); at
  most ${thousands(MAX_SCENARIO_OBJECTS)} of each.
- \`outcomes\`: outcome rules, as POST /sandbox/v1/outcomes takes them (at most ${MAX_OUTCOME_RULES}).
- \`timeline\`: outside events at offsets on the merchant's clock (\`at: "+5m"\`, or an ISO time), each a \`transfer\`
  into a virtual account or a \`pay_link\`; they happen when the clock reaches them (POST /sandbox/v1/clock/advance).
- \`start\`: the time every merchant's clock starts at (default ${SCENARIO_START.replace(".000Z", "Z")}). The clocks are manual.
- \`seed\`: identifiers, account numbers and PANs repeat from one fresh sandbox to the next; in a running sandbox an
  account number or reference another merchant holds is never reused, so loading a scenario twice works.
- \`steps\` are checked but not run here (\`merchant-sandbox run\` runs them).

\`webhook_capture\` gives a merchant the sandbox's built-in receiver: deliveries are signed and logged (GET
/sandbox/v1/webhook-deliveries) without a \`webhook_url\`.

The response: \`name\`, \`merchants\` (each alias's \`merchant_id\`, \`api_key\`, \`api_secret\`, \`webhook_secret\`)
and \`objects\` (each \`as\` name's account number, reference or id).

Fixed keys: without \`--shared\` the sandbox is its user's own, and a fixed \`api_key\` is accepted unless another merchant
already uses it (422). With \`--shared\`, anyone could claim a team's keys before the team loads its scenario, so a
scenario posted here that fixes a merchant's \`api_key\` or \`api_secret\` is refused (422 \`VALIDATION_ERROR\`), the same
answer whether the key is in use or not. Leave the keys out and use the ones the response returns, or have the sandbox
started with \`--scenario FILE\`: the operator's own files keep their fixed keys. A fixed \`webhook_secret\` is accepted in
both modes.

Loading is all or nothing: an invalid scenario gets 422 \`VALIDATION_ERROR\` with every problem under its path in the
document (\`errors\`; an unknown key near a known one says which it probably meant), and no merchant is left behind. YAML
posted as such that does not parse gets 400 \`INVALID_YAML\` with the line and column of each error. YAML takes the core
schema's types only (no tags, no \`<<\` merge keys) and at most ${MAX_YAML_ALIASES} alias expansions. Limits, the same for YAML
and JSON: ${thousands(SCENARIO_LOADS_PER_MINUTE.default)} loads per client IP per rolling minute (${thousands(SCENARIO_LOADS_PER_MINUTE.shared)} with \`--shared\`; 429
\`QUOTA_EXCEEDED\` with \`retry_after\`), the sandbox's \`--max-merchants\` (429 \`MERCHANT_LIMIT_REACHED\`), a ${megabytes(BODY_LIMIT_BYTES)} body
nested at most ${MAX_JSON_DEPTH} levels.`.trim(),
  security: [],
  request: {
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z.record(z.string(), z.unknown()).openapi({ description: "A scenario document, or { yaml: string }" }),
          examples: {
            virtualAccountFunding: { summary: "JSON: a merchant with a virtual account, and a transfer into it 5 minutes in", value: VA_SCENARIO },
            paymentLinkYaml: { summary: "YAML: a merchant with a payment link of NGN 12,500", value: { yaml: LINK_YAML } },
            unknownAlias: {
              summary: "A timeline transfer to a virtual account the scenario does not declare",
              value: { ...VA_SCENARIO, timeline: [{ at: "+5m", transfer: { to: "bola_account", amount: 5000 } }] },
            },
            misspeltKeys: { summary: "Two misspelt keys: wallet_balanse and a step's advanse", value: MISSPELT_SCENARIO },
          },
        },
        ...Object.fromEntries(YAML_MEDIA_TYPES.map((type) => [type, yamlBody(YAML_EXAMPLES)])),
      },
    },
  },
  responses: {
    201: json(Loaded, "The merchants created, with their keys", {
      virtualAccountFunding: {
        summary: "The merchant's keys, and the virtual account's number",
        value: loaded(
          "Virtual account funding",
          {
            merchant_id: "mch_GLkhfKl6zm9s7x",
            api_key: "pk_test_c9omZCzJFoRCnDBnNpPV7Ne3",
            api_secret: "sk_test_MPQrEeLcn0364zPjKC0UC7IIICrMHbgC",
            webhook_secret: "whsec_FbCB2PiaUHQw8SjSBDSt7u4x58opQqsJ",
          },
          { ada_account: "4970060607" },
        ),
      },
      paymentLinkYaml: {
        summary: "The merchant's keys, and the link's reference",
        value: loaded(
          "Payment link waiting for its customer",
          {
            merchant_id: "mch_RE7tJGoV0n2zbk",
            api_key: "pk_test_tVieioln58Z0K7VEKOvw04sa",
            api_secret: "sk_test_YFoYR9kX0mr7dHRYRTevY5jzL0NwgGh9",
            webhook_secret: "whsec_xigBRIj6nxb3ZEmICIvtuYLn7OQLQvVA",
          },
          { jollof: "CHK_L6CUD3ZFQ0AQDS85" },
        ),
      },
    }),
    ...LOAD_ERRORS,
  },
});
