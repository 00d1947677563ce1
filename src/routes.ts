/** Every route of the app, mounted in this order: the merchant API, the control API, then the pages. */
import type { Hono } from "hono";
import type { Deps } from "./http/deps.js";
import type { OtherBodies } from "./http/json-only.js";
import { checkoutRoutes } from "./api/v1/checkout/index.js";
import { payoutRoutes } from "./api/v1/payouts/index.js";
import { virtualAccountRoutes } from "./api/v1/virtual-accounts/index.js";
import { virtualCardRoutes } from "./api/v1/virtual-cards/index.js";
import { vtuRoutes } from "./api/v1/vtu/index.js";
import { walletRoutes } from "./api/v1/wallet/index.js";
import { checkoutPages } from "./pages/checkout-routes.js";
import { dashboardRoutes } from "./pages/dashboard.js";
import { docsRoutes } from "./pages/docs.js";
import { frontPageRoutes } from "./pages/front-page.js";
import { clockRoutes } from "./sandbox/clock/index.js";
import { walletControlRoutes } from "./sandbox/wallet/index.js";
import { virtualAccountControlRoutes } from "./sandbox/virtual-accounts/index.js";
import { checkoutControlRoutes } from "./sandbox/checkout/index.js";
import { payoutControlRoutes } from "./sandbox/payouts/index.js";
import { vtuControlRoutes } from "./sandbox/vtu/index.js";
import { virtualCardControlRoutes } from "./sandbox/virtual-cards/index.js";
import { outcomeRoutes } from "./sandbox/outcomes/index.js";
import { scenarioRoutes } from "./sandbox/scenarios/index.js";
import { load as loadScenario, SCENARIO_BODIES } from "./sandbox/scenarios/routes.js";
import { snapshotRoutes } from "./sandbox/snapshot/index.js";
import { webhookRoutes } from "./sandbox/webhooks/index.js";
import { merchantRoutes } from "./sandbox/merchants/index.js";
import { checkRoutes } from "./sandbox/checks/index.js";
import { doctorRoutes } from "./sandbox/doctor/index.js";
import { requestLogRoutes } from "./sandbox/requests/index.js";

// Pages run on hono's default env, the API on AppEnv: the list holds both.
type Mount = [path: string, routes: (deps: Deps) => Hono<any, any, any>];

export const MOUNTS: Mount[] = [
  ["/api/v1/wallet", walletRoutes],
  ["/api/v1", virtualAccountRoutes],
  ["/api/v1/checkout", checkoutRoutes],
  ["/api/v1/payout", payoutRoutes],
  ["/api/v1/vtu", vtuRoutes],
  ["/api/v1/virtual-cards", virtualCardRoutes],
  ["/sandbox/v1", merchantRoutes],
  ["/sandbox/v1", walletControlRoutes],
  ["/sandbox/v1", virtualAccountControlRoutes],
  ["/sandbox/v1", checkoutControlRoutes],
  ["/sandbox/v1", payoutControlRoutes],
  ["/sandbox/v1", vtuControlRoutes],
  ["/sandbox/v1", virtualCardControlRoutes],
  ["/sandbox/v1", outcomeRoutes],
  ["/sandbox/v1", clockRoutes],
  ["/sandbox/v1", webhookRoutes],
  ["/sandbox/v1", doctorRoutes],
  ["/sandbox/v1", snapshotRoutes],
  ["/sandbox/v1", scenarioRoutes],
  ["/sandbox/v1", checkRoutes],
  ["/sandbox/v1", requestLogRoutes],
  ["/", checkoutPages],
  ["/", dashboardRoutes],
  ["/", docsRoutes],
  ["/", frontPageRoutes],
];

/** The control routes that take bodies beside JSON (their handlers read them), by full path. */
export const OTHER_BODIES: OtherBodies = new Map([[`/sandbox/v1${loadScenario.path}`, SCENARIO_BODIES]]);
