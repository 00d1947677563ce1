/**
 * The error responses every control route (/sandbox/v1) can really give, and the pieces of examples several
 * routes share. The examples are a contract (src/http/openapi.ts, `Example`): each named request, sent to
 * a fresh demo merchant with its sample activity, gets the response of the same name.
 */
import { DEFAULT_MAX_MERCHANTS, SCENARIO_LOADS_PER_MINUTE, SIGNUPS_PER_MINUTE } from "../domain/bounds.js";
import { thousands } from "../domain/money.js";
import { MerchantLimitError } from "../engine/registry.js";
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

type Quota = { default: number; shared: number };

/** Refusals of an open route: its quota per client IP (the example runs with --shared), and the sandbox's merchant cap. */
const openLimits = (what: "sign-ups" | "scenario loads", quota: Quota): Examples => ({
  quotaExceeded: errorExample(
    `Too many ${what} from one client IP in a rolling minute (${thousands(quota.default)} by default, ${thousands(quota.shared)} with --shared)`,
    "QUOTA_EXCEEDED",
    `At most ${quota.shared} ${what} per minute from one address (203.0.113.7); retry in 41 s.`,
    { retry_after: 41 },
  ),
  merchantLimitReached: errorExample(
    `The sandbox holds its maximum number of merchants (--max-merchants, ${thousands(DEFAULT_MAX_MERCHANTS)} by default)`,
    "MERCHANT_LIMIT_REACHED",
    new MerchantLimitError(DEFAULT_MAX_MERCHANTS).message,
  ),
});
const OPEN_LIMITS = {
  "sign-ups": openLimits("sign-ups", SIGNUPS_PER_MINUTE),
  "scenario loads": openLimits("scenario loads", SCENARIO_LOADS_PER_MINUTE),
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

