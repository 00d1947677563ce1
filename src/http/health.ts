/**
 * GET /health. A failing store makes the sandbox unhealthy (503), so a Docker HEALTHCHECK or a CI
 * service sees it; shared mode tells strangers nothing about how many merchants there are.
 */
import type { Handler } from "hono";
import type { Deps } from "./deps.js";

export const health =
  ({ registry, store, shared, node }: Deps): Handler =>
  (c) => {
    if (node) {
      // A node of a cluster: draining or failing takes it out of its balancer's rotation.
      const report = node();
      const ok = report.store.state === "ok";
      return c.json({ success: ok, status: ok ? "ok" : report.store.state === "draining" ? "draining" : "store_failing", ...report }, ok ? 200 : 503);
    }
    const status = store.health();
    const counts = shared ? {} : { merchants: registry.size };
    if (status.ok) return c.json({ success: true, status: "ok", ...counts });
    return c.json({ success: false, status: "store_failing", store: status, ...counts }, 503);
  };
