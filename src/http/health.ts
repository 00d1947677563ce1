/**
 * GET /health. A failing store makes the sandbox unhealthy (503), so a Docker HEALTHCHECK or a CI
 * service sees it; shared mode tells strangers nothing about how many merchants there are.
 */
import type { Handler } from "hono";
import type { Deps } from "./deps.js";

export const health =
  ({ registry, store, shared }: Deps): Handler =>
  (c) => {
    const status = store.health();
    const counts = shared ? {} : { merchants: registry.size };
    if (status.ok) return c.json({ success: true, status: "ok", ...counts });
    return c.json({ success: false, status: "store_failing", store: status, ...counts }, 503);
  };
