/**
 * The payment page's script (src/pages/checkout-page.tsx renders the page): the countdown on the
 * merchant's clock, the status poll, copy buttons, the "I've sent the money" step, the sandbox's
 * simulated transfer (any amount, so a wrong one is refused), and the redirect after payment.
 * Every sentence a customer reads about the link's state is the server's: a live change shows the
 * server's render of the new state (state-view.ts); the script writes only the countdown and the
 * sandbox panel's replies.
 */
import { bindCopyButtons } from "./copy-buttons.js";
import { Countdown } from "./countdown.js";
import { byId, markScrollingValues } from "./dom.js";
import { messageOfReply, readLinkData, stateOfReply, webUrl, type LinkState, type LinkStatus } from "./link-state.js";
import { fetchView, showView } from "./state-view.js";

const POLL_EVERY_MS = 2000;
const REDIRECT_AFTER_MS = 2000;

const initial = readLinkData();
if (!initial) throw new Error("payment page: no link data");
const linkUrl = `/pay/${encodeURIComponent(initial.reference)}`;
const countdown = new Countdown();
const message = byId("message", HTMLElement);
const simulateForm = byId("simulate-form", HTMLFormElement);
const simulateAmount = byId("simulate-amount", HTMLInputElement);
const simulateButton = byId("simulate-button", HTMLButtonElement);

/** The state whose view is on the page. */
let shown: LinkStatus = initial.status;
/** A fetch of the page's new view under way (one at a time). */
let refreshing: Promise<void> | null = null;
let redirected = false;
let askedAtZero = false;

function say(kind: "notice" | "success" | "error", text: string): void {
  message.className = kind;
  message.textContent = text;
}

/** Once the page shows paid or expired: the sandbox panel says so, and a paid link goes back to the merchant. */
function settled(state: LinkState): void {
  if (state.status === "paid") {
    say("success", "Payment received. Thank you!");
    const target = webUrl(state.redirect_url);
    if (target && !redirected) {
      redirected = true;
      window.setTimeout(() => location.assign(target), REDIRECT_AFTER_MS);
    }
  } else if (state.status === "expired") {
    say("error", "This payment link has expired. Ask the merchant for a new one.");
  }
}

function refreshView(state: LinkState): Promise<void> {
  refreshing ??= fetchView(`${linkUrl}/view`)
    .then((fresh) => {
      if (!fresh || fresh.status === shown) return; // tried again at the next poll
      showView(fresh);
      shown = fresh.status;
      markScrollingValues();
      settled({ ...state, status: fresh.status });
    })
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

function apply(state: LinkState): void {
  countdown.sync(state, Date.now());
  countdown.render(Date.now());
  const open = state.status === "pending";
  simulateButton.disabled = !open;
  simulateAmount.disabled = !open;
  if (state.status !== shown) void refreshView(state);
}

async function poll(): Promise<void> {
  try {
    const state = stateOfReply(await (await fetch(`${linkUrl}/status`, { cache: "no-store" })).json());
    if (state) apply(state);
  } catch {
    // Offline for a moment: the next poll tries again.
  }
}

function tick(): void {
  const left = countdown.render(Date.now());
  // At zero the link has expired on the merchant's clock: ask now rather than at the next poll.
  if (left === 0 && shown === "pending" && !askedAtZero) {
    askedAtZero = true;
    void poll();
  }
}

bindCopyButtons(byId("copy-note", HTMLElement));

document.addEventListener("click", (event) => {
  if (!(event.target instanceof Element) || !event.target.closest("#sent-button")) return;
  byId("sent-step", HTMLElement).hidden = true;
  const waiting = byId("waiting", HTMLElement);
  waiting.hidden = false;
  waiting.focus();
});

simulateForm.addEventListener("submit", (event) => {
  event.preventDefault();
  say("notice", "Sending the transfer...");
  fetch(`${linkUrl}/simulate`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ amount: Number(simulateAmount.value) }),
  })
    .then((r) => r.json() as Promise<unknown>)
    .then((body) => {
      const state = stateOfReply(body);
      if (state) apply(state);
      else say("error", messageOfReply(body) ?? "The transfer was refused.");
    })
    .catch(() => say("error", "The sandbox could not be reached."));
});

window.addEventListener("resize", () => markScrollingValues());
markScrollingValues();
apply(initial);
if (shown !== "pending") settled(initial);
window.setInterval(tick, 1000);
window.setInterval(() => void poll(), POLL_EVERY_MS);
