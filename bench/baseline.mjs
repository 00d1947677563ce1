// The practical ceiling: a bare Hono app on @hono/node-server returning a small JSON object.
import { serve } from "@hono/node-server";
import { Hono } from "hono";

const app = new Hono().get("*", (c) => c.json({ success: true, data: { balance: 1000, currency: "NGN" } }));
serve({ fetch: app.fetch, hostname: "127.0.0.1", port: Number(process.argv[2] ?? 0) }, (info) => console.log(`listening on http://127.0.0.1:${info.port}`));
