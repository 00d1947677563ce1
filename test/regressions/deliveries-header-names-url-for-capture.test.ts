/**
 * The Events section's deliveries were headed "Delivered to <webhook URL>" above every delivery,
 * including those that went to the built-in capture before the merchant set that URL. Each delivery
 * now says where it went, and the line above them says where new deliveries go.
 */
import { describe, expect, it } from "vitest";
import { CAPTURE_URL } from "../../src/domain/webhook-policy.js";
import { Events } from "../../src/pages/dashboard-events.js";
import { client, type TestClient } from "../client.js";
import { harness, receivers } from "../helpers.js";
import { render, text } from "../pages/render.js";

const receiver = receivers();
const merchant = async () => client(await harness().merchant({ webhook_capture: {} }));
const events = (c: TestClient) => render(c.tenant, Events, { tenant: c.tenant, query: new URLSearchParams() });
/** The `<tr>` of one delivery, whole. */
const deliveryRow = (html: string, id: string) => new RegExp(`<tr[^>]*data-delivery-id="${id}"[^>]*>[\\s\\S]*?</tr>`).exec(html)?.[0] ?? "";

describe("webhook deliveries say where each went", () => {
  it("a delivery to the built-in capture says so, after the merchant sets a URL; the header says where new ones go", async () => {
    const c = await merchant();
    await c.processingPayout({ reference: "to-capture" });
    await c.advance("1m");
    const r = await receiver();
    expect((await c.call("PATCH", "/sandbox/v1/merchant", { body: { webhook_url: r.url } })).status).toBe(200);
    await c.processingPayout({ reference: "to-receiver" });
    await c.advance("1m");
    const html = await events(c);
    const [toReceiver, toCapture] = c.tenant.state.deliveries.filter((d) => d.event_type === "payout.completed").reverse();
    expect(toCapture!.url).toBe(CAPTURE_URL);
    expect(text(deliveryRow(html, toCapture!.id))).toContain("the built-in capture");
    expect(deliveryRow(html, toReceiver!.id)).toContain(`<span class="mono wrap-anywhere">${r.url}</span>`);
    expect(text(html)).toContain(`New deliveries go to ${r.url}`);
    expect(text(html)).not.toContain("Delivered to");
    expect(deliveryRow(html, toReceiver!.id)).toContain('<span class="chip ok">delivered</span>');
  });

  it("without a URL: new deliveries go to the built-in capture, as the header says", async () => {
    const c = await merchant();
    const html = text(await events(c));
    expect(html).toContain("No webhook URL set: new deliveries go to the sandbox's built-in capture");
    expect(html).toContain(CAPTURE_URL);
  });
});
