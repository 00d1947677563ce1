/**
 * The error responses every control route (/sandbox/v1) can really give, and the pieces of examples several
 * routes share. The examples are a contract
 * (src/http/openapi.ts, `Example`): each named request, sent to a fresh demo merchant with its sample
 * activity, gets the response of the same name. The bodies are real ones.
 */
import { errorExample, errors, invalidExample, type Example, type Examples } from "../http/openapi.js";

type Own = Parameters<typeof errors>[0];

/** A VALIDATION_ERROR example on one field. */
export const validationError = (summary: string, field: string, problem: string): Example => invalidExample(summary, { [field]: [problem] });

/**
 * The error responses of a merchant-scoped control route. The control API checks the keys only: the
 * merchant's IP allowlist and request cap never apply to it (http/auth.ts, `accountRules: false`), so a
 * merchant cannot lock itself out of the settings that change them. Hence no 403 and no 429.
 */
export function controlErrors(own: Own = {}) {
  const responses = errors(own);
  delete responses[403];
  delete responses[429];
  return responses;
}

/** Refusals of an open route: its quota per client IP (`perMinute` as with --shared), and the sandbox's merchant cap. */
const openLimits = (what: "sign-ups" | "scenario loads", perMinute: number, defaults: string): Examples => ({
  quotaExceeded: errorExample(
    `Too many ${what} from one client IP in a rolling minute (${defaults})`,
    "QUOTA_EXCEEDED",
    `At most ${perMinute} ${what} per minute from one address (203.0.113.7); retry in 41 s.`,
    { retry_after: 41 },
  ),
  merchantLimitReached: errorExample(
    "The sandbox holds its maximum number of merchants (--max-merchants, 20,000 by default)",
    "MERCHANT_LIMIT_REACHED",
    "This sandbox holds its maximum of 20000 merchants; delete merchants you no longer need (DELETE /sandbox/v1/merchant) or raise --max-merchants.",
  ),
});
const OPEN_LIMITS = {
  "sign-ups": openLimits("sign-ups", 20, "1,000 by default, 20 with --shared"),
  "scenario loads": openLimits("scenario loads", 5, "60 by default, 5 with --shared"),
};

/**
 * The error responses of an open control route (sign-up, scenario loads): no keys are sent, so no 401
 * or 403; 429 is the per-IP quota or the merchant cap, never the account's request cap.
 */
export function openErrors(what: keyof typeof OPEN_LIMITS, own: Own = {}) {
  const responses = errors({ 429: OPEN_LIMITS[what], ...own });
  delete responses[401];
  delete responses[403];
  return responses;
}

