/**
 * Dashboard components rendered to HTML as the fragment route renders them: with the merchant's clock
 * for the relative times. And the text of some HTML as a reader sees it.
 */
import { createElement } from "hono/jsx";
import type { Tenant } from "../../src/engine/tenant.js";
import { ClockNow } from "../../src/pages/dashboard-ui.js";

/** The sandbox's URL the snippets are written for. */
export const BASE = "http://sandbox.test";

export async function render<P extends object>(tenant: Tenant, component: (props: P) => unknown, props: P): Promise<string> {
  const node = createElement(component as never, props as never);
  return (await createElement(ClockNow.Provider, { value: tenant.clock.now() }, node).toString()) as string;
}

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };
/** HTML entities read back. */
export const unescape = (html: string) => html.replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]!);
/** The text of some HTML: tags dropped, entities read, white space folded. */
export const text = (html: string) => unescape(html.replace(/<[^>]+>/g, " ")).replace(/\s+/g, " ").trim();
