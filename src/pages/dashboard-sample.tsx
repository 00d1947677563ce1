/** @jsxImportSource hono/jsx */
/**
 * The "sample" tag: on the requests the sandbox made itself when it created the demo merchant (its
 * sample activity, labelled `sample` in the request log) and on the objects they made, so nobody
 * mistakes them for what their own code did.
 */
import type { TouchedObject } from "../domain/request-log.js";
import { sampleObjects } from "../domain/request-log-views.js";
import type { Tenant } from "../engine/tenant.js";

export function SampleTag({ on }: { on: boolean }) {
  return on ? <> <span class="tag" data-testid="sample-tag">sample</span></> : null;
}

/** Whether an object of the tenant's was made by its sample activity: read once per section render. */
export function sampleOf(tenant: Tenant): (kind: TouchedObject["kind"], id: string | number) => boolean {
  const keys = sampleObjects(tenant.requestLog);
  return (kind, id) => keys.has(`${kind}:${id}`);
}
