/**
 * The dashboard's Events section decided "No webhook URL set: events are logged but not delivered",
 * and hid Redeliver, from `webhook_url` alone: a merchant whose events go to the built-in capture was
 * told they were not delivered, while Send test event worked for it. It now asks where deliveries go
 * (deliveryTarget), as the dispatcher does.
 */
import { describe, expect, it } from "vitest";
import { client, type TestClient } from "../client.js";
import { harness } from "../helpers.js";

async function eventsSection(c: TestClient) {
  const res = await c.call("GET", "/dashboard/fragments/events");
  expect(res.status).toBe(200);
  return res.body as string;
}

async function withOneEvent(settings: Record<string, unknown>) {
  const c = client(await harness().merchant(settings));
  expect((await c.payout({ reference: "capture-1" })).status).toBe(201);
  await c.advance("30s");
  return c;
}

describe("the Events section of a merchant", () => {
  it("whose events go to the built-in capture: says so, and offers Redeliver", async () => {
    const c = await withOneEvent({ webhook_capture: {} });
    const html = await eventsSection(c);
    expect(html).not.toContain("events are logged but not delivered");
    expect(html).toContain("built-in capture");
    expect(html).toContain("/redeliver");
    // Redeliver works for it, as the button promises.
    const [event] = await c.events("payout.completed");
    expect((await c.call("POST", `/sandbox/v1/events/${event!.id}/redeliver`)).status).toBe(200);
  });

  it("with neither a URL nor the capture: not delivered, and no Redeliver", async () => {
    const c = await withOneEvent({});
    const html = await eventsSection(c);
    expect(html).toContain("events are logged but not delivered");
    expect(html).not.toContain("/redeliver");
  });
});
