/**
 * The Scenarios view's result: the merchants a scenario made, each with a button that switches to it
 * (one step), and what else it named (a link's reference, an account's number).
 */
import { byId, closest } from "./dom.js";
import { scenarioHooks } from "./actions.js";
import { remember, type KnownMerchant } from "./session.js";

interface Loaded {
  data: { merchants: Record<string, { merchant_id: string; api_key: string; api_secret: string }>; objects?: Record<string, string | number> };
}

const made = new Map<string, KnownMerchant>();

function loaded(json: Loaded): string {
  const box = byId("scenario-merchants");
  box.replaceChildren();
  const merchants = Object.entries(json.data.merchants ?? {});
  const list = document.createElement("ul");
  for (const [alias, m] of merchants) {
    made.set(m.api_key, { apiKey: m.api_key, apiSecret: m.api_secret, name: alias });
    const li = document.createElement("li");
    li.textContent = `${alias} (${m.merchant_id}) `;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "small";
    button.dataset.switchTo = m.api_key;
    button.textContent = `Switch to ${alias}`;
    li.appendChild(button);
    list.appendChild(li);
  }
  box.appendChild(list);
  const objects = Object.entries(json.data.objects ?? {});
  if (objects.length) {
    const p = document.createElement("p");
    p.className = "muted";
    p.textContent = `It also made: ${objects.map(([k, v]) => `${k} ${v}`).join(", ")}.`;
    box.appendChild(p);
  }
  return `Scenario loaded: ${merchants.length} new merchant${merchants.length === 1 ? "" : "s"}. Switch to one below.`;
}

/** `switchTo`: signs in as a merchant (main.ts gives it). */
export function startScenarios(switchTo: (m: KnownMerchant) => Promise<void>): void {
  scenarioHooks.loaded = (json) => loaded(json as Loaded);
  document.addEventListener("click", (event) => {
    const button = closest(event, "button[data-switch-to]");
    const m = button ? made.get(button.dataset.switchTo ?? "") : undefined;
    if (!m) return;
    remember(m);
    void switchTo(m);
  });
}
