/**
 * Background failures a merchant should be able to see: a timer or a webhook attempt that the sandbox
 * itself could not carry out. The rest of the merchant's work goes on; the newest MAX_INCIDENTS are
 * kept (GET /sandbox/v1/incidents).
 */
import { MAX_INCIDENTS } from "./bounds.js";
import type { Incident } from "./records.js";
import type { TenantState } from "./state.js";

export function recordIncident(state: TenantState, at: number, where: string, error: unknown): Incident {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const incident: Incident = { at, where: where.slice(0, 200), error: message.slice(0, 1000) };
  state.incidents.push(incident);
  if (state.incidents.length > MAX_INCIDENTS) state.incidents.splice(0, state.incidents.length - MAX_INCIDENTS);
  return incident;
}
