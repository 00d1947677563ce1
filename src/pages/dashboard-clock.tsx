/** @jsxImportSource hono/jsx */
/**
 * The merchant's clock as the dashboard shows it: its time (absolute, in UTC: the relative times
 * elsewhere count from it), its mode, the quick advances, the advance forms, and what is due when.
 */
import { iso } from "../domain/context.js";
import { plural } from "../domain/prose.js";
import type { Timer } from "../domain/records.js";
import { parseAttemptTimerRef } from "../domain/webhook-policy.js";
import type { Tenant } from "../engine/tenant.js";
import { Action } from "./dashboard-controls.js";
import { Table, when } from "./dashboard-tables.js";
import { EmptyState, StoryLink } from "./dashboard-ui.js";

const ADVANCE = "/sandbox/v1/clock/advance";
/** The timers listed; the rest are counted. */
const TIMERS_SHOWN = 50;

const utc = (ms: number) => iso(ms).replace("T", " ").replace(/\.\d+Z$/, "Z");

/** The quick advances, as the control API takes them. */
export function QuickAdvances() {
  return (
    <div class="actions">
      <Action post={ADVANCE} body={{ by: "1m" }} label="Advance 1 min" />
      <Action post={ADVANCE} body={{ by: "30m" }} label="Advance 30 min" secondary />
      <Action post={ADVANCE} body={{ by: "1d" }} label="Advance 1 day" secondary />
    </div>
  );
}

/** The clock in one line: its time in UTC, its mode and speed, and how many timers wait on it. */
export function ClockStatus({ tenant }: { tenant: Tenant }) {
  const { mode, speed } = tenant.clock.settings();
  const now = tenant.clock.now();
  return (
    <p>
      Sandbox time <strong><time datetime={iso(now)} data-testid="sim-time">{utc(now)}</time></strong>{" "}
      <span class="muted" data-testid="clock-mode">
        ({mode === "realtime" ? `realtime, ×${speed}` : "manual: it moves only when advanced"})
      </span>
      {" · "}
      <span data-testid="pending-timers">{plural(tenant.state.timers.length, "pending timer")}</span>
    </p>
  );
}

/** What a timer will do, and the object it is for. */
function TimerWhat({ timer }: { timer: Timer }) {
  switch (timer.kind) {
    case "payout.settle":
      return <>Payout <StoryLink kind="payout" id={timer.ref} /> settles</>;
    case "vtu.settle":
      return <>VTU purchase <StoryLink kind="vtu" id={timer.ref} /> settles</>;
    case "va_payment.settle":
      return <>Transfer in <StoryLink kind="va_payment" id={timer.ref} /> settles</>;
    case "kyc.approve":
      return <>KYC of cardholder <a href="/dashboard/cards" class="mono">{timer.ref}</a> is approved</>;
    case "webhook.attempt": {
      const { eventId, trigger } = parseAttemptTimerRef(timer.ref);
      return <>{trigger === "retry" ? "Webhook retry" : "Delayed webhook delivery"} of event <span class="mono">{eventId}</span></>;
    }
    case "timeline.run":
      return <>Scenario timeline entry <span class="mono">{timer.ref}</span> runs</>;
  }
}

export function ClockPanel({ tenant }: { tenant: Tenant }) {
  const timers = [...tenant.state.timers].sort((a, b) => a.at - b.at || a.seq - b.seq);
  const shown = timers.slice(0, TIMERS_SHOWN);
  return (
    <div>
      <ClockStatus tenant={tenant} />
      <QuickAdvances />
      {/* novalidate on every form: the sandbox's own validation answers, under the field, keeping the input. */}
      <div class="row">
        <form id="advance-by-form" data-post={ADVANCE} class="row gap-top" novalidate>
          <div data-field>
            <label for="advance-by">Advance by</label>
            <input id="advance-by" name="by" class="w-l" autocomplete="off" aria-describedby="advance-by-hint" />
            <p id="advance-by-hint" class="muted">A number and s, m, h or d: 15s, 90m, 2h, 3d.</p>
          </div>
          <button type="submit">Advance</button>
        </form>
        <form id="advance-to-form" data-post={ADVANCE} class="row gap-top" novalidate>
          <div data-field>
            <label for="advance-to">Advance to (UTC)</label>
            <input id="advance-to" name="to" type="datetime-local" step="1" data-type="utc" aria-describedby="advance-to-hint" />
            <p id="advance-to-hint" class="muted">A date and time in UTC, at or after the sandbox time.</p>
          </div>
          <button type="submit">Advance to this time</button>
        </form>
      </div>
      <h3>Pending timers</h3>
      <Table label="Pending timers" caption="What is due when, soonest first" head={["Due", "What"]} empty={
        <EmptyState id="timers-empty" title="Nothing is due">
          <p>Timers appear when something settles later: a payout, a VTU purchase, a transfer in, a cardholder's KYC, a webhook retry.</p>
        </EmptyState>
      }>
        {shown.map((t) => (
          <tr data-timer={String(t.seq)} data-key={String(t.seq)}>
            <td data-label="Due">{when(iso(t.at))}</td>
            <td data-label="What">
              <TimerWhat timer={t} />
            </td>
          </tr>
        ))}
      </Table>
      {timers.length > shown.length ? <p class="muted">And {plural(timers.length - shown.length, "later timer")}.</p> : null}
    </div>
  );
}
