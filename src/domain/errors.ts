/**
 * The one error type the domain throws. It carries a stable machine code and a human message; the
 * HTTP layer maps the code to a status (http/errors.ts), so the domain knows nothing about HTTP.
 * A domain function throws only before it has changed any state, so a refusal never leaves partial state.
 */
export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
    this.name = "DomainError";
  }
}

/** What an error carries beside its code and message (http/errors.ts puts it in the envelope). */
export interface ErrorDetails {
  errors?: Record<string, string[]>;
  /** Seconds until the refused request would be admitted, on the clock its cap counts. */
  retry_after?: number;
  /**
   * false when `retry_after` is not real time (a cap on a manual merchant clock): the HTTP
   * `Retry-After` header means real seconds, so it is left out rather than sent untrue.
   */
  retry_after_header?: boolean;
  /** The record a refusal is about, for the client to reconcile from (DUPLICATE_REFERENCE on a payout). */
  data?: unknown;
  /** Wall-clock ms the service takes before it answers with this error (a time-out that takes its time). */
  wait_ms?: number;
}

export type DomainErrorCode =
  | "VALIDATION_ERROR"
  | "NOT_FOUND"
  | "INSUFFICIENT_BALANCE"
  | "INSUFFICIENT_CARD_BALANCE"
  | "DUPLICATE_REFERENCE"
  | "AMOUNT_BELOW_MINIMUM"
  | "AMOUNT_ABOVE_MAXIMUM"
  | "HOURLY_LIMIT_EXCEEDED"
  | "DAILY_LIMIT_EXCEEDED"
  | "RATE_LIMITED"
  | "IP_RATE_LIMITED"
  | "KYC_REQUIRED"
  | "KYC_NOT_APPROVED"
  | "INVALID_ACCOUNT"
  | "ACCOUNT_NAME_MISMATCH"
  | "BANK_NAME_MISMATCH"
  | "INVALID_STATE"
  | "AMOUNT_MISMATCH"
  | "CARD_FUNDING_FAILED"
  | "BALANCE_LIMIT_EXCEEDED"
  | "BANK_UNAVAILABLE"
  | "GATEWAY_TIMEOUT";

/** Shorthand for a validation failure on one field, in the same shape zod failures take. */
export function fieldError(field: string, message: string): DomainError {
  return new DomainError("VALIDATION_ERROR", "The given data was invalid.", { errors: { [field]: [message] } });
}
