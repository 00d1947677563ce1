/** Every route of the app, mounted in this order: the merchant API, the control API, then the pages. */
import type { Hono } from "hono";
import type { Deps } from "./http/deps.js";
import { checkoutRoutes } from "./api/v1/checkout.js";
import { payoutRoutes } from "./api/v1/payouts.js";
import { virtualAccountRoutes } from "./api/v1/virtual-accounts.js";
import { virtualCardRoutes } from "./api/v1/virtual-cards.js";
import { vtuRoutes } from "./api/v1/vtu.js";
import { walletRoutes } from "./api/v1/wallet/index.js";
import { checkoutPages } from "./pages/checkout-routes.js";
import { dashboardRoutes } from "./pages/dashboard.js";
import { docsRoutes } from "./pages/docs.js";
import { clockRoutes } from "./sandbox/clock/index.js";
import { leverRoutes } from "./sandbox/levers.js";
import { listRoutes } from "./sandbox/lists.js";
import { lifecycleRoutes } from "./sandbox/lifecycle.js";
import { outcomeRoutes } from "./sandbox/outcomes/index.js";
import { scenarioRoutes } from "./sandbox/scenarios/index.js";
import { snapshotRoutes } from "./sandbox/snapshot/index.js";
import { vaPaymentRoutes } from "./sandbox/va-payments.js";
import { webhookRoutes } from "./sandbox/webhooks/index.js";
import { merchantRoutes } from "./sandbox/merchants/index.js";
import { checkRoutes } from "./sandbox/checks/index.js";
import { doctorRoutes } from "./sandbox/doctor/index.js";
import { requestLogRoutes } from "./sandbox/requests/index.js";

// Pages run on hono's default env, the API on AppEnv: the list holds both.
type Mount = [path: string, routes: (deps: Deps) => Hono<any, any, any>];

export const MOUNTS: Mount[] = [
  ["/api/v1/wallet", walletRoutes],
  ["/api/v1", () => virtualAccountRoutes()],
  ["/api/v1/checkout", (d) => checkoutRoutes({ publicUrl: d.publicUrl })],
  ["/api/v1/payout", () => payoutRoutes()],
  ["/api/v1/vtu", () => vtuRoutes()],
  ["/api/v1/virtual-cards", () => virtualCardRoutes()],
  ["/sandbox/v1", merchantRoutes],
  ["/sandbox/v1", () => leverRoutes()],
  ["/sandbox/v1", () => vaPaymentRoutes()],
  ["/sandbox/v1", (d) => lifecycleRoutes({ publicUrl: d.publicUrl })],
  ["/sandbox/v1", (d) => listRoutes({ publicUrl: d.publicUrl })],
  ["/sandbox/v1", outcomeRoutes],
  ["/sandbox/v1", clockRoutes],
  ["/sandbox/v1", webhookRoutes],
  ["/sandbox/v1", doctorRoutes],
  ["/sandbox/v1", snapshotRoutes],
  ["/sandbox/v1", scenarioRoutes],
  ["/sandbox/v1", checkRoutes],
  ["/sandbox/v1", requestLogRoutes],
  ["/", (d) => checkoutPages({ registry: d.registry, driver: d.driver, afterChange: d.afterChange })],
  ["/", (d) => dashboardRoutes({ registry: d.registry, driver: d.driver, trustProxy: d.trustProxy, publicUrl: d.publicUrl, doctor: d.doctor })],
  ["/", (d) => docsRoutes(d.tryItKeys)],
];
