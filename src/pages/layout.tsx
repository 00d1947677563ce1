/** @jsxImportSource hono/jsx */
/**
 * The HTML shell of the sandbox's own pages: one stylesheet inline, no external assets (the pages
 * work offline), readable contrast, and a layout that works from 320 px phones up. No style
 * attributes anywhere (the CSP allows only the nonce'd stylesheet): classes below instead.
 */
import type { Child } from "hono/jsx";
import { raw } from "hono/html";

const BASE_CSS = `
:root { --ink:#14213d; --muted:#4a5568; --brand:#0b6e4f; --brand-ink:#ffffff; --bg:#f4f6f8; --card:#ffffff;
  --ok:#0b6e4f; --warn:#8a4b00; --bad:#a4161a; --line:#d7dde4; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
* { box-sizing: border-box; }
body { margin:0; background:var(--bg); color:var(--ink); line-height:1.5; }
main { max-width: 480px; margin: 0 auto; padding: 16px; }
.card { background:var(--card); border:1px solid var(--line); border-radius:12px; padding:20px; margin:16px 0; }
h1 { font-size:1.25rem; margin:0 0 4px; } h2 { font-size:1.05rem; margin:0 0 12px; }
.muted { color:var(--muted); font-size:.9rem; }
.amount { font-size:2rem; font-weight:700; margin:8px 0; }
dl.details { display:grid; grid-template-columns: 1fr 1.4fr; gap:8px 12px; margin:0; }
dl.details dt { color:var(--muted); } dl.details dd { margin:0; font-weight:600; word-break:break-word; }
.status { display:inline-block; padding:4px 10px; border-radius:999px; font-weight:700; }
.status.pending { background:#fff3cd; color:var(--warn); } .status.paid { background:#d8f3dc; color:var(--ok); }
.status.expired, .status.failed { background:#fde2e4; color:var(--bad); }
button, .button { font: inherit; border:0; border-radius:8px; padding:10px 16px; background:var(--brand); color:var(--brand-ink); cursor:pointer; font-weight:600; }
button.secondary { background:#e2e8f0; color:var(--ink); } button:disabled { opacity:.6; cursor:not-allowed; }
button:focus-visible, input:focus-visible, select:focus-visible, a:focus-visible, [tabindex]:focus-visible { outline:3px solid #1d4ed8; outline-offset:2px; }
.skip-link { position:absolute; left:8px; top:-60px; z-index:10; background:var(--card); color:var(--ink); padding:8px 12px; border-radius:8px; font-weight:600; }
.skip-link:focus { top:8px; }
label { display:block; font-weight:600; margin:8px 0 4px; }
input, select { font:inherit; padding:8px 10px; border:1px solid #8896a8; border-radius:8px; width:100%; background:#fff; color:var(--ink); }
.row { display:flex; gap:8px; flex-wrap:wrap; align-items:flex-end; }
td.row { display:table-cell; } td.row > * { margin:2px 6px 2px 0; }
.notice { padding:10px 12px; border-radius:8px; background:#e8f0fe; color:#1e3a8a; }
.error { background:#fde2e4; color:var(--bad); padding:10px 12px; border-radius:8px; }
.success { background:#d8f3dc; color:var(--ok); padding:10px 12px; border-radius:8px; }
.sandbox-banner { background:#14213d; color:#fff; text-align:center; font-size:.85rem; padding:6px; }
table { width:100%; border-collapse:collapse; font-size:.9rem; } th, td { text-align:left; padding:6px 8px; border-bottom:1px solid var(--line); vertical-align:top; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
.scroll-x { overflow-x:auto; } caption { text-align:left; } .gap-top { margin-top:12px; } pre.wrap { white-space:pre-wrap; overflow-wrap:anywhere; }
.payload pre { background:var(--bg); padding:8px; border-radius:6px; margin:4px 0 8px; } .payload p { margin:0; }
button.small { padding:4px 10px; font-size:.85rem; } td.details-cell { min-width:16rem; }
.local-time { color:var(--muted); } .filter-bar { margin-bottom:8px; } .pager { align-items:center; margin-top:8px; } .pager p { margin:0; }
.live-line { align-items:center; margin:12px 0; } .live-line p { margin:0; }
button.danger { background:var(--bad); color:#fff; }
.tag { display:inline-block; margin-left:6px; padding:0 8px; border-radius:999px; background:#e8f0fe; color:#1e3a8a; font-size:.8rem; font-weight:600; font-family:system-ui, sans-serif; }
fieldset { border:1px solid var(--line); border-radius:8px; margin:12px 0; padding:4px 12px 12px; min-width:0; } legend { font-weight:700; padding:0 4px; }
input[type=checkbox] { width:auto; margin:8px 0 4px; }
.field-error { margin:4px 0 0; padding:6px 10px; font-size:.9rem; }
.w-s { width:90px; } .w-m { width:110px; } .w-l { width:140px; } .w-xl { width:min(360px, 100%); }
`;

/**
 * `nonce`: the response's CSP nonce (cspNonce(c)); the inline style and script run only with it.
 * `skipTo`: the id of the main content; a "Skip to content" link to it is then the first Tab stop, so a
 * keyboard user need not tab through the banner and navigation on every visit.
 */
export function Page(props: { title: string; nonce: string; css?: string; script?: string; wide?: boolean; skipTo?: string; children?: Child }) {
  return (
    <>
    {raw("<!doctype html>")}
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{props.title}</title>
        <style nonce={props.nonce}>{raw(BASE_CSS + (props.css ?? "") + (props.wide ? "main{max-width:1100px}" : ""))}</style>
      </head>
      <body>
        {props.skipTo ? <a class="skip-link" href={`#${props.skipTo}`}>Skip to content</a> : null}
        <div class="sandbox-banner" role="note">Sandbox: no real money moves</div>
        {props.children}
        {props.script ? <script nonce={props.nonce}>{raw(props.script)}</script> : null}
      </body>
    </html>
    </>
  );
}
