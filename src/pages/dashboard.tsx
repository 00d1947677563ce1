/** @jsxImportSource hono/jsx */
/**
 * /dashboard: sign in with a merchant's API key and secret (kept in this browser tab's sessionStorage
 * only), then one view at a time, each at its own URL (dashboard-views.tsx). The shell is the same HTML
 * for every view URL, with that view shown; its sections are server fragments the script loads with the
 * keys and refreshes live (src/browser/dashboard/).
 */
import { Hono } from "hono";
import { requireMerchant } from "../http/auth.js";
import type { AppEnv } from "../http/env.js";
import { cspNonce, pageSecurityHeaders } from "../http/security-headers.js";
import { baseUrl } from "../http/base-url.js";
import type { Deps } from "../http/deps.js";
import { CAPTURE_URL } from "../domain/webhook-policy.js";
import { RequestDetail } from "./dashboard-logs.js";
import { storyExists } from "./dashboard-story.js";
import { Page } from "./layout.js";
import { LiveLine, etagOf, isFresh } from "./dashboard-live.js";
import { readTimeZone, TimeZone } from "./dashboard-tables.js";
import { ClockNow, STORY_LISTS, STORY_PATHS, type StoryKind } from "./dashboard-ui.js";
import { FRAGMENTS, IDENTITY, STORY_VIEW, VIEWS, viewOf, type Section, type View } from "./dashboard-views.js";

const PRODUCT = "merchant-sandbox";
const STORY_TITLES: Record<StoryKind, string> = { payout: "Payout", vtu: "VTU purchase", checkout: "Payment link", va_payment: "Transfer in", card: "Card" };
const viewHref = (v: View) => `/dashboard${v.path ? `/${v.path}` : ""}`;

/** What the shell shows first: a view, or a story with its kind and id. */
interface Shown {
  view: View;
  story?: { kind: StoryKind; id: string; list: View };
}

/** `alone`: the view's only section, whose title would repeat the view's: read by screen readers, not shown. */
function SectionCard(props: { s: Section; query?: string; alone?: boolean }) {
  const { s } = props;
  return (
    <section class={s.bare ? "card bare" : "card"} id={s.id} aria-labelledby={s.bare ? undefined : `${s.id}-heading`} aria-label={s.bare ? s.title : undefined}>
      {s.bare ? null : <h2 id={`${s.id}-heading`} tabindex={-1} class={props.alone ? "sr-only" : undefined}>{s.title}</h2>}
      {s.render ? <div data-section={s.id} data-query={props.query}>Loading…</div> : s.body}
      {/* Outside the refreshed fragment, so the result of an action outlives the refresh it causes. */}
      <div class="action-result" id={`${s.id}-result`} role="status" aria-live="polite" tabindex={-1}></div>
      {s.after}
    </section>
  );
}

function ViewPanel(props: { view: View; shown: Shown }) {
  const { view, shown } = props;
  const current = shown.view === view;
  const story = current ? shown.story : undefined;
  const title = story ? `${STORY_TITLES[story.kind]} ${story.id}` : view.title;
  return (
    <section class="view" id={`view-${view.id}`} data-view={view.id} data-path={view === STORY_VIEW ? undefined : viewHref(view)} aria-labelledby={`view-${view.id}-title`} hidden={!current}>
      {view === STORY_VIEW ? (
        <nav class="breadcrumb" aria-label="Breadcrumb">
          <a id="story-back" href={story ? viewHref(story.list) : "/dashboard"}>{story ? story.list.title : "Home"}</a>
        </nav>
      ) : null}
      <header class="view-head">
        <h1 id={`view-${view.id}-title`} tabindex={-1}>{title}</h1>
        {view.intro ? <p class="muted">{view.intro}</p> : null}
      </header>
      {view.sections.map((s) => (
        <SectionCard s={s} alone={view.sections.length === 1} query={view === STORY_VIEW && story ? new URLSearchParams({ kind: story.kind, id: story.id }).toString() : undefined} />
      ))}
    </section>
  );
}

function Navigation(props: { shown: Shown }) {
  const active = props.shown.story?.list ?? props.shown.view;
  const groups: { name: string | null; views: View[] }[] = [];
  for (const v of VIEWS) {
    const last = groups.at(-1);
    if (last && last.name === v.group) last.views.push(v);
    else groups.push({ name: v.group, views: [v] });
  }
  return (
    <nav id="nav" class="sidenav" aria-label="Dashboard">
      {groups.map((g) => (
        <>
          {g.name ? <h2 id={`nav-${g.name.toLowerCase().replace(/\W+/g, "-")}`}>{g.name}</h2> : null}
          <ul aria-labelledby={g.name ? `nav-${g.name.toLowerCase().replace(/\W+/g, "-")}` : undefined}>
            {g.views.map((v) => (
              <li><a href={viewHref(v)} data-nav={v.id} aria-current={v === active ? "page" : undefined}>{v.title}</a></li>
            ))}
          </ul>
        </>
      ))}
      {/* On a phone the top bar has no room for it: it is here, in the menu. */}
      <button type="button" class="ghost small nav-signout" data-signout>Sign out</button>
    </nav>
  );
}

function SignIn(props: { demo: boolean }) {
  return (
    <div class="signin" id="signin">
      <a class="brand" href="/"><span class="brand-mark" aria-hidden="true">₦</span><span>{PRODUCT}</span></a>{" "}
      <span class="sandbox-chip">Sandbox</span>
      <section class="card gap-top" aria-labelledby="signin-heading">
        <h1 id="signin-heading">Sign in to the dashboard</h1>
        <div id="signin-recent"></div>
        {props.demo ? (
          <>
            <p class="muted">This sandbox was started locally with a demo merchant that holds sample activity.</p>
            <button type="button" id="use-demo">Use the demo merchant</button>
            <p class="or">or use a merchant's keys</p>
          </>
        ) : null}
        <form id="signin-form">
          <label for="api-key">API key (X-Api-Key)</label>
          <input id="api-key" name="apiKey" autocomplete="off" required />
          <label for="api-secret">API secret (X-Api-Secret)</label>
          <input id="api-secret" name="apiSecret" type="password" autocomplete="off" required />
          <p class="muted gap-top">The keys stay in this browser tab (sessionStorage) and are sent only to this sandbox.</p>
          <div class="actions">
            <button type="submit" class={props.demo ? "secondary" : ""}>Sign in</button>
            <button type="button" class="ghost" id="signin-cancel" hidden>Back to the dashboard</button>
          </div>
        </form>
        <div id="signin-error" role="alert"></div>
      </section>
    </div>
  );
}

function Shell(props: { nonce: string; shown: Shown; demo: boolean }) {
  const { shown } = props;
  const title = shown.story ? `${STORY_TITLES[shown.story.kind]} ${shown.story.id}` : shown.view.title;
  return (
    <Page
      title={`${title} · ${PRODUCT}`}
      nonce={props.nonce}
      script="dashboard.js"
      skipTo="content"
      banner={false}
      bodyClass="app"
      data={{ "capture-url": CAPTURE_URL, "story-paths": JSON.stringify(STORY_PATHS), "story-lists": JSON.stringify(STORY_LISTS), "story-titles": JSON.stringify(STORY_TITLES), product: PRODUCT, demo: props.demo ? "on" : "off" }}
    >
      <SignIn demo={props.demo} />
      <div id="app" hidden>
        <header class="topbar">
          <button type="button" id="menu-toggle" class="secondary small" aria-expanded="false" aria-controls="nav">Menu</button>
          <a class="brand" href="/dashboard"><span class="brand-mark" aria-hidden="true">₦</span><span class="brand-name">{PRODUCT}</span></a>
          <span class="sandbox-chip" title="No real money moves">Sandbox</span>
          <div class="merchant">
            <div data-section={IDENTITY.id}></div>
            <button type="button" class="secondary small" id="switch-merchant">Switch<span class="switch-long"> merchant</span></button>
            <button type="button" class="ghost small" id="signout" data-signout>Sign out</button>
          </div>
        </header>
        <div class="layout">
          <Navigation shown={shown} />
          <main id="content" class="app-main" tabindex={-1}>
            <LiveLine />
            <div id="toast" role="status" aria-live="polite"></div>
            {[...VIEWS, STORY_VIEW].map((v) => <ViewPanel view={v} shown={shown} />)}
          </main>
        </div>
      </div>
    </Page>
  );
}

function NotFound(props: { nonce: string; path: string }) {
  return (
    <Page title={`Not found · ${PRODUCT}`} nonce={props.nonce} skipTo="content">
      <main id="content">
        <section class="card">
          <h1>No dashboard page at {props.path}</h1>
          <p><a href="/dashboard">Open the dashboard's home</a></p>
        </section>
      </main>
    </Page>
  );
}

export function dashboardRoutes(opts: Deps) {
  const app = new Hono<AppEnv>();
  app.use("/dashboard/fragments/*", requireMerchant({ registry: opts.registry, store: opts.store, trustProxy: opts.trustProxy, accountRules: false }));
  // One request of the log, whole (the Logs view opens it).
  app.get("/dashboard/fragments/logs/:seq", async (c) => {
    const seq = Number(c.req.param("seq"));
    if (!Number.isSafeInteger(seq) || seq < 1) return c.html(<p class="error">Unknown request.</p>, 404);
    const tenant = c.var.tenant;
    await opts.driver.catchUpForRead(tenant);
    return c.html(<TimeZone.Provider value={readTimeZone(c.req.query("tz"))}><RequestDetail tenant={tenant} seq={seq} /></TimeZone.Provider>);
  });
  app.get("/dashboard/fragments/:section", async (c) => {
    const section = FRAGMENTS.get(c.req.param("section"));
    if (!section?.render) return c.html(<p class="error">Unknown section.</p>, 404);
    const tenant = c.var.tenant;
    await opts.driver.catchUpForRead(tenant);
    const query = new URL(c.req.url).searchParams;
    const ctx = { baseUrl: baseUrl(opts.publicUrl, c.req.url), doctor: opts.doctor, query };
    const html = await (
      <TimeZone.Provider value={readTimeZone(query.get("tz") ?? undefined)}>
        <ClockNow.Provider value={tenant.clock.now()}>{section.render(tenant, ctx)}</ClockNow.Provider>
      </TimeZone.Provider>
    ).toString();
    // The dashboard asks every 2 s with the ETag of what it shows: an unchanged section costs a 304.
    const etag = etagOf(html);
    c.header("ETag", etag);
    c.header("Cache-Control", "private, no-cache");
    if (isFresh(c.req.header("if-none-match"), etag)) return c.body(null, 304);
    // A story of an object this merchant does not have says so, as a 404.
    const missing = section.id === "story" && !storyExists(tenant, query.get("kind") as StoryKind, query.get("id") ?? "");
    return c.html(html, missing ? 404 : 200);
  });
  const shell = pageSecurityHeaders();
  // Every view's URL serves the same shell with that view shown, so links, reloads and the back button work.
  app.get("/dashboard", shell, (c) => c.html(<Shell nonce={cspNonce(c)} shown={{ view: VIEWS[0]! }} demo={!opts.shared && opts.tryItKeys() !== undefined} />));
  app.get("/dashboard/*", shell, (c) => {
    const rest = c.req.path.slice("/dashboard/".length);
    const shown = rest === "fragments" || rest.startsWith("fragments/") ? null : viewOf(rest);
    if (!shown) return c.html(<NotFound nonce={cspNonce(c)} path={c.req.path} />, 404);
    return c.html(<Shell nonce={cspNonce(c)} shown={shown} demo={!opts.shared && opts.tryItKeys() !== undefined} />);
  });
  return app;
}
