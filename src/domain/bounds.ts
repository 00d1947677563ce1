/**
 * What any record may hold, whichever way it came in (the API, the control API, a snapshot, a
 * scenario, a `--data` file). The schemas in records.ts and fields.ts use these numbers, so the
 * server can always save what it holds and load what it saved. README: "Limits and safety".
 */

/** Largest single amount of money, in major units (Naira or US dollars). */
export const MAX_AMOUNT = 100_000_000_000;
export const MAX_AMOUNT_MINOR = MAX_AMOUNT * 100;
/**
 * Largest balance a wallet or a card may reach, in minor units: 10 trillion Naira. Twice it is still
 * below 2^53, so every sum the ledger computes stays an exact integer. A credit past it is refused.
 */
export const MAX_BALANCE_MINOR = 1_000_000_000_000_000;

/** Times are ms since 1970. The clock stops at the end of 9998, so that timers and expiries due after
 * it (up to a year of delay) still fall within 9999, the last year ISO 8601 dates can show. */
export const MIN_TIME = 0;
export const MAX_CLOCK = Date.UTC(9998, 11, 31, 23, 59, 59, 999);
export const MAX_TIME = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** Lifecycle delays and outcome-rule delays, in seconds. */
export const MAX_DELAY_SECONDS = 365 * 86_400;
/**
 * A reply held back on purpose (a slow response, a name enquiry that times out) waits at most this many
 * wall-clock seconds: real time, so it is bounded tightly, and a stop never waits for it.
 */
export const MAX_RESPONSE_DELAY_SECONDS = 120;
/** The most status reads an outcome can wait for before it settles (`queries`). */
export const MAX_STATUS_QUERIES = 1_000;
/** Webhook retries: how many, and the longest wait before one. */
export const MAX_RETRIES = 20;
export const MAX_RETRY_WAIT_SECONDS = 7 * 86_400;
export const MAX_WEBHOOK_TIMEOUT_SECONDS = 60;

/**
 * Per sandbox: the open routes' quotas per client IP per rolling minute (by default, and with
 * --shared), and the merchants it holds. config.ts reads them as its flags' defaults.
 */
export const SIGNUPS_PER_MINUTE = { default: 1_000, shared: 20 } as const;
export const SCENARIO_LOADS_PER_MINUTE = { default: 60, shared: 5 } as const;
export const DEFAULT_MAX_MERCHANTS = 20_000;

/** Per merchant: outcome rules held at once; webhook deliveries kept (newest); incidents kept (newest). */
export const MAX_OUTCOME_RULES = 100;
export const MAX_DELIVERIES = 1_000;
export const MAX_INCIDENTS = 100;
export const MAX_ALLOWLIST = 100;
/**
 * Per merchant: client addresses whose payout attempts are counted at once (the per-IP cap). Past it
 * the least recently admitted is forgotten, so a client claiming new addresses costs bounded memory.
 */
export const MAX_PAYOUT_ADDRESSES = 1_000;

/** Naira per US dollar: the largest rate and its decimals (card money is converted exactly). */
export const MAX_USD_NGN_RATE = 100_000;
export const RATE_DECIMALS = 4;

/** How deeply a JSON body may nest (the deepest document the sandbox takes, a snapshot, needs 8). */
export const MAX_JSON_DEPTH = 32;
export const MAX_URL_LENGTH = 2_000;
/** A narration as the payer's bank sent it is kept verbatim up to this many characters. */
export const MAX_NARRATION = 500;
