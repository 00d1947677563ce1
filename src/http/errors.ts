/**
 * The one error envelope: `{ success: false, message, error_code, errors?, retry_after?, data?, request_id? }`.
 * Every failure (auth, validation, domain refusal, unknown route, crash) is turned into it here.
 */
import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { DomainError, type DomainErrorCode, type ErrorDetails } from "../domain/errors.js";
import { AFTER_COMMIT_ADVICE, type ResponseOperation } from "../domain/outcomes.js";
import { StoreUnavailable } from "../store/file-store.js";
import { MerchantLimitError } from "../engine/registry.js";
import { MerchantGone } from "../engine/tenant-store.js";

/** What a key that matches no merchant is told, whichever process found it so. */
export const INVALID_CREDENTIALS = "The API key and secret do not match an active account.";

export type ErrorCode =
  | DomainErrorCode
  | "MISSING_CREDENTIALS"
  | "INVALID_CREDENTIALS"
  | "IP_NOT_WHITELISTED"
  | "SERVICE_NOT_ENABLED"
  | "PAYOUT_DISABLED"
  | "INVALID_JSON"
  | "INVALID_YAML"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "PAYLOAD_TOO_LARGE"
  | "REQUEST_TIMEOUT"
  | "QUOTA_EXCEEDED"
  | "MERCHANT_LIMIT_REACHED"
  | "STORE_UNAVAILABLE"
  | "INTERNAL_ERROR";

/** HTTP status per code. The spec fixes PAYOUT_DISABLED at 403; the rest are sandbox choices (README). */
export const STATUS_OF: Record<ErrorCode, ContentfulStatusCode> = {
  MISSING_CREDENTIALS: 401,
  INVALID_CREDENTIALS: 401,
  IP_NOT_WHITELISTED: 403,
  SERVICE_NOT_ENABLED: 403,
  PAYOUT_DISABLED: 403,
  RATE_LIMITED: 429,
  IP_RATE_LIMITED: 429,
  INVALID_JSON: 400,
  INVALID_YAML: 400,
  UNSUPPORTED_MEDIA_TYPE: 415,
  PAYLOAD_TOO_LARGE: 413,
  REQUEST_TIMEOUT: 408,
  VALIDATION_ERROR: 422,
  AMOUNT_BELOW_MINIMUM: 422,
  AMOUNT_ABOVE_MAXIMUM: 422,
  HOURLY_LIMIT_EXCEEDED: 422,
  DAILY_LIMIT_EXCEEDED: 422,
  INSUFFICIENT_BALANCE: 422,
  INSUFFICIENT_CARD_BALANCE: 422,
  KYC_REQUIRED: 422,
  KYC_NOT_APPROVED: 422,
  INVALID_ACCOUNT: 422,
  ACCOUNT_NAME_MISMATCH: 422,
  BANK_NAME_MISMATCH: 422,
  NOT_FOUND: 404,
  DUPLICATE_REFERENCE: 409,
  INVALID_STATE: 409,
  AMOUNT_MISMATCH: 422,
  CARD_FUNDING_FAILED: 422,
  BALANCE_LIMIT_EXCEEDED: 422,
  QUOTA_EXCEEDED: 429,
  MERCHANT_LIMIT_REACHED: 429,
  STORE_UNAVAILABLE: 503,
  BANK_UNAVAILABLE: 503,
  GATEWAY_TIMEOUT: 504,
  INTERNAL_ERROR: 500,
};

export type { ErrorDetails };
/** What a sandbox bug says (with its request_id); an outcome rule `server_error` says the same, as the real thing would. */
export const INTERNAL_ERROR_MESSAGE = "An unexpected error occurred. Quote the request_id when reporting it.";
/** A 504 after the change was made (an outcome rule `response` `gateway_timeout`): the advice a merchant needs for that operation. */
export const gatewayTimeoutMessage = (operation: ResponseOperation) =>
  `The request timed out upstream before it was confirmed. It may have been processed: ${AFTER_COMMIT_ADVICE[operation]}`;


/**
 * The answer is lost on purpose (an outcome rule `response` `connection_reset`): the socket, when there
 * is one, has been reset, and `app.request()` (no socket) rejects with this error instead of answering,
 * which is what a client sees as a reset. Never turned into an envelope.
 */
export class ConnectionReset extends Error {
  constructor(message = "The connection was reset before any answer was sent (an outcome rule or magic value of the sandbox).") {
    super(message);
    this.name = "ConnectionReset";
  }
}

/** Thrown by HTTP-level code (auth, capability, limits); domain code throws DomainError instead. */
export class ApiError extends Error {
  constructor(readonly code: ErrorCode, message: string, readonly details: ErrorDetails = {}) {
    super(message);
    this.name = "ApiError";
  }
}

export function errorBody(code: ErrorCode, message: string, details: ErrorDetails = {}, requestId?: string) {
  return {
    success: false as const,
    message,
    error_code: code,
    ...(details.errors ? { errors: details.errors } : {}),
    ...(details.retry_after !== undefined ? { retry_after: details.retry_after } : {}),
    ...(details.data !== undefined ? { data: details.data } : {}),
    ...(requestId ? { request_id: requestId } : {}),
  };
}

export function errorResponse(c: Context, code: ErrorCode, message: string, details: ErrorDetails = {}) {
  if (details.retry_after !== undefined && details.retry_after_header !== false) c.header("Retry-After", String(details.retry_after));
  const requestId = STATUS_OF[code] >= 500 ? (c.get("requestId") as string | undefined) : undefined;
  return c.json(errorBody(code, message, details, requestId), STATUS_OF[code]);
}

export const onError: ErrorHandler = (err, c) => {
  if (err instanceof ConnectionReset) throw err;
  if (err instanceof ApiError || err instanceof DomainError) {
    return errorResponse(c, err.code, err.message, err.details);
  }
  if (err instanceof StoreUnavailable) return errorResponse(c, "STORE_UNAVAILABLE", err.message);
  if (err instanceof MerchantGone) return errorResponse(c, "INVALID_CREDENTIALS", INVALID_CREDENTIALS);
  if (err instanceof MerchantLimitError) return errorResponse(c, "MERCHANT_LIMIT_REACHED", err.message);
  if (err instanceof HTTPException) {
    // Hono's own validators and body limit raise these for input the client got wrong.
    if (err.status === 413) return errorResponse(c, "PAYLOAD_TOO_LARGE", "The request body is larger than 1 MB.");
    if (err.status === 400) return errorResponse(c, "INVALID_JSON", "The request body is not valid JSON.");
    if (err.status === 415) return errorResponse(c, "UNSUPPORTED_MEDIA_TYPE", "Request bodies must be JSON (Content-Type: application/json).");
  }
  // Anything else is our bug: log it with the request id, never show the stack to the caller.
  console.error(`[merchant-sandbox] request ${String(c.get("requestId"))} failed:`, err);
  return errorResponse(c, "INTERNAL_ERROR", INTERNAL_ERROR_MESSAGE);
};

export const notFound: NotFoundHandler = (c) =>
  errorResponse(c, "NOT_FOUND", `No route for ${c.req.method} ${c.req.path}.`);

/**
 * Answers an error as hono does between two middlewares (the error kept on the context, its answer the
 * response), for the API's pipeline, which runs its stages in one frame (http/pipeline.ts).
 */
export async function answerError(c: Context, err: unknown): Promise<void> {
  if (!(err instanceof Error)) throw err;
  c.error = err;
  c.res = await onError(err, c);
}
