/** @jsxImportSource hono/jsx */
/**
 * The dashboard's views: one per resource, each at its own URL under /dashboard, grouped in the
 * navigation the way merchants think. A view holds sections; a section is a server fragment
 * (`render`, refreshed by the live updates) or markup the script fills in (`body`: the settings,
 * whose secrets stay out of server HTML). Object stories live at /dashboard/<list>/<id> (STORY_PATHS).
 */
import type { Child } from "hono/jsx";
import type { DoctorDesk } from "../doctor/desk.js";
import type { Tenant } from "../engine/tenant.js";
import { Checks } from "./dashboard-checks.js";
import { WebhookDoctor } from "./dashboard-doctor.js";
import { Events } from "./dashboard-events.js";
import { Cards, ClockPanel, Ledger, Outcomes, PaymentLinks, Payouts, Transfers, VirtualAccounts, Vtu } from "./dashboard-fragments.js";
import { ChecksVerdict, GetStarted, HomeSummary, LatestActivity } from "./dashboard-home.js";
import { Identity } from "./dashboard-identity.js";
import { RequestLogList } from "./dashboard-logs.js";
import { Scenarios } from "./dashboard-scenarios.js";
import { ApiKeys, SandboxSettings, WebhookSettings } from "./dashboard-settings.js";
import { Story } from "./dashboard-story.js";
import { STORY_LISTS, STORY_PATHS, type StoryKind } from "./dashboard-ui.js";

/** What a section's render gets besides the merchant. */
export interface RenderContext {
  baseUrl: string;
  doctor: DoctorDesk;
  /** The section's `data-query` as sent (its tables' search, filters and page; a story's kind and id). */
  query: URLSearchParams;
}

/** `bare`: no heading or card of its own (a story's fragment brings its own headings). */
export type Section = { id: string; title: string; after?: Child; bare?: boolean } & (
  | { render: (t: Tenant, c: RenderContext) => Child; body?: never }
  | { body: Child; render?: never }
);

export interface View {
  id: string;
  /** The path after /dashboard ("" for Home). */
  path: string;
  title: string;
  /** The navigation group; null: at the top, without a heading. */
  group: string | null;
  /** One line under the title: what the view is for. */
  intro: string;
  sections: Section[];
}

export const VIEWS: View[] = [
  {
    id: "home", path: "", title: "Home", group: null, intro: "Your balance, the latest activity and whether your integration passes its checks.",
    sections: [
      { id: "overview", title: "Balance and clock", render: (t) => <HomeSummary tenant={t} /> },
      { id: "get-started", title: "Get started", render: (t, c) => <GetStarted tenant={t} baseUrl={c.baseUrl} /> },
      { id: "activity", title: "Latest activity", render: (t) => <LatestActivity tenant={t} /> },
      { id: "verdict", title: "Integration checks", render: (t) => <ChecksVerdict tenant={t} /> },
    ],
  },
  {
    id: "ledger", path: "ledger", title: "Ledger", group: null, intro: "Every debit and credit of the wallet, with the balance after each.",
    sections: [{ id: "ledger", title: "Ledger entries", render: (t, c) => <Ledger tenant={t} query={c.query} baseUrl={c.baseUrl} /> }],
  },
  {
    id: "virtual-accounts", path: "virtual-accounts", title: "Virtual accounts", group: "Money in", intro: "Dedicated accounts your customers pay into, and the transfers they received.",
    sections: [
      { id: "accounts", title: "Virtual accounts", render: (t, c) => <VirtualAccounts tenant={t} query={c.query} baseUrl={c.baseUrl} /> },
      { id: "transfers", title: "Transfers in", render: (t, c) => <Transfers tenant={t} query={c.query} /> },
    ],
  },
  {
    id: "payment-links", path: "payment-links", title: "Payment links", group: "Money in", intro: "Hosted pages a customer pays by bank transfer.",
    sections: [{ id: "links", title: "Payment links", render: (t, c) => <PaymentLinks tenant={t} baseUrl={c.baseUrl} query={c.query} /> }],
  },
  {
    id: "payouts", path: "payouts", title: "Payouts", group: "Money out", intro: "Transfers from your wallet to bank accounts.",
    sections: [{ id: "payouts", title: "Payouts", render: (t, c) => <Payouts tenant={t} query={c.query} baseUrl={c.baseUrl} /> }],
  },
  {
    id: "vtu", path: "vtu", title: "VTU purchases", group: "Bills", intro: "Airtime, data, cable, electricity and exam pins.",
    sections: [{ id: "vtu", title: "VTU purchases", render: (t, c) => <Vtu tenant={t} query={c.query} baseUrl={c.baseUrl} /> }],
  },
  {
    id: "cards", path: "cards", title: "Cardholders and cards", group: "Cards", intro: "Virtual USD cards and the people who hold them.",
    sections: [{ id: "cards", title: "Cardholders and cards", render: (t, c) => <Cards tenant={t} query={c.query} baseUrl={c.baseUrl} /> }],
  },
  {
    id: "events", path: "events", title: "Events and deliveries", group: "Developers", intro: "Every webhook event, each attempt to deliver it, and what your receiver answered.",
    sections: [{ id: "events", title: "Events and webhook deliveries", render: (t, c) => <Events tenant={t} query={c.query} /> }],
  },
  {
    id: "logs", path: "logs", title: "Request log", group: "Developers", intro: "Every API request this merchant made and the answer it got.",
    sections: [{ id: "logs", title: "Requests", render: (t, c) => <RequestLogList tenant={t} query={c.query} />, after: <div id="request-detail" aria-live="polite"></div> }],
  },
  {
    id: "checks", path: "checks", title: "Integration checks", group: "Developers", intro: "What your integration's traffic shows: the rules a real integration must keep.",
    sections: [{ id: "checks", title: "Integration checks", render: (t) => <Checks tenant={t} /> }],
  },
  {
    id: "doctor", path: "doctor", title: "Webhook doctor", group: "Developers", intro: "Sends your receiver signed, tampered and replayed webhooks and grades its answers.",
    sections: [{ id: "doctor", title: "Webhook doctor", render: (t, c) => <WebhookDoctor tenant={t} card={c.doctor.last(t)} running={c.doctor.isRunning(t)} /> }],
  },
  {
    id: "api-keys", path: "api-keys", title: "API keys", group: "Developers", intro: "The keys your server sends with every request.",
    sections: [{ id: "api-keys", title: "API Keys", body: <ApiKeys /> }],
  },
  {
    id: "webhook-settings", path: "webhook-settings", title: "Webhook settings", group: "Developers", intro: "Where webhooks go, how they are signed, and a test event.",
    sections: [{ id: "webhook-settings", title: "Webhook Settings", body: <WebhookSettings /> }],
  },
  {
    id: "clock", path: "clock", title: "Clock", group: "Sandbox", intro: "This merchant's own clock: advance it and see what is due.",
    sections: [{ id: "clock", title: "Clock and timers", render: (t) => <ClockPanel tenant={t} /> }],
  },
  {
    id: "outcomes", path: "outcomes", title: "Outcome rules", group: "Sandbox", intro: "Force how the next payouts, purchases, cards and transfers turn out.",
    sections: [{ id: "outcomes", title: "Outcome rules", render: (t, c) => <Outcomes tenant={t} query={c.query} /> }],
  },
  {
    id: "scenarios", path: "scenarios", title: "Scenarios", group: "Sandbox", intro: "Load a scripted scenario into a new merchant and switch to it.",
    sections: [{ id: "scenarios", title: "Load a scenario", body: <Scenarios /> }],
  },
  {
    id: "settings", path: "settings", title: "Settings and reset", group: "Sandbox", intro: "Limits, delays, products, webhooks and the clock's mode; or empty this merchant.",
    sections: [{ id: "sandbox-settings", title: "Sandbox settings", body: <SandboxSettings /> }],
  },
];

/** A story's view: its one section renders the object named by its query (kind and id). */
export const STORY_VIEW: View = {
  id: "story", path: "", title: "", group: null, intro: "",
  sections: [{ id: "story", title: "Story", bare: true, render: (t, c) => <Story tenant={t} kind={c.query.get("kind") as StoryKind} id={c.query.get("id") ?? ""} baseUrl={c.baseUrl} /> }],
};

/** The section that draws the signed-in merchant in the top bar, refreshed like any other. */
export const IDENTITY: Section = { id: "identity", title: "Merchant", render: (t) => <Identity tenant={t} /> };

const STORY_KINDS = Object.fromEntries(Object.entries(STORY_PATHS).map(([kind, path]) => [path, kind])) as Record<string, StoryKind>;

/** The view a path under /dashboard names ("" is Home), or a story, or null. */
export function viewOf(rest: string): { view: View; story?: { kind: StoryKind; id: string; list: View } } | null {
  const parts = rest.split("/").filter(Boolean);
  if (parts.length <= 1) {
    const view = VIEWS.find((v) => v.path === (parts[0] ?? ""));
    return view ? { view } : null;
  }
  const kind = parts.length === 2 ? STORY_KINDS[parts[0]!] : undefined;
  const list = kind ? VIEWS.find((v) => v.path === STORY_LISTS[kind]) : undefined;
  if (!kind || !list) return null;
  let id: string;
  try {
    id = decodeURIComponent(parts[1]!);
  } catch {
    return null;
  }
  return { view: STORY_VIEW, story: { kind, id, list } };
}

/** Every section that has a server fragment, by id. */
export const FRAGMENTS = new Map<string, Section>([...VIEWS.flatMap((v) => v.sections), ...STORY_VIEW.sections, IDENTITY].filter((s) => s.render).map((s) => [s.id, s]));
