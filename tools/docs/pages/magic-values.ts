/**
 * docs/reference/magic-values.md: the inputs that force an outcome without any control call, one row
 * per entry of the domain's tables (src/domain/outcomes.ts), worded from each entry's fields.
 */
import { DEFAULTS } from "../../../src/domain/merchant.js";
import { toMajor } from "../../../src/domain/money.js";
import {
  CARD_FUND_MAGIC,
  KYC_MAGIC,
  magicPhone,
  PAYOUT_MAGIC,
  SLOW_RESPONSE_SECONDS,
  VTU_MAGIC_DIGIT,
  type PayoutMagic,
  type ResponseFaultOutcome,
} from "../../../src/domain/outcomes.js";
import { METER_DIGITS } from "../../../src/api/v1/vtu/schemas.js";
import { answer, code, ordinal, spokenList, spokenSeconds, table, type ReferencePage } from "../markdown.js";

const ENDINGS = Object.keys(PAYOUT_MAGIC);
const endingsWhere = (keep: (m: PayoutMagic) => boolean) => ENDINGS.filter((e) => keep(PAYOUT_MAGIC[e]!));
/** The first ending whose answer is lost after the payout is made: the others refer to its advice. */
const FIRST_LOST_ANSWER = endingsWhere((m) => m.response !== undefined)[0]!;

/** `0001` to `0009` when the endings run on, else a list. */
function endingsText(endings: string[]): string {
  const runsOn = endings.every((e, i) => i === 0 || Number(e) === Number(endings[i - 1]) + 1);
  return runsOn && endings.length > 2 ? `${code(endings[0]!)} to ${code(endings.at(-1)!)}` : spokenList(endings.map(code));
}

/** What happens to the transfer's answer once the payout is made. */
const LOST_ANSWER: Record<ResponseFaultOutcome, string> = {
  connection_reset: "the connection is reset with no answer",
  slow_response: `the 201 is held back ${spokenSeconds(SLOW_RESPONSE_SECONDS)} of wall-clock time, past most clients' time-out`,
  server_error: `answered ${answer("INTERNAL_ERROR")}`,
  gateway_timeout: `answered ${answer("GATEWAY_TIMEOUT")}`,
};

const SETTLEMENT_DELAY = `the settlement delay (\`delays.payout_settlement_seconds\`, ${spokenSeconds(DEFAULTS.delays.payout_settlement_seconds)} by default)`;
const VTU_DELAY = `\`delays.vtu_settlement_seconds\`, ${spokenSeconds(DEFAULTS.delays.vtu_settlement_seconds)} by default`;
const KYC_DELAY = `the KYC delay (\`delays.kyc_approval_seconds\`, ${spokenSeconds(DEFAULTS.delays.kyc_approval_seconds)} by default)`;

/** A payout test account's outcome, worded from its entry. */
function payoutOutcome(ending: string, m: PayoutMagic): string {
  if (m.enquiry === "timeout") {
    return `Refused with ${answer("GATEWAY_TIMEOUT")} before any debit: the transfer's own name enquiry timed out, so it was not sent and its reference is still free.`;
  }
  if (m.response) {
    const advice =
      ending === FIRST_LOST_ANSWER
        ? ` Query the status by reference; never re-send with a new reference (the same reference gets ${answer("DUPLICATE_REFERENCE")} carrying the payout). It completes after ${SETTLEMENT_DELAY}.`
        : ` Do as for ${code(FIRST_LOST_ANSWER)}.`;
    return `Made and debited, then ${LOST_ANSWER[m.response]}.${advice}`;
  }
  const error = m.error ? ` ("${m.error}")` : "";
  const settles =
    m.outcome === "hold"
      ? "Stays `processing` until forced (`POST /sandbox/v1/payouts/{reference}/complete` or `/fail`)"
      : m.queries
        ? `\`processing\`, with no timer, until the ${ordinal(m.queries)} \`GET /api/v1/payout/status\`, which makes it \`${m.outcome}\`${error}`
        : m.delay_ms
          ? `\`processing\` for ${spokenSeconds(m.delay_ms / 1000)} of sim time, then \`${m.outcome}\`${error}`
          : `\`processing\`, then \`${m.outcome}\`${error} after ${SETTLEMENT_DELAY}`;
  const returned = m.outcome === "failed" ? ", with funds returned and `payout.failed` sent" : "";
  const enquiry = m.enquiry === "not_found" ? `. Name enquiry never resolves it (${answer("INVALID_ACCOUNT")}), so a transfer takes any \`account_name\` (\`bank_name\` is still checked)` : "";
  const advice = m.queries ? " Poll by reference until final." : m.delay_ms ? " Keep the order unpaid until the webhook or the status says." : "";
  return `${settles}${returned}${enquiry}.${advice}`;
}

function rows(): string[][] {
  const payouts = ENDINGS.map((e) => ["Payout", `\`account_number\` ending ${code(e)}`, payoutOutcome(e, PAYOUT_MAGIC[e]!)]);
  const resolving = endingsWhere((m) => m.enquiry === undefined);
  const verification = [
    ...endingsWhere((m) => m.enquiry === "not_found").map((e) => ["Account verification", `\`account_number\` ending ${code(e)}`, `${answer("INVALID_ACCOUNT")} (not found)`]),
    ...endingsWhere((m) => m.enquiry === "timeout").map((e) => [
      "Account verification",
      `\`account_number\` ending ${code(e)}`,
      `${answer("GATEWAY_TIMEOUT")}, no name: the enquiry timed out. Retry it; never transfer without a name it returned.`,
    ]),
    ["Account verification", `any other valid NUBAN, and the endings ${endingsText(resolving)}`, "Resolves to a deterministic name. A transfer must send that name as `account_name`."],
  ];
  const digits = Object.entries(VTU_MAGIC_DIGIT);
  const phoneDigits = digits.filter(([, m]) => m.plan !== null);
  const vtu = [
    ...phoneDigits.map(([d, m]) => ["VTU (airtime, data, cable `phone`)", code(magicPhone(d)), m.description.replace("the VTU delay", `the VTU delay (${VTU_DELAY})`)]),
    [
      "VTU (cable, electricity)",
      `A smart card or meter number of one repeated digit ${code(phoneDigits[0]![0])}–${code(phoneDigits.at(-1)![0])} (e.g. ${code(phoneDigits[1]![0].repeat(METER_DIGITS.min))})`,
      "The same outcome as the phone of that digit",
    ],
    ...digits.filter(([, m]) => m.plan === null).map(([d, m]) => ["VTU (cable, electricity)", `A smart card or meter number of all ${code(d)}s`, `${m.description}, on \`smart_card_number\` or \`meter_number\``]),
    ["VTU (exam, and any other input)", "anything else", "`success` at once (an outcome rule forces the others)"],
  ];
  const kyc = [
    ...Object.entries(KYC_MAGIC).map(([prefix, m]) => ["Cardholder KYC", `email starting ${code(prefix)}`, `${m.description[0]!.toUpperCase()}${m.description.slice(1)}: approve it with \`POST /sandbox/v1/cardholders/{id}/approve\``]),
    ["Cardholder KYC", "any other email", `\`APPROVED\` after ${KYC_DELAY}`],
  ];
  const cards = [
    ...Object.entries(CARD_FUND_MAGIC).map(([cents, m]) => ["Card funding", `amount exactly ${code(toMajor(Number(cents)).toFixed(2))} USD`, `${answer("CARD_FUNDING_FAILED")} (${m.description}), nothing charged`]),
    ["Card spend", "a frozen or terminated card, or an amount above the card's balance", "`declined`, recorded, balance unchanged"],
    ["Payment link", "any amount other than the link's exact amount", `${answer("AMOUNT_MISMATCH")}, nothing credited, the link stays \`pending\``],
  ];
  return [...payouts, ["Payout", "any other account", `\`completed\` after ${SETTLEMENT_DELAY}`], ...verification, ...vtu, ...kyc, ...cards];
}

export function magicValuesPage(): ReferencePage {
  const notFound = endingsWhere((m) => m.enquiry === "not_found");
  const timeout = endingsWhere((m) => m.enquiry === "timeout");
  return {
    name: "magic-values.md",
    sources: ["src/domain/outcomes.ts", "src/domain/merchant.ts"],
    body: `
# Magic values

These inputs force an outcome without any control call. An outcome rule (\`POST /sandbox/v1/outcomes\`), when one
matches, takes precedence. For the ambiguous ones, what a client must do is in
[Ambiguous outcomes](../concepts/ambiguous-outcomes.md); forcing each outcome in a test, step by step:
[Force outcomes](../how-to/force-outcomes.md).

${table(["State machine", "Input", "Outcome"], rows())}

Phones match in any of the \`0…\`, \`234…\` or \`+234…\` forms. The magic payout accounts (endings ${endingsText(ENDINGS)})
skip the NUBAN check-digit test, so they work with any \`bank_code\` of the bank list. Every other check still
applies: \`bank_name\` must be that bank's, and, except for ${spokenList(notFound.map(code))}, \`account_name\` must
name the holder name enquiry returns. A transfer asks name enquiry again before it debits anything, as NIP
transfers do: one to an account ending ${spokenList(timeout.map(code))} is refused with ${answer("GATEWAY_TIMEOUT")}.
`,
  };
}
