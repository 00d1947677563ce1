/**
 * Shared mode (a sandbox on a network): a merchant may not point its webhooks at the sandbox's own
 * network. A URL naming a loopback or private address, or `localhost`, is refused when it is set
 * (here, for every way settings come in); a hostname is checked again at every delivery, on the
 * address it resolves to (webhooks/transport.ts).
 */
import { fieldError } from "../domain/errors.js";
import { describeUrlProblem } from "../webhooks/transport.js";

export function assertWebhookTarget(url: string | null | undefined, shared: boolean, field = "webhook_url"): void {
  if (!shared || !url) return;
  const problem = describeUrlProblem(url, true);
  if (problem) throw fieldError(field, problem);
}
