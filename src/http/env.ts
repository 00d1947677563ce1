import type { IncomingMessage } from "node:http";
import type { ResponseFault } from "../domain/outcomes.js";
import type { Tenant } from "../engine/tenant.js";

/** Hono environment of the whole app: the tenant is set once, by the auth middleware, and only there. */
export interface AppEnv {
  Bindings: {
    incoming?: IncomingMessage;
    /** Set only by the in-process replay of a demo merchant's sample activity (server.ts): never from a client. */
    sampleActivity?: true;
  };
  Variables: {
    requestId: string;
    clientIp: string;
    tenant: Tenant;
    /** What happens to the answer once the change is saved (http/response-faults.ts). */
    responseFault?: ResponseFault;
    /** A read that changed the merchant's state (a status read that counts, or settles): saved like a write. */
    stateChanged?: boolean;
  };
}
