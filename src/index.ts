/** The package's public API: the app factory, the server, and webhook signature helpers. */
export { createApp, type App, type AppOptions } from "./app.js";
export { startServer, buildRegistry, type RunningSandbox } from "./server.js";
export { parseSettings, type Settings } from "./config.js";
export { signPayload, verifyWebhookSignature, type SignatureOptions } from "./webhooks/sign.js";
/** What `app.request()` rejects with when an outcome rule or magic value resets the connection after the change was made. */
export { ConnectionReset } from "./http/errors.js";
