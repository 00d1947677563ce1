/**
 * The "API Keys", "Webhook Settings" and sandbox-settings views, filled by the browser from what it
 * holds (the signed-in keys) and GET /sandbox/v1/merchant, so no server HTML ever carries a secret;
 * and the Copy and Reveal buttons everywhere. The secrets live in `secretValues` only; the page shows
 * them on "Reveal".
 */
import { byId, closest } from "./dom.js";
import { clearFieldErrors, isChanged, settingsHooks } from "./actions.js";
import { resultSlot, show } from "./feedback.js";
import { creds, headers } from "./session.js";

type Merchant = any;

let secretValues: Record<string, string> = {};
const MASK = "••••••••••••";

const setText = (id: string, text: string) => {
  byId(id).textContent = text;
};

function setSecret(id: string, value: string): void {
  secretValues[id] = value;
  const node = byId(id);
  if (node.getAttribute("data-masked") !== "true") node.textContent = value;
}

function fillWebhook(m: Merchant): void {
  setText("webhook-current", m.webhook_url || "Not set: the sandbox's own receiver");
  setText("webhook-scheme", `HMAC-${String(m.webhook.signature_algorithm).toUpperCase()} of the raw body, ${m.webhook.signature_encoding} encoded`);
  setSecret("webhook-secret", m.webhook_secret);
}

// The settings editor shows the merchant's values; each field's default is the saved value, so what the
// user changed is told apart (the success message names it).
const settingOf = (m: Merchant, name: string) => name.split(".").reduce((at: any, key) => (at == null ? undefined : at[key]), m);

function fillSandboxSettings(m: Merchant): void {
  for (const el of Array.from(byId<HTMLFormElement>("settings-form").elements) as (HTMLInputElement | HTMLSelectElement)[]) {
    if (!el.name) continue;
    const value = settingOf(m, el.name);
    if (el instanceof HTMLInputElement && el.type === "checkbox") {
      el.checked = el.defaultChecked = !!value;
      continue;
    }
    const text = value == null ? "" : Array.isArray(value) ? value.join(", ") : String(value);
    if (el instanceof HTMLSelectElement) {
      Array.from(el.options).forEach((o) => (o.defaultSelected = o.value === text));
      el.value = text;
      continue;
    }
    el.value = el.defaultValue = text;
  }
}

function changedFields(form: Element | null): string[] {
  if (!(form instanceof HTMLFormElement)) return [];
  return (Array.from(form.elements) as HTMLInputElement[])
    .filter((el) => el.name && isChanged(el))
    .map((el) => document.querySelector(`label[for="${el.id}"]`)?.textContent ?? el.name);
}

export async function loadSettings(): Promise<void> {
  const c = creds();
  setText("keys-api-key", c?.apiKey ?? "");
  secretValues["keys-api-key"] = c?.apiKey ?? "";
  setSecret("keys-api-secret", c?.apiSecret ?? "");
  const r = await fetch("/sandbox/v1/merchant", { headers: headers() });
  if (!r.ok) return;
  const json = (await r.json()) as { data: Merchant };
  setText("keys-merchant-id", json.data.merchant_id);
  fillWebhook(json.data);
  fillSandboxSettings(json.data);
}

function toggleSecret(button: HTMLElement): void {
  const id = button.getAttribute("data-reveal")!;
  const node = byId(id);
  const reveal = node.getAttribute("data-masked") === "true";
  node.setAttribute("data-masked", reveal ? "false" : "true");
  node.textContent = reveal ? (secretValues[id] ?? "") : MASK;
  button.setAttribute("aria-expanded", reveal ? "true" : "false");
  button.textContent = reveal ? "Hide" : "Reveal";
  button.setAttribute("aria-label", (button.getAttribute("aria-label") ?? "").replace(reveal ? /^Reveal/ : /^Hide/, reveal ? "Hide" : "Reveal"));
}

export function clearSettings(): void {
  secretValues = {};
  ["keys-merchant-id", "keys-api-key", "webhook-current", "webhook-scheme"].forEach((id) => setText(id, ""));
  document.querySelectorAll<HTMLElement>("[data-reveal]").forEach((button) => {
    if (button.getAttribute("aria-expanded") === "true") toggleSecret(button);
  });
  byId<HTMLFormElement>("webhook-form").reset();
  fieldError("");
  for (const id of ["settings-form", "reset-form"]) {
    const form = byId<HTMLFormElement>(id);
    form.reset();
    clearFieldErrors(form);
  }
  byId("reset-confirm").hidden = true;
}

function fieldError(message: string): void {
  const input = byId("webhook-url");
  const error = byId("webhook-url-error");
  error.textContent = message;
  error.hidden = !message;
  if (message) input.setAttribute("aria-invalid", "true");
  else input.removeAttribute("aria-invalid");
}

/** What a Copy button copies: a kept secret, a snippet with the keys filled in, or the text shown. */
function copyValue(id: string): string | null {
  if (id in secretValues) return secretValues[id] ?? null;
  const shown = document.getElementById(id);
  const template = shown?.getAttribute("data-template");
  if (template) {
    const c = creds();
    return template.replaceAll("{{key}}", c?.apiKey ?? "").replaceAll("{{secret}}", c?.apiSecret ?? "");
  }
  return shown?.textContent ?? null;
}

export function startSettings(): void {
  settingsHooks.changedFields = changedFields;
  settingsHooks.fill = fillSandboxSettings;
  document.addEventListener("click", (event) => {
    const button = closest(event, "button[data-reveal], button[data-copy]");
    if (!button) return;
    if (button.hasAttribute("data-reveal")) {
      toggleSecret(button);
      return;
    }
    const slot = resultSlot(button);
    const name = (button.getAttribute("aria-label") ?? "text").replace(/^Copy /, "");
    const value = copyValue(button.getAttribute("data-copy") ?? "");
    if (!value || !navigator.clipboard) {
      show(slot, "error", `Could not copy the ${name}: this browser gives no clipboard here.`, false);
      return;
    }
    navigator.clipboard.writeText(value).then(
      () => show(slot, "success", `Copied the ${name} to the clipboard.`, false),
      () => show(slot, "error", `Could not copy the ${name}: the browser refused.`, false),
    );
  });
  // The user's text stays in the field whatever the answer; a refusal is said beside it.
  byId("webhook-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const input = byId<HTMLInputElement>("webhook-url");
    const url = input.value.trim();
    const slot = resultSlot(input);
    show(slot, "notice", "Working…", false);
    try {
      const r = await fetch("/sandbox/v1/merchant", {
        method: "PATCH",
        headers: headers({ "content-type": "application/json" }),
        body: JSON.stringify({ webhook_url: url === "" ? null : url }),
      });
      const json = (await r.json()) as Merchant;
      if (r.ok) {
        fieldError("");
        fillWebhook(json.data);
        show(slot, "success", json.data.webhook_url ? `Webhook URL saved: new deliveries go to ${json.data.webhook_url}.` : "Webhook URL cleared: deliveries go to the sandbox's own receiver.", true);
        return;
      }
      const own = json.errors?.webhook_url as string[] | undefined;
      fieldError(own ? own.join(" ") : "");
      show(slot, "error", `${json.error_code}: ${own ? `webhook_url: ${own.join(" ")}` : json.message}`, !own);
      if (own) input.focus();
    } catch {
      show(slot, "error", "The sandbox could not be reached.", true);
    }
  });
}
