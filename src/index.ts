/** The package's public API: the app factory, the server, and webhook signature helpers. */
export { createApp, type App, type AppOptions } from "./app.js";
export { startServer, buildRegistry, type RunningSandbox } from "./server.js";
export { parseSettings, type Settings } from "./config.js";
export { signPayload, verifyWebhookSignature, type SignatureOptions } from "./webhooks/sign.js";
