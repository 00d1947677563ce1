/**
 * The folder graph of src/, written once: which folder may import which. `npm run check:deps` (part of
 * `npm test`, so of .ci/run) fails on any import these rules forbid. The layers, top to bottom:
 *
 *   main.ts, cli/, index.ts, testing.ts, server.ts, app.ts, runtime.ts   entry points and wiring
 *   persistence/                                 the stores of tenants over store/ (`--data`); only the entry points import it
 *   api/, sandbox/, pages/                       the three surfaces; none imports another
 *   http/                                        the request pipeline and the one error envelope
 *   doctor/, webhooks/, scenarios/, store/       I/O and loaders (doctor/: the webhook doctor, over webhooks/)
 *   engine/                                      clocks, timers, tenants, the registry
 *   domain/                                      records, rules and views; imports nothing of ours
 *
 * Apart: browser/, the pages' browser code, bundled at build and inlined into the pages; it imports only
 * itself, and the server imports none of it (pages/assets.ts reads the bundle).
 *
 * An arrow only ever points down, never across within a layer except where named, and never in a circle.
 */
const layer = (...folders) => `^src/(${folders.join("|")})/`;
const ENTRY = "^src/(cli/|[^/]+\\.tsx?$)";

module.exports = {
  forbidden: [
    {
      name: "browser-code-apart",
      severity: "error",
      comment: "The browser's modules run in the page: they import only each other (and packages bundled with them).",
      from: { path: "^src/browser/" },
      to: { path: "^src/", pathNot: "^src/browser/" },
    },
    {
      name: "server-never-imports-browser-code",
      severity: "error",
      comment: "The server serves the bundle (pages/assets.ts); it never runs the browser's modules.",
      from: { path: "^src/", pathNot: "^src/browser/" },
      to: { path: "^src/browser/" },
    },
    { name: "no-circular", severity: "error", comment: "No import cycles, between folders or files.", from: {}, to: { circular: true } },
    {
      name: "domain-imports-nothing-of-ours",
      severity: "error",
      comment: "The rules are pure: no HTTP, no I/O, no runtime objects.",
      from: { path: layer("domain") },
      to: { path: "^src/", pathNot: layer("domain") },
    },
    {
      name: "engine-only-domain",
      severity: "error",
      comment: "The clock, timers, tenants and the registry run the domain and nothing else of ours.",
      from: { path: layer("engine") },
      to: { path: "^src/", pathNot: layer("engine", "domain") },
    },
    {
      name: "store-only-domain",
      severity: "error",
      comment: "Persistence reads and writes domain documents; it knows nothing of tenants or HTTP.",
      from: { path: layer("store") },
      to: { path: "^src/", pathNot: layer("store", "domain") },
    },
    {
      name: "persistence-below-entry",
      severity: "error",
      comment: "A tenant store keeps tenants in a store: it runs the engine over store/ and the domain, and knows nothing of HTTP.",
      from: { path: layer("persistence") },
      to: { path: "^src/", pathNot: layer("persistence", "store", "engine", "domain") },
    },
    {
      name: "only-entry-imports-persistence",
      severity: "error",
      comment: "The entry points choose the store; everything else sees the engine's TenantStore interface alone.",
      from: { path: "^src/", pathNot: `${ENTRY}|${layer("persistence")}` },
      to: { path: layer("persistence") },
    },
    {
      name: "webhooks-below-http",
      severity: "error",
      comment: "Webhook delivery (sign, POST, log) serves the pipeline and the engine, never the other way.",
      from: { path: layer("webhooks") },
      to: { path: "^src/", pathNot: layer("webhooks", "engine", "domain") },
    },
    {
      name: "doctor-below-http",
      severity: "error",
      comment: "The webhook doctor builds and signs deliveries and sends them through the webhook transport; the CLI, the control route and the dashboard use it.",
      from: { path: layer("doctor") },
      to: { path: "^src/", pathNot: layer("doctor", "webhooks", "domain") },
    },
    {
      name: "scenarios-below-http",
      severity: "error",
      comment: "The scenario format and loader build state through the domain and the registry; the runner lives beside the CLI.",
      from: { path: layer("scenarios") },
      to: { path: "^src/", pathNot: layer("scenarios", "engine", "domain") },
    },
    {
      name: "http-below-surfaces",
      severity: "error",
      comment: "The pipeline never reaches up into routes, pages or the entry points.",
      from: { path: layer("http") },
      to: { path: `${layer("api", "sandbox", "pages", "cli")}|^src/[^/]+\\.tsx?$` },
    },
    {
      name: "surfaces-do-not-import-each-other",
      severity: "error",
      comment: "api/v1, sandbox and pages share what they share through the domain (records, views, schemas).",
      from: { path: "^src/(api|sandbox|pages)/" },
      to: { path: "^src/(api|sandbox|pages)/", pathNot: "^src/$1/" },
    },
    {
      name: "surfaces-below-entry",
      severity: "error",
      comment: "Routes and pages are mounted by app.ts; they never import the wiring above them.",
      from: { path: "^src/(api|sandbox|pages)/" },
      to: { path: ENTRY },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  },
};
