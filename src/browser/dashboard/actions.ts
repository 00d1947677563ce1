/**
 * The dashboard's actions: every button or form with `data-post` goes through `send`; what its answer
 * means is said by the describer its path (or its `data-describe`) names, in one table here, so each
 * action's wording lives in one place.
 *
 * An answer is a failure when the HTTP status says so, and also when a 2xx reports a failed outcome (a
 * delivery the receiver refused, a declined card spend): the describer returns `{ ok: false }`. A
 * refused form keeps what the user typed: the envelope's `errors` go under their fields, the focus to
 * the first of them; a form is reset only after a success.
 */
import { closest, setting } from "./dom.js";
import { resultSlot, show } from "./feedback.js";
import { load } from "./live.js";
import { headers, signOut } from "./session.js";

// The answers' shapes vary by route; each describer reads the fields its route documents.
type Json = any;
type Said = string | { ok: boolean; text: string };
type Describer = (json: Json, req: Json, el: Element | null, path: string) => Said;

const naira = (n: number) => `₦${Number(n).toLocaleString("en-NG", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const usd = (n: number) => `$${Number(n).toFixed(2)}`;
const utc = (iso: string | null) => (iso ? iso.replace("T", " ").replace(/\.\d+Z$/, "Z") : "—");
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** A hook the settings module gives: what the settings form changed, and to refill it from an answer. */
export const settingsHooks = { changedFields: (_form: Element | null): string[] => [], fill: (_m: Json): void => undefined };
/** A hook the scenarios module gives: shows the merchants a scenario made. */
export const scenarioHooks = { loaded: (_json: Json): string => "Scenario loaded." };

const DESCRIBE: Record<string, Describer> = {
  // Each says what happened once: "Payout X approved: it is now processing.", "Payout X completed."
  payout: (json, _req, _el, path) => {
    const d = json.data;
    const why = d.error ? ` (${d.error})` : "";
    const action = path.split("/").pop();
    if (action === "approve") return `Payout ${d.reference} approved: it is now ${String(d.status).replaceAll("_", " ")}.`;
    if (action === "reject") return `Payout ${d.reference} rejected${why}.`;
    if (action === "complete" || action === "fail") return `Payout ${d.reference} ${d.status}${why}.`;
    return `Payout ${d.reference} is now ${d.status}${why}.`;
  },
  fund: (json, req) => `Wallet funded with ${naira(req.amount)}; balance ${naira(json.data.balance)}.`,
  clock: (json) => `Clock advanced to ${utc(json.data.now)}; ${plural(json.data.fired, "timer", "timers")} fired, ${json.data.pending_timers} pending.`,
  rule: (json) => {
    const r = json.data;
    return `Rule ${r.id} added: ${r.target} → ${r.outcome}${r.match ? ` when ${JSON.stringify(r.match)}` : ""}${r.times ? `, ${plural(r.times, "use", "uses")}` : ""}.`;
  },
  // A delivery is a success only when the receiver answered 2xx: the server's own outcome says so.
  delivery: (json) => {
    const d = json.data;
    const where = d.url === setting("captureUrl") ? "the sandbox's own receiver" : d.url;
    if (d.outcome === "delivered") return `Delivered ${d.event_type} (${d.event_id}) to ${where}: HTTP ${d.status_code} in ${d.latency_ms} ms.`;
    const why = d.status_code !== null ? `HTTP ${d.status_code} from ${where}` : `could not reach ${where}${d.error ? `: ${d.error}` : ""}`;
    return { ok: false, text: `Not delivered: ${why}${d.response_excerpt ? `. Response: ${d.response_excerpt}` : "."}` };
  },
  // A run that found problems is a failed check, though the run itself succeeded.
  doctor: (json) => {
    const d = json.data;
    return { ok: d.ok, text: `Webhook doctor: ${d.passed} of ${d.total} cases passed${d.failed ? `, ${d.failed} failed (see the scorecard).` : "."}` };
  },
  spend: (json) => {
    const t = json.data;
    if (t.status === "declined") return { ok: false, text: `Spend of ${usd(t.amount)} declined: ${t.decline_reason}.` };
    return `Spent ${usd(t.amount)} on card ${t.card_id}; card balance ${usd(t.balance_after)}.`;
  },
  vtu: (json) => `VTU purchase ${json.reference}: now ${json.status}.`,
  transfer: (json) => `Transfer of ${naira(json.data.amount)} into ${json.data.virtual_account}: ${json.data.status} (${json.data.transaction_id}).`,
  link: (json) => `Payment link ${json.reference} created for ${naira(json.amount)}: ${json.payment_link}`,
  paid: (json) => `Payment link ${json.data.reference} paid: now ${json.data.status}.`,
  account: (json) => `${json.message ? `${json.message}: ` : "Virtual account created: "}${json.data.account_number} (${json.data.account_name}).`,
  reset: (json) =>
    `Merchant emptied: its ledger, payouts, payment links, virtual accounts, VTU purchases, cards, events, deliveries, outcome rules and timers are gone; wallet balance ${naira(json.data.wallet_balance)}. Keys, settings and the clock were kept.`,
  settings: (json, _req, el) => {
    const changed = settingsHooks.changedFields(el);
    settingsHooks.fill(json.data);
    return changed.length ? `Settings saved: ${changed.join(", ")}.` : "Settings saved (nothing had changed).";
  },
  scenario: (json) => scenarioHooks.loaded(json),
};

// The path names the kind (a button or form may name another with data-describe).
const KIND_OF_PATH: [RegExp, string][] = [
  [/^\/sandbox\/v1\/clock\/advance$/, "clock"],
  [/^\/sandbox\/v1\/wallet\/fund$/, "fund"],
  [/^\/sandbox\/v1\/outcomes$/, "rule"],
  [/^\/sandbox\/v1\/webhooks\/test$/, "delivery"],
  [/^\/sandbox\/v1\/webhooks\/doctor$/, "doctor"],
  [/^\/sandbox\/v1\/reset$/, "reset"],
  [/^\/sandbox\/v1\/merchant$/, "settings"],
  [/^\/api\/v1\/checkout\/create$/, "link"],
  [/^\/api\/v1\/virtual-account\/create$/, "account"],
  [/\/redeliver$/, "delivery"],
  [/^\/sandbox\/v1\/payouts\/[^/]+\/(approve|reject|complete|fail)$/, "payout"],
  [/^\/sandbox\/v1\/virtual-cards\/[^/]+\/spend$/, "spend"],
  [/^\/sandbox\/v1\/vtu\/[^/]+\/(succeed|fail)$/, "vtu"],
  [/^\/sandbox\/v1\/checkout\/[^/]+\/pay$/, "paid"],
  [/^\/sandbox\/v1\/virtual-accounts\/[^/]+\/transfers$/, "transfer"],
];

function kindOf(el: Element | null, path: string): string {
  const named = el?.getAttribute("data-describe");
  if (named) return named;
  return KIND_OF_PATH.find(([re]) => re.test(path))?.[1] ?? "";
}

function describe(path: string, json: Json, req: Json, el: Element | null): { ok: boolean; text: string } {
  const describer = DESCRIBE[kindOf(el, path)];
  let said: Said;
  // An answer of a shape a describer did not expect still says it succeeded, never "could not be reached".
  try {
    said = describer ? describer(json, req, el, path) : (json?.message ?? "Done.");
  } catch {
    said = json?.message ?? "Done.";
  }
  return typeof said === "string" ? { ok: true, text: said } : said;
}

// ---- Field errors -------------------------------------------------------------------------------

type Errors = Record<string, string[]>;
/** A form's refusal, kept by the form's key so a refresh that re-renders the form can put it back. */
const refused: Record<string, Errors> = {};
const formKey = (form: HTMLFormElement) => form.id || (form.getAttribute("data-post") ?? "");
type Field = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

// The field an error names, or its nearest named parent ("ip_allowlist.2" is the ip_allowlist field).
function fieldFor(form: HTMLFormElement, name: string): Field | null {
  const parts = name.split(".");
  while (parts.length) {
    const el = form.querySelector<Field>(`[name="${parts.join(".").replace(/"/g, "")}"]`);
    if (el) return el;
    parts.pop();
  }
  return null;
}

export function clearFieldErrors(form: HTMLFormElement): void {
  form.querySelectorAll(".field-error").forEach((p) => p.remove());
  form.querySelectorAll("[aria-invalid]").forEach((el) => {
    el.removeAttribute("aria-invalid");
    const ids = (el.getAttribute("aria-describedby") ?? "").split(" ").filter((id) => id && !/-field-error$/.test(id));
    if (ids.length) el.setAttribute("aria-describedby", ids.join(" "));
    else el.removeAttribute("aria-describedby");
  });
}

// Shows each error under its field; returns the first invalid field and the errors no field took.
function showFieldErrors(form: HTMLFormElement, errors: Errors | undefined): { first: Field | null; rest: string[]; named: string[] } {
  let first: Field | null = null;
  const rest: string[] = [];
  const named: string[] = [];
  for (const name of Object.keys(errors ?? {})) {
    const el = fieldFor(form, name);
    const text = (errors?.[name] ?? []).join(" ");
    if (!el) {
      rest.push(`${name}: ${text}`);
      continue;
    }
    if (!el.id) el.id = `${formKey(form).replace(/[^a-zA-Z0-9_-]/g, "-")}-${el.name.replace(/[^a-zA-Z0-9_-]/g, "-")}`;
    let p = document.getElementById(`${el.id}-field-error`);
    if (!p) {
      p = document.createElement("p");
      p.id = `${el.id}-field-error`;
      p.className = "error field-error";
      const wrap = el.closest("[data-field]");
      (wrap ?? el).insertAdjacentElement(wrap ? "beforeend" : "afterend", p);
    }
    p.textContent = (p.textContent ? `${p.textContent} ` : "") + text;
    el.setAttribute("aria-invalid", "true");
    const ids = (el.getAttribute("aria-describedby") ?? "").split(" ").filter(Boolean);
    if (!ids.includes(p.id)) ids.push(p.id);
    el.setAttribute("aria-describedby", ids.join(" "));
    first ??= el;
    const label = el.id ? document.querySelector(`label[for="${el.id}"]`) : null;
    named.push(label?.textContent ?? el.name);
  }
  return { first, rest, named };
}

// ---- Sending ------------------------------------------------------------------------------------

/** Sends one action and says its result where it was taken; a success reloads the shown sections. */
export async function send(path: string, method: string, body: unknown, origin: Element | null, contentType = "application/json"): Promise<void> {
  const slot = resultSlot(origin);
  const form = origin instanceof HTMLFormElement ? origin : null;
  show(slot, "notice", "Working…", false);
  let res: { ok: boolean; json: Json };
  try {
    const r = await fetch(path, {
      method,
      headers: headers(body === undefined ? {} : { "content-type": contentType }),
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    if (r.status === 401 && path !== "/sandbox/v1/scenarios") {
      signOut("Your keys were not accepted.");
      return;
    }
    res = await r.json().then(
      (json: Json) => ({ ok: r.ok, json }),
      () => ({ ok: false, json: { error_code: `HTTP_${r.status}`, message: `The sandbox answered HTTP ${r.status} without JSON.` } }),
    );
  } catch {
    show(slot, "error", "The sandbox could not be reached.", true);
    return;
  }
  if (form) clearFieldErrors(form);
  if (!res.ok) {
    const json = res.json;
    const placed = form
      ? showFieldErrors(form, json.errors)
      : { first: null, named: [], rest: Object.keys(json.errors ?? {}).map((k) => `${k}: ${(json.errors[k] as string[]).join(" ")}`) };
    const detail = (placed.named.length ? ` Check: ${placed.named.join(", ")}.` : "") + (placed.rest.length ? ` ${placed.rest.join(" ")}` : "");
    show(slot, "error", (json.error_code ? `${json.error_code}: ` : "") + (json.message ?? "Refused.") + detail, !placed.first);
    if (form) refused[formKey(form)] = json.errors ?? {};
    placed.first?.focus();
    // A refusal changed nothing: no reload, so the form keeps what was typed.
    return;
  }
  const said = describe(path, res.json, typeof body === "object" && body !== null ? body : {}, origin);
  show(slot, said.ok ? "success" : "error", said.text, true);
  if (form) {
    delete refused[formKey(form)];
    if (!form.hasAttribute("data-keep")) form.reset();
    form.dispatchEvent(new Event("form:sent", { bubbles: true }));
  }
  await load();
}

function askConfirm(box: HTMLElement, open: boolean): void {
  box.hidden = !open;
  const ask = box.closest("form")?.querySelector<HTMLElement>("[data-ask]");
  ask?.setAttribute("aria-expanded", open ? "true" : "false");
  (open ? box.querySelector<HTMLElement>("[type=submit]") : ask)?.focus();
}

function isChanged(el: Element): boolean {
  if (el instanceof HTMLInputElement && el.type === "checkbox") return el.checked !== el.defaultChecked;
  if (el instanceof HTMLSelectElement) return !el.options[el.selectedIndex]?.defaultSelected;
  return (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) && el.value !== el.defaultValue;
}
export { isChanged };

// A form's body: dotted names nest ("limits.payout_max"); data-type says how a value is read.
function formBody(form: HTMLFormElement): Record<string, unknown> {
  const body = JSON.parse(form.getAttribute("data-extra") ?? "{}") as Record<string, unknown>;
  for (const el of Array.from(form.elements) as Field[]) {
    if (!el.name || el.disabled || el.closest("[hidden]")) continue;
    // An editor of saved values (data-changed-only) sends what the user changed, nothing else.
    if (form.hasAttribute("data-changed-only") && !isChanged(el)) continue;
    const type = el.getAttribute("data-type") ?? (el.type === "number" ? "number" : el.type === "checkbox" ? "boolean" : "string");
    const raw = el.value;
    let value: unknown;
    if (type === "boolean") value = (el as HTMLInputElement).checked;
    else if (raw.trim() === "" && (type === "list" || type === "numbers")) value = [];
    else if (raw.trim() === "") continue;
    else if (type === "number") value = Number(raw);
    // A datetime-local has no zone: the label says UTC, so it is sent as UTC.
    else if (type === "utc") value = `${raw.length === 16 ? `${raw}:00` : raw}Z`;
    else if (type === "list") value = raw.split(/[\s,]+/).filter(Boolean);
    else if (type === "numbers") value = raw.split(/[\s,]+/).filter(Boolean).map(Number);
    else if (type === "json") {
      try {
        value = JSON.parse(raw);
      } catch {
        value = raw;
      }
    } else value = raw;
    const parts = el.name.split(".");
    let at = body;
    for (const part of parts.slice(0, -1)) at = (at[part] ??= {}) as Record<string, unknown>;
    at[parts[parts.length - 1]!] = value;
  }
  return body;
}

// ---- The outcome-rule form: only the target's outcomes, only the fields it takes ----------------

interface RuleSpec {
  outcomes: string[];
  match: string[];
  delay: string[];
  queries: string[];
  max_delay: number;
}

function ruleForm(form: HTMLFormElement): void {
  const spec = JSON.parse(form.getAttribute("data-rules") ?? "{}") as Record<string, RuleSpec>;
  const target = (form.elements.namedItem("target") as HTMLSelectElement).value;
  const rule = spec[target];
  if (!rule) return;
  const outcome = form.elements.namedItem("outcome") as HTMLSelectElement;
  const key = form.querySelector<HTMLSelectElement>("[data-match-key]")!;
  const value = form.querySelector<HTMLInputElement>("[data-match-value]")!;
  const fill = (select: HTMLSelectElement, values: string[], blank?: string) => {
    select.innerHTML = "";
    for (const v of (blank ? [""] : []).concat(values)) {
      const opt = document.createElement("option");
      opt.value = v;
      opt.textContent = v || blank || "";
      select.appendChild(opt);
    }
  };
  if (outcome.getAttribute("data-for") !== target) {
    fill(outcome, rule.outcomes);
    fill(key, rule.match, `(every ${target})`);
    outcome.setAttribute("data-for", target);
  }
  // The value is sent as match.{field}: no field chosen, no match.
  if (key.value) value.name = `match.${key.value}`;
  else value.removeAttribute("name");
  const o = outcome.value;
  form.querySelectorAll<HTMLElement>("[data-rule-field]").forEach((wrap) => {
    const field = wrap.getAttribute("data-rule-field");
    wrap.hidden = field === "delay_seconds" ? !rule.delay.includes(o) : field === "queries" ? !rule.queries.includes(o) : field === "match_value" ? !key.value : false;
  });
  (form.elements.namedItem("delay_seconds") as HTMLInputElement).max = String(rule.max_delay);
}

export function startActions(): void {
  document.addEventListener("click", (event) => {
    const button = closest<HTMLButtonElement>(event, "button[data-ask], button[data-cancel]");
    if (!button) return;
    const box = document.getElementById(button.getAttribute("data-ask") ?? button.getAttribute("data-cancel") ?? "");
    if (box) askConfirm(box, button.hasAttribute("data-ask"));
  });
  document.addEventListener("form:sent", (event) => {
    const form = event.target as HTMLFormElement;
    const confirm = form.getAttribute("data-confirm");
    if (confirm) {
      document.getElementById(confirm)!.hidden = true;
      form.querySelector("[data-ask]")?.setAttribute("aria-expanded", "false");
    }
    // After a success the rule form is reset to its first target: narrow it again.
    if (form.hasAttribute("data-rules")) ruleForm(form);
  });
  // A refused form re-rendered by a refresh gets its errors back (the live updates keep the input).
  document.addEventListener("section:updated", (event) => {
    (event.target as HTMLElement).querySelectorAll<HTMLFormElement>("form[data-post]").forEach((form) => {
      const errors = refused[formKey(form)];
      if (errors) showFieldErrors(form, errors);
    });
  });
  document.addEventListener("click", (event) => {
    const button = closest<HTMLButtonElement>(event, "button[data-post]");
    if (!button || button.type === "submit") return;
    const body = button.getAttribute("data-body");
    void send(button.getAttribute("data-post")!, button.getAttribute("data-method") ?? "POST", body ? JSON.parse(body) : undefined, button);
  });
  document.addEventListener("submit", (event) => {
    const form = event.target as HTMLFormElement;
    const path = form.getAttribute("data-post");
    if (!path) return;
    event.preventDefault();
    // A form that asks first (reset) is sent only from its confirm step, never by Enter in a field.
    const confirm = form.getAttribute("data-confirm") ? document.getElementById(form.getAttribute("data-confirm")!) : null;
    if (confirm?.hidden) {
      askConfirm(confirm, true);
      return;
    }
    // A raw body (a scenario's YAML) goes as it was typed, with its own content type.
    const raw = form.getAttribute("data-raw");
    if (raw) {
      const field = form.elements.namedItem(raw) as HTMLTextAreaElement;
      void send(path, "POST", field.value, form, form.getAttribute("data-content-type") ?? "text/plain");
      return;
    }
    void send(path, form.getAttribute("data-method") ?? "POST", formBody(form), form);
  });
  document.addEventListener("change", (event) => {
    const form = closest<HTMLFormElement>(event, "form[data-rules]");
    if (form) ruleForm(form);
  });
}
