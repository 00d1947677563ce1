/** @jsxImportSource hono/jsx */
/**
 * An object's story view: its status and amount, its fields, the actions its state allows (the same
 * endpoints the lists use), and its timeline on the merchant's clock (domain/stories.ts), where each
 * webhook delivery shows the receiver's answer and each request links to the request log.
 */
import type { Child } from "hono/jsx";
import { hasStory, STORY_OBJECTS, storyOf, type Story as StoryData, type StoryEntry, type StoryField } from "../domain/stories.js";
import { deliveryTarget } from "../domain/webhook-policy.js";
import type { Tenant } from "../engine/tenant.js";
import { Action } from "./dashboard-fragments.js";
import { when } from "./dashboard-tables.js";
import { Chip, Money, STORY_PATHS, type StoryKind } from "./dashboard-ui.js";

/** The kind comes from a URL: anything else names no story. */
const isStoryKind = (kind: string): kind is StoryKind => Object.hasOwn(STORY_PATHS, kind);

/** Whether `Story` shows the object (else it shows the not-found block, which the route answers with 404). */
export function storyExists(tenant: Tenant, kind: StoryKind, id: string): boolean {
  return isStoryKind(kind) && hasStory(tenant.state, kind, id);
}

export function Story(props: { tenant: Tenant; kind: StoryKind; id: string; baseUrl: string }) {
  const { tenant, kind, id } = props;
  const story = isStoryKind(kind) ? storyOf({ state: tenant.state, requests: tenant.requestLog.all(), kind, id, now: tenant.clock.now() }) : null;
  if (!story) return <NotFound kind={kind} id={id} />;
  const noun = STORY_OBJECTS[story.kind].noun;
  const actions = actionsOf(story, props.baseUrl);
  const canRedeliver = deliveryTarget(tenant.config) !== null;
  return (
    <div class="story" data-story={story.kind} data-story-id={story.id}>
      <div class="row story-head">
        <span>{noun[0]!.toUpperCase() + noun.slice(1)}</span>
        <span class="mono" data-testid="story-id">{story.id}</span>
        <Chip status={story.status} label={story.status_label} testid="story-status" />
        <span>
          {story.amount.label === "Amount" ? null : `${story.amount.label} `}
          <Money amount={story.amount.value} currency={story.amount.currency} testid="story-amount" />
        </span>
      </div>

      <h2 id="story-details">Details</h2>
      <dl class="details" data-testid="story-details">
        {story.fields.map((f) => (
          <>
            <dt>{f.label}</dt>
            <dd>{fieldValue(f)}</dd>
          </>
        ))}
      </dl>

      <h2 id="story-actions">Actions</h2>
      {actions.length > 0 ? (
        <div class="actions" data-testid="story-actions">{actions}</div>
      ) : (
        <p class="muted" data-testid="story-actions">Nothing to do: this {noun} is {story.status_label}.</p>
      )}

      <h2 id="story-timeline">Timeline</h2>
      <p class="muted">On the merchant's clock, oldest first; what is still due comes last.</p>
      <ol class="timeline" data-testid="story-timeline" aria-labelledby="story-timeline">
        {story.timeline.map((e) => <TimelineItem entry={e} canRedeliver={canRedeliver} />)}
      </ol>
    </div>
  );
}

function NotFound(props: { kind: string; id: string }) {
  const known = isStoryKind(props.kind) ? props.kind : null;
  const what = known ? STORY_OBJECTS[known] : null;
  return (
    <div class="empty" data-testid="story-not-found">
      <h2 id="story-not-found">Not found</h2>
      {what && known ? (
        <>
          <p>
            No {what.noun} with {what.idName} <span class="mono">{props.id}</span> for this merchant.
          </p>
          <p>
            <a href={`/dashboard/${STORY_PATHS[known]}`}>Back to {what.plural}</a>
          </p>
        </>
      ) : (
        <>
          <p>The dashboard has no such view.</p>
          <p>
            <a href="/dashboard">Back to Home</a>
          </p>
        </>
      )}
    </div>
  );
}

function fieldValue(f: StoryField): Child {
  if (f.format === "money") return <Money amount={f.value} currency={f.currency} />;
  if (f.value === null || f.value === "") return <span class="muted">—</span>;
  if (f.format === "time") return when(f.value, true);
  if (f.format === "mono") return <span class="mono">{String(f.value)}</span>;
  return String(f.value);
}

/** The actions the object's current state allows, through the endpoints the dashboard's lists use. */
function actionsOf(story: StoryData, baseUrl: string): Child[] {
  const id = encodeURIComponent(story.id);
  switch (story.kind) {
    case "payout": {
      const base = `/sandbox/v1/payouts/${id}`;
      if (story.status === "pending_approval") return [<Action post={`${base}/approve`} label="Approve" />, <Action post={`${base}/reject`} label="Reject" secondary />];
      if (story.status === "processing") return [<Action post={`${base}/complete`} label="Complete" />, <Action post={`${base}/fail`} label="Fail" secondary />];
      return [];
    }
    case "vtu":
      return story.status === "processing"
        ? [<Action post={`/sandbox/v1/vtu/${id}/succeed`} label="Succeed" />, <Action post={`/sandbox/v1/vtu/${id}/fail`} label="Fail" secondary />]
        : [];
    case "checkout": {
      const page = (
        <a href={`${baseUrl}/pay/${id}`} target="_blank" rel="noopener">
          Open the payment page
        </a>
      );
      return story.status === "pending" ? [<Action post={`/sandbox/v1/checkout/${id}/pay`} body={{}} label="Pay exact amount" />, page] : [page];
    }
    case "va_payment": {
      const base = `/sandbox/v1/virtual-accounts/payments/${id}`;
      return story.status === "pending" || story.status === "processing"
        ? [<Action post={`${base}/clear`} label="Clear now" />, <Action post={`${base}/fail`} label="Fail now" secondary />]
        : [];
    }
    case "card": {
      if (story.status === "terminated") return [];
      const base = `/api/v1/virtual-cards/${id}`;
      return [
        story.status === "active" ? <Action post={`${base}/freeze`} label="Freeze" secondary /> : <Action post={`${base}/unfreeze`} label="Unfreeze" />,
        <Action post={`${base}/terminate`} label="Terminate" secondary />,
        <details>
          <summary>Spend</summary>
          <form data-post={`/sandbox/v1/virtual-cards/${id}/spend`} class="row" novalidate>
            <div data-field>
              <label for="story-spend-amount">Amount ($)</label>
              <input id="story-spend-amount" name="amount" type="number" step="0.01" min="0.01" required class="w-m" />
            </div>
            <button type="submit">Spend</button>
          </form>
        </details>,
      ];
    }
  }
}

const TESTIDS: Partial<Record<StoryEntry["kind"], string>> = { delivery: "story-delivery", request: "story-request" };

function TimelineItem(props: { entry: StoryEntry; canRedeliver: boolean }) {
  const e = props.entry;
  const r = e.request;
  return (
    <li class={e.tone} data-key={e.key} data-kind={e.kind} data-testid={TESTIDS[e.kind]}>
      <div class="row">
        {r ? (
          <a href={`/dashboard/logs?seq=${r.seq}`}>
            <span class="mono">{r.method} {r.path}</span> → {r.status === null ? "no answer" : String(r.status)}
            {r.error_code ? <> <span class="mono">{r.error_code}</span></> : null}
          </a>
        ) : (
          <strong>{e.title}</strong>
        )}
        {r?.sample ? <span class="tag">sample</span> : null}
        {e.amount ? <Money amount={e.amount.value} currency={e.amount.currency} sign={e.amount.sign} /> : null}
      </div>
      <p class="muted">
        {e.kind === "scheduled" ? "Due " : null}
        {when(new Date(e.at).toISOString(), true)}
        {r ? ` · request #${r.seq}` : null}
        {e.kind === "event" && e.event_id ? <> · <span class="mono">{e.event_id}</span></> : null}
      </p>
      {e.detail ? <p>{e.detail}</p> : null}
      {e.delivery ? <Answer delivery={e.delivery} /> : null}
      {e.kind === "event" && e.event_id && props.canRedeliver ? (
        <div class="actions">
          <Action post={`/sandbox/v1/events/${encodeURIComponent(e.event_id)}/redeliver`} label="Redeliver" secondary />
        </div>
      ) : null}
    </li>
  );
}

/** What the receiver answered, beyond the status and latency its title gives. */
function Answer({ delivery: d }: { delivery: NonNullable<StoryEntry["delivery"]> }) {
  return (
    <dl class="details">
      {d.error && d.status_code !== null ? (
        <>
          <dt>Error</dt>
          <dd>{d.error}</dd>
        </>
      ) : null}
      <dt>Response</dt>
      <dd>{d.response_excerpt ? <pre class="mono wrap">{d.response_excerpt}</pre> : <span class="muted">none</span>}</dd>
      {d.next_retry_at !== null ? (
        <>
          <dt>Next retry</dt>
          <dd>{when(new Date(d.next_retry_at).toISOString(), true)}</dd>
        </>
      ) : null}
    </dl>
  );
}
