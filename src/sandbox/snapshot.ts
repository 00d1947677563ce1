/** Export and restore a merchant's whole state as one JSON document (the same format as `--data` files). */
import { createRoute, z } from "@hono/zod-openapi";
import type { ClockDriver } from "../engine/clock-driver.js";
import { json, security } from "../http/openapi.js";
import { router } from "../http/validation.js";
import type { Registry } from "../engine/registry.js";
import { SnapshotSchema, toSnapshot } from "../domain/snapshot.js";
import { assertWebhookTarget } from "./webhook-target.js";
import { controlErrors } from "./errors.js";
import * as docs from "./snapshot-docs.js";

const tags = ["Sandbox"];
const Snapshot = SnapshotSchema.openapi("Snapshot");

/** What GET returns, PUT takes: the snapshot itself, or GET's whole `{ success, data }` body. */
const SnapshotBody = z.preprocess(
  (v) => (v !== null && typeof v === "object" && !("format" in v) && "data" in v ? (v as { data: unknown }).data : v),
  Snapshot,
);

const read = createRoute({
  method: "get",
  path: "/snapshot",
  tags,
  security,
  operationId: "exportSnapshot",
  summary: "Export the merchant: settings, clock and every object, event and pending timer",
  description: docs.READ_DESCRIPTION,
  responses: { 200: json(z.object({ success: z.literal(true), data: Snapshot }), "The snapshot", docs.READ_RESPONSE_EXAMPLES), ...controlErrors() },
});

const restore = createRoute({
  method: "put",
  path: "/snapshot",
  tags,
  security,
  operationId: "importSnapshot",
  summary: "Replace the merchant's state, settings and clock with a snapshot (the caller's keys are kept)",
  description: docs.RESTORE_DESCRIPTION,
  request: {
    body: {
      required: true,
      description: "The snapshot: the `data` of GET /sandbox/v1/snapshot, or that response's whole body as it came.",
      content: { "application/json": { schema: SnapshotBody, examples: docs.RESTORE_BODY_EXAMPLES } },
    },
  },
  responses: {
    200: json(z.object({ success: z.literal(true), message: z.string() }), "Restored", docs.RESTORE_RESPONSE_EXAMPLES),
    ...controlErrors(docs.RESTORE_ERRORS),
  },
});

export function snapshotRoutes(registry: Registry, driver: ClockDriver, shared: boolean) {
  return router()
    .openapi(read, (c) => {
      const t = c.var.tenant;
      return c.json({ success: true as const, data: toSnapshot(t.config, t.clock.settings(), t.state) }, 200);
    })
    .openapi(restore, (c) => {
      const tenant = c.var.tenant;
      const snapshot = c.req.valid("json");
      assertWebhookTarget(snapshot.merchant.webhook_url, shared, "merchant.webhook_url");
      registry.replace(tenant, snapshot);
      driver.stop(tenant);
      return c.json({ success: true as const, message: "Snapshot restored" }, 200);
    });
}
