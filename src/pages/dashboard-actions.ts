/**
 * The dashboard's actions, as a script string that runs inside the dashboard script's closure (it
 * uses headers(), show(), resultSlot() and load()). Every button or form with `data-post` goes
 * through `send`; what its answer means is said by the describer its `data-describe` names, in one
 * table here, so each action's wording lives in one place.
 *
 * An answer is a failure when the HTTP status says so, and also when a 2xx reports a failed outcome
 * (a delivery the receiver refused, a declined card spend): the describer returns `{ ok: false }`.
 * A refused form keeps what the user typed: the envelope's `errors` go under their fields, the focus
 * to the first of them; a form is reset only after a success.
 */
import { CAPTURE_URL } from "../domain/webhook-policy.js";

export const ACTIONS_SCRIPT = String.raw`
  function naira(n) { return "₦" + Number(n).toLocaleString("en-NG", { minimumFractionDigits: 2, maximumFractionDigits: 2 }); }
  function usd(n) { return "$" + Number(n).toFixed(2); }
  function utc(iso) { return iso ? iso.replace("T", " ").replace(/\.\d+Z$/, "Z") : "—"; }
  function plural(n, one, many) { return n + " " + (n === 1 ? one : many); }
  var DESCRIBE = {
    payout: function (json, req, el, path) {
      var done = { approve: "approved", reject: "rejected", complete: "completed", fail: "failed" }[path.split("/").pop()] || "changed";
      return "Payout " + json.data.reference + " " + done + ": now " + json.data.status + (json.data.error ? " (" + json.data.error + ")" : "") + ".";
    },
    fund: function (json, req) { return "Wallet funded with " + naira(req.amount) + "; balance " + naira(json.data.balance) + "."; },
    clock: function (json) { return "Clock advanced to " + utc(json.data.now) + "; " + plural(json.data.fired, "timer", "timers") + " fired, " + json.data.pending_timers + " pending."; },
    rule: function (json) {
      var r = json.data;
      return "Rule " + r.id + " added: " + r.target + " → " + r.outcome + (r.match ? " when " + JSON.stringify(r.match) : "") + (r.times ? ", " + plural(r.times, "use", "uses") : "") + ".";
    },
    // A delivery is a success only when the receiver answered 2xx: the server's own outcome says so.
    delivery: function (json) {
      var d = json.data;
      var where = d.url === ${JSON.stringify(CAPTURE_URL)} ? "the sandbox's own receiver" : d.url;
      if (d.outcome === "delivered") {
        return "Delivered " + d.event_type + " (" + d.event_id + ") to " + where + ": HTTP " + d.status_code + " in " + d.latency_ms + " ms.";
      }
      var why = d.status_code !== null ? "HTTP " + d.status_code + " from " + where : "could not reach " + where + (d.error ? ": " + d.error : "");
      return { ok: false, text: "Not delivered: " + why + (d.response_excerpt ? ". Response: " + d.response_excerpt : ".") };
    },
    // A run that found problems is a failed check, though the run itself succeeded.
    doctor: function (json) {
      var d = json.data;
      return { ok: d.ok, text: "Webhook doctor: " + d.passed + " of " + d.total + " cases passed" + (d.failed ? ", " + d.failed + " failed (see the scorecard)." : ".") };
    },
    spend: function (json, req) {
      var t = json.data;
      if (t.status === "declined") return { ok: false, text: "Spend of " + usd(t.amount) + " declined: " + t.decline_reason + "." };
      return "Spent " + usd(t.amount) + " on card " + t.card_id + "; card balance " + usd(t.balance_after) + ".";
    },
    vtu: function (json) { return "VTU purchase " + json.reference + ": now " + json.status + "."; },
    transfer: function (json) { return "Transfer of " + naira(json.data.amount) + " into " + json.data.virtual_account + ": " + json.data.status + " (" + json.data.transaction_id + ")."; },
    link: function (json) { return "Payment link " + json.reference + " created for " + naira(json.amount) + ": " + json.payment_link; },
    paid: function (json) { return "Payment link " + json.data.reference + " paid: now " + json.data.status + "."; },
    account: function (json) { return (json.message ? json.message + ": " : "Virtual account created: ") + json.data.account_number + " (" + json.data.account_name + ")."; },
    reset: function (json) {
      return "Merchant emptied: its ledger, payouts, payment links, virtual accounts, VTU purchases, cards, events, deliveries, outcome rules and timers are gone; wallet balance " + naira(json.data.wallet_balance) + ". Keys, settings and the clock were kept.";
    },
    settings: function (json, req, el) {
      var changed = changedFields(el);
      fillSandboxSettings(json.data);
      return changed.length ? "Settings saved: " + changed.join(", ") + "." : "Settings saved (nothing had changed).";
    },
  };
  // The path names the kind (a button or form may name another with data-describe).
  var KIND_OF_PATH = [
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
  function kindOf(el, path) {
    if (el && el.getAttribute("data-describe")) return el.getAttribute("data-describe");
    for (var i = 0; i < KIND_OF_PATH.length; i++) if (KIND_OF_PATH[i][0].test(path)) return KIND_OF_PATH[i][1];
    return "";
  }
  function describe(path, json, req, el) {
    var kind = kindOf(el, path);
    var said;
    // An answer of a shape a describer did not expect still says it succeeded, never "could not be reached".
    try { said = DESCRIBE[kind] ? DESCRIBE[kind](json, req, el, path) : (json.message || "Done."); } catch (e) { said = json.message || "Done."; }
    return typeof said === "string" ? { ok: true, text: said } : said;
  }

  // ---- Field errors -------------------------------------------------------------------------
  // A form's refusal, kept by the form's key so a refresh that re-renders the form can put it back.
  var refused = {};
  function formKey(form) { return form.id || form.getAttribute("data-post"); }
  // The field an error names, or its nearest named parent ("ip_allowlist.2" is the ip_allowlist field).
  function fieldFor(form, name) {
    var parts = name.split(".");
    while (parts.length) {
      var el = form.querySelector('[name="' + parts.join(".").replace(/"/g, "") + '"]');
      if (el) return el;
      parts.pop();
    }
    return null;
  }
  function clearFieldErrors(form) {
    Array.prototype.forEach.call(form.querySelectorAll(".field-error"), function (p) { p.remove(); });
    Array.prototype.forEach.call(form.querySelectorAll("[aria-invalid]"), function (el) {
      el.removeAttribute("aria-invalid");
      var ids = (el.getAttribute("aria-describedby") || "").split(" ").filter(function (id) { return id && !/-field-error$/.test(id); });
      if (ids.length) el.setAttribute("aria-describedby", ids.join(" ")); else el.removeAttribute("aria-describedby");
    });
  }
  // Shows each error under its field; returns the first invalid field and the errors no field took.
  function showFieldErrors(form, errors) {
    var first = null, rest = [], named = [];
    Object.keys(errors || {}).forEach(function (name) {
      var el = fieldFor(form, name);
      var text = errors[name].join(" ");
      if (!el) { rest.push(name + ": " + text); return; }
      if (!el.id) el.id = formKey(form).replace(/[^a-zA-Z0-9_-]/g, "-") + "-" + el.name.replace(/[^a-zA-Z0-9_-]/g, "-");
      var p = document.getElementById(el.id + "-field-error");
      if (!p) {
        p = document.createElement("p");
        p.id = el.id + "-field-error";
        p.className = "error field-error";
        (el.closest("[data-field]") || el).insertAdjacentElement(el.closest("[data-field]") ? "beforeend" : "afterend", p);
      }
      p.textContent = (p.textContent ? p.textContent + " " : "") + text;
      el.setAttribute("aria-invalid", "true");
      var ids = (el.getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
      if (ids.indexOf(p.id) < 0) ids.push(p.id);
      el.setAttribute("aria-describedby", ids.join(" "));
      if (!first) first = el;
      var label = el.id && document.querySelector('label[for="' + el.id + '"]');
      named.push(label ? label.textContent : el.name);
    });
    return { first: first, rest: rest, named: named };
  }

  // ---- Sending ------------------------------------------------------------------------------
  function send(path, method, body, origin) {
    var slot = resultSlot(origin);
    var form = origin && origin.tagName === "FORM" ? origin : null;
    show(slot, "notice", "Working…", false);
    return fetch(path, { method: method, headers: headers(body === undefined ? {} : { "content-type": "application/json" }), body: body === undefined ? undefined : JSON.stringify(body) })
      .then(function (r) {
        if (r.status === 401) { signOut("Your keys were not accepted."); return null; }
        return r.json().then(function (json) { return { ok: r.ok, json: json }; }, function () { return { ok: false, json: { error_code: "HTTP_" + r.status, message: "The sandbox answered HTTP " + r.status + " without JSON." } }; });
      })
      .then(function (res) {
        if (!res) return;
        if (form) clearFieldErrors(form);
        if (!res.ok) {
          var json = res.json;
          var placed = form ? showFieldErrors(form, json.errors) : { first: null, rest: Object.keys(json.errors || {}).map(function (k) { return k + ": " + json.errors[k].join(" "); }) };
          var detail = (placed.named && placed.named.length ? " Check: " + placed.named.join(", ") + "." : "") + (placed.rest.length ? " " + placed.rest.join(" ") : "");
          show(slot, "error", (json.error_code ? json.error_code + ": " : "") + (json.message || "Refused.") + detail, !placed.first);
          if (form) refused[formKey(form)] = json.errors || {};
          if (placed.first) placed.first.focus();
          // A refusal changed nothing: no reload, so the form keeps what was typed.
          return;
        }
        var said = describe(path, res.json, body || {}, origin);
        show(slot, said.ok ? "success" : "error", said.text, true);
        if (form) { delete refused[formKey(form)]; if (!form.hasAttribute("data-keep")) form.reset(); }
        if (form) form.dispatchEvent(new Event("form:sent", { bubbles: true }));
        return load();
      })
      .catch(function () { show(slot, "error", "The sandbox could not be reached.", true); });
  }
  function askConfirm(box, open) {
    box.hidden = !open;
    var form = box.closest("form");
    var ask = form.querySelector("[data-ask]");
    ask.setAttribute("aria-expanded", open ? "true" : "false");
    (open ? box.querySelector("[type=submit]") : ask).focus();
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-ask], button[data-cancel]");
    if (!button) return;
    var box = document.getElementById(button.getAttribute("data-ask") || button.getAttribute("data-cancel"));
    askConfirm(box, button.hasAttribute("data-ask"));
  });
  document.addEventListener("form:sent", function (event) {
    var confirm = event.target.getAttribute("data-confirm");
    if (!confirm) return;
    document.getElementById(confirm).hidden = true;
    event.target.querySelector("[data-ask]").setAttribute("aria-expanded", "false");
  });
  // A refused form re-rendered by a refresh gets its errors back (the live-update code keeps the input).
  document.addEventListener("section:updated", function (event) {
    Array.prototype.forEach.call(event.target.querySelectorAll("form[data-post]"), function (form) {
      if (refused[formKey(form)]) showFieldErrors(form, refused[formKey(form)]);
    });
  });

  function isChanged(el) {
    if (el.type === "checkbox") return el.checked !== el.defaultChecked;
    if (el.tagName === "SELECT") return !el.options[el.selectedIndex].defaultSelected;
    return el.value !== el.defaultValue;
  }
  // A form's body: dotted names nest ("limits.payout_max"); data-type says how a value is read.
  function formBody(form) {
    var body = JSON.parse(form.getAttribute("data-extra") || "{}");
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.disabled || el.closest("[hidden]")) return;
      // An editor of saved values (data-changed-only) sends what the user changed, nothing else.
      if (form.hasAttribute("data-changed-only") && !isChanged(el)) return;
      var type = el.getAttribute("data-type") || (el.type === "number" ? "number" : el.type === "checkbox" ? "boolean" : "string");
      var value;
      if (type === "boolean") value = el.checked;
      else if (el.value.trim() === "" && (type === "list" || type === "numbers")) value = [];
      else if (el.value.trim() === "") return;
      else if (type === "number") value = Number(el.value);
      // A datetime-local has no zone: the label says UTC, so it is sent as UTC.
      else if (type === "utc") value = (el.value.length === 16 ? el.value + ":00" : el.value) + "Z";
      else if (type === "list") value = el.value.split(/[\s,]+/).filter(Boolean);
      else if (type === "numbers") value = el.value.split(/[\s,]+/).filter(Boolean).map(Number);
      else if (type === "json") { try { value = JSON.parse(el.value); } catch (e) { value = el.value; } }
      else value = el.value;
      var parts = el.name.split("."), at = body;
      for (var i = 0; i < parts.length - 1; i++) at = at[parts[i]] = at[parts[i]] || {};
      at[parts[parts.length - 1]] = value;
    });
    return body;
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-post]");
    if (!button || button.type === "submit") return;
    var body = button.getAttribute("data-body");
    send(button.getAttribute("data-post"), button.getAttribute("data-method") || "POST", body ? JSON.parse(body) : undefined, button);
  });
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.getAttribute("data-post")) return;
    event.preventDefault();
    // A form that asks first (reset) is sent only from its confirm step, never by Enter in a field.
    var confirm = form.getAttribute("data-confirm") && document.getElementById(form.getAttribute("data-confirm"));
    if (confirm && confirm.hidden) { askConfirm(confirm, true); return; }
    send(form.getAttribute("data-post"), form.getAttribute("data-method") || "POST", formBody(form), form);
  });

  // ---- The outcome-rule form: only the target's outcomes, only the fields it takes ------------
  function ruleForm(form) {
    var spec = JSON.parse(form.getAttribute("data-rules"));
    var target = form.elements.target.value, rule = spec[target];
    var outcome = form.elements.outcome;
    var key = form.querySelector("[data-match-key]"), value = form.querySelector("[data-match-value]");
    function fill(select, values, blank) {
      select.innerHTML = "";
      (blank ? [""] : []).concat(values).forEach(function (v) { var opt = document.createElement("option"); opt.value = v; opt.textContent = v || blank; select.appendChild(opt); });
    }
    if (outcome.getAttribute("data-for") !== target) {
      fill(outcome, rule.outcomes);
      fill(key, rule.match, "(every " + target + ")");
      outcome.setAttribute("data-for", target);
    }
    // The value is sent as match.{field}: no field chosen, no match.
    if (key.value) value.name = "match." + key.value; else value.removeAttribute("name");
    var o = outcome.value;
    Array.prototype.forEach.call(form.querySelectorAll("[data-rule-field]"), function (wrap) {
      var field = wrap.getAttribute("data-rule-field");
      wrap.hidden = field === "delay_seconds" ? rule.delay.indexOf(o) < 0 : field === "queries" ? rule.queries.indexOf(o) < 0 : field === "match_value" ? !key.value : false;
    });
    form.elements.delay_seconds.max = String(rule.max_delay);
  }
  document.addEventListener("change", function (event) {
    var form = event.target.closest && event.target.closest("form[data-rules]");
    if (form) ruleForm(form);
  });
  // After a success the form is reset to its first target: narrow it again.
  document.addEventListener("form:sent", function (event) { if (event.target.hasAttribute("data-rules")) ruleForm(event.target); });
`;
