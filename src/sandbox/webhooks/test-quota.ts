/**
 * The test-event quota: each test event is a request to a URL the merchant chose, and sign-up is open, so
 * a merchant sends at most TEST_EVENTS_PER_MINUTE per rolling minute of wall-clock time.
 */
import { PerMerchantRate } from "../../doctor/desk.js";

/** Test events a merchant may send per rolling minute of wall-clock time. */
export const TEST_EVENTS_PER_MINUTE = 10;

/** `wall`: the registry's wall clock, so tests move the rate's minute by hand. */
export const testEventRate = (wall: () => number) => new PerMerchantRate(TEST_EVENTS_PER_MINUTE, wall);

/** The refusal's message once the quota is spent. */
export const testQuotaMessage = (retryAfter: number) => `At most ${TEST_EVENTS_PER_MINUTE} test events per minute for one merchant; retry in ${retryAfter} s.`;
