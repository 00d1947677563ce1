import type { IncomingMessage } from "node:http";
import type { Tenant } from "../engine/tenant.js";

/** Hono environment of the whole app: the tenant is set once, by the auth middleware, and only there. */
export interface AppEnv {
  Bindings: { incoming?: IncomingMessage };
  Variables: {
    requestId: string;
    clientIp: string;
    tenant: Tenant;
  };
}
