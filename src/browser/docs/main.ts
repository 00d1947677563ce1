/**
 * /docs: starts the vendored Scalar reference (loaded before this script, as the global `Scalar`) with
 * the configuration the server wrote into the page as JSON (its spec URL, and the demo keys for "Try it").
 */
declare const Scalar: { createApiReference(selector: string, config: unknown): void };

const config = document.getElementById("scalar-config")?.textContent;
if (config) Scalar.createApiReference("#app", JSON.parse(config));
