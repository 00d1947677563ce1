/** @jsxImportSource hono/jsx */
/**
 * The first steps the dashboard offers where nothing exists yet (the empty states, Home's "get
 * started"): API calls with real paths and bodies, sent as they are by the tests against a new
 * merchant, and the bundled scenarios that make each kind of object.
 */
import type { Child } from "hono/jsx";
import { PARTNER_BANK } from "../domain/catalog.js";
import { accountHolderName } from "../domain/names.js";
import type { Tenant } from "../engine/tenant.js";
import { curl, EmptyState, Snippet } from "./dashboard-ui.js";

export interface FirstCall {
  method: "GET" | "POST";
  path: string;
  body?: Record<string, unknown>;
  /** What the call does, for its Copy button ("the call that creates a payout"). */
  what: string;
}

/** A payout destination that name enquiry resolves and that settles: a valid GTBank NUBAN with no test-account ending. */
const DESTINATION = { bank_code: "058", account_number: "0000000018" };

/** The first call of each kind, for this merchant (the destination's names as its lookups give them). */
export function firstCalls(tenant: Tenant) {
  const bank_name = tenant.catalog.bankByCode.get(DESTINATION.bank_code)?.bank_name ?? DESTINATION.bank_code;
  const account_name = accountHolderName(DESTINATION.bank_code, DESTINATION.account_number);
  const approved = [...tenant.state.cardholders.values()].find((h) => h.kyc_status === "APPROVED");
  return {
    balance: { method: "GET", path: "/api/v1/wallet/balance", what: "the balance call" },
    virtualAccount: {
      method: "POST",
      path: "/api/v1/virtual-account/create",
      body: { first_name: "Ada", last_name: "Obi", email: "ada@example.com", reference: "customer-ada", bvn: "22212345678", bank: PARTNER_BANK.key },
      what: "the call that creates a virtual account",
    },
    verify: { method: "POST", path: "/api/v1/payout/verify-account", body: DESTINATION, what: "the account verification call" },
    payout: {
      method: "POST",
      path: "/api/v1/payout/transfer",
      body: { amount: 5000, ...DESTINATION, account_name, bank_name, reference: "first-payout-001", narration: "First payout" },
      what: "the call that creates a payout",
    },
    paymentLink: { method: "POST", path: "/api/v1/checkout/create", body: { amount: 5000, description: "Order 1001" }, what: "the call that creates a payment link" },
    airtime: { method: "POST", path: "/api/v1/vtu/airtime", body: { network: "mtn", phone: "08031234567", amount: 500 }, what: "the airtime purchase call" },
    cardholder: {
      method: "POST",
      path: "/api/v1/virtual-cards/cardholders",
      body: { first_name: "Musa", last_name: "Bello", email: "musa@example.com" },
      what: "the call that creates a cardholder",
    },
    /** A card needs a cardholder whose KYC is approved: this merchant's first, else an id to replace. */
    card: { method: "POST", path: "/api/v1/virtual-cards", body: { cardholder_id: approved?.cardholder_id ?? 1, brand: "VISA" }, what: "the call that issues a card" },
    fund: { method: "POST", path: "/sandbox/v1/wallet/fund", body: { amount: 50000 }, what: "the call that funds the wallet" },
  } satisfies Record<string, FirstCall>;
}

/** One call as an EmptyState's snippet. */
export const callSnippet = (baseUrl: string, call: FirstCall) => ({ text: curl(baseUrl, call.method, call.path, call.body), what: call.what });

/** The call as a titled, copyable step. */
export function CallStep(props: { id: string; baseUrl: string; call: FirstCall; title: string }) {
  const { text, what } = callSnippet(props.baseUrl, props.call);
  return (
    <li>
      <p>
        {props.title}: <span class="mono">{props.call.method} {props.call.path}</span>
      </p>
      <Snippet id={props.id} text={text} what={what} />
    </li>
  );
}

/** The bundled scenarios (the package's scenarios/ folder) that make each kind of object. */
export const SCENARIO_FILES = {
  virtualAccount: "01-virtual-account-funding.yaml",
  paymentLink: "02-payment-link-paid.yaml",
  payout: "05-payout-completed.yaml",
  vtu: "09-vtu-airtime-data.yaml",
  card: "12-card-lifecycle.yaml",
  webhooks: "13-webhook-retries.yaml",
  outcomes: "20-bank-down.yaml",
} as const;

type ScenarioFile = (typeof SCENARIO_FILES)[keyof typeof SCENARIO_FILES];

/** The scenario that shows a kind of object made from start to end, and how to run it. */
function ScenarioHint(props: { id: string; file: ScenarioFile }) {
  return (
    <>
      <p>
        Or watch one being made, step by step: the scenario <span class="mono">scenarios/{props.file}</span> runs with the command below, or
        paste the file in <a href="/dashboard/scenarios">Scenarios</a> to open its merchant here.
      </p>
      <Snippet id={`${props.id}-scenario`} text={`merchant-sandbox run scenarios/${props.file}`} what="the scenario command" />
    </>
  );
}

/** A list with nothing yet: what it would hold and how to make the first one, then the call to copy, then the scenario. */
export function EmptyList(props: { id: string; title: string; call?: { text: string; what: string }; scenario?: ScenarioFile; children?: Child }) {
  return (
    <EmptyState id={props.id} title={props.title}>
      {props.children}
      {props.call ? <Snippet id={`${props.id}-snippet`} text={props.call.text} what={props.call.what} /> : null}
      {props.scenario ? <ScenarioHint id={props.id} file={props.scenario} /> : null}
    </EmptyState>
  );
}
