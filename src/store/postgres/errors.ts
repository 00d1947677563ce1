/**
 * What a failed query means for the caller: the database is away (answer 503 and try again later), the
 * transaction lost a race (run it again), a unique key is taken, or anything else (a bug: 500).
 */
export type PgFailure = "unavailable" | "retry" | "taken" | "other";

/** SQLSTATEs of a server that is going away, refusing sessions, or that cut a statement short. */
const UNAVAILABLE_STATES = new Set([
  "57P01", // admin_shutdown (also pg_terminate_backend)
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
  "57P05", // idle_session_timeout
  "53300", // too_many_connections
  "57014", // query_canceled: statement_timeout
  "25P03", // idle_in_transaction_session_timeout
]);
/** Codes the client or the socket gives when the connection is gone or never came. */
const UNAVAILABLE_CLIENT = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENETDOWN",
  "ENOTFOUND",
  "EAI_AGAIN",
]);
const RETRY_STATES = new Set([
  "40001", // serialization_failure
  "40P01", // deadlock_detected
  "55P03", // lock_not_available
]);
const UNIQUE_VIOLATION = "23505";

/** The error's code, looking inside the AggregateError Node gives when every address of a host failed. */
function codeOf(err: unknown): string {
  if (typeof err !== "object" || err === null) return "";
  const { code, errors } = err as { code?: unknown; errors?: unknown };
  if (typeof code === "string" && code !== "") return code;
  return Array.isArray(errors) && errors.length > 0 ? codeOf(errors[0]) : "";
}

export function classifyPgError(err: unknown): PgFailure {
  const code = codeOf(err);
  if (code.startsWith("08") && code.length === 5) return "unavailable";
  if (UNAVAILABLE_STATES.has(code) || UNAVAILABLE_CLIENT.has(code)) return "unavailable";
  if (RETRY_STATES.has(code)) return "retry";
  if (code === UNIQUE_VIOLATION) return "taken";
  return "other";
}

const TEXT_LIMIT = 300;

/**
 * A short text for logs and 503 answers: the SQLSTATE or client code and the message. Never the URL or
 * the password: neither the server's messages nor the client's ("write CONNECTION_CLOSED host:port")
 * hold them, and the details that may quote a row's values (`detail`, the query's parameters) are left out.
 */
export function pgErrorText(err: unknown): string {
  const code = codeOf(err);
  const message = err instanceof Error ? err.message : String(err);
  const text = message === "" ? code || "unknown error" : code === "" || message.includes(code) ? message : `${code}: ${message}`;
  return text.length > TEXT_LIMIT ? `${text.slice(0, TEXT_LIMIT - 1)}…` : text;
}
