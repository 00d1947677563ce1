/**
 * The dashboard's actions, at desktop and phone sizes, axe-core on each
 * state, each in its view (reached through the Dashboard navigation): a result says the real outcome
 * where the action was (a 2xx that reports a failure is red:
 * a redelivery answered 500, a declined card spend); a refused form keeps its input, with the error
 * under the field, which takes the focus; the outcome form offers only its target's outcomes and
 * fields; "Send test event" shows the delivery; settings save; reset asks first; the clock advances by
 * any duration and to a time.
 */
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { axeViolations, merchantAt, openPage, SCREENSHOTS, SKIP_BROWSER, useBrowserSandbox, SIZES } from "./browser.js";
import { startReceiver, type Receiver } from "../receiver.js";
import { closedAfterEach } from "../helpers.js";
import { focusedId as focused, navigate, result, settled } from "./dashboard-driver.js";

const ctx = useBrowserSandbox();
const closed = closedAfterEach((r: Receiver) => r.close());

async function expectAxeClean(page: Page, shot: string) {
  expect(await axeViolations(page)).toEqual([]);
  await page.screenshot({ path: `${SCREENSHOTS}/dashboard-actions-${shot}.png` });
}

describe.skipIf(SKIP_BROWSER)("dashboard actions", () => {
  for (const size of SIZES) {
    const phone = size.name === "phone";
    const go = (page: Page, title: string) => navigate(page, phone, title);
    it(`${size.name}: real outcomes, kept input, valid rule pairs, test event, settings, reset, clock`, async () => {
      const receiver = closed(await startReceiver(() => ({ status: 500, body: "receiver exploded" })));
      const m = await merchantAt(ctx.sandbox.url, { business_name: "Suya Spot", webhook_url: receiver.url, clock: { now: "2026-11-22T09:00:00Z" } });
      // An event to redeliver (its one delivery got the 500), and a card with nothing on it.
      await m.api("POST", "/sandbox/v1/webhooks/test");
      const holder = await m.api("POST", "/api/v1/virtual-cards/cardholders", { first_name: "Ada", last_name: "Obi", email: `ada-${size.name}@example.com` });
      await m.api("POST", `/sandbox/v1/cardholders/${holder.cardholder_id}/approve`);
      const card = await m.api("POST", "/api/v1/virtual-cards", { cardholder_id: holder.cardholder_id });

      // Signed in on the events view's own URL: that view is shown.
      const { page, violations, external } = await openPage(ctx, `${ctx.sandbox.url}/dashboard/events`, size.width, { height: size.height });
      await page.locator("#api-key").fill(m.keys["x-api-key"]);
      await page.locator("#api-secret").fill(m.keys["x-api-secret"]);
      await page.keyboard.press("Enter");
      await settled(page, "Events and deliveries");
      await page.locator("#events [data-section] button", { hasText: "Redeliver" }).first().waitFor();

      // A redelivery answered 500 is red, with the status and the receiver's answer.
      await page.locator("#events").getByRole("button", { name: "Redeliver" }).first().click();
      const redelivered = await result(page, "events");
      expect(redelivered.error).toBe(true);
      expect(redelivered.text).toBe(`Not delivered: HTTP 500 from ${receiver.url}. Response: receiver exploded`);
      expect(await focused(page)).toBe("events-result");
      await expectAxeClean(page, `redeliver-500-${size.name}`);

      // A declined spend is red with its reason; a refused spend keeps the amount typed.
      // The per-card spend form is folded under its "Spend" summary.
      await go(page, "Cardholders and cards");
      await page.locator("#cards summary", { hasText: "Spend" }).first().click();
      await page.locator(`#spend-${card.card_id}`).fill("5");
      await page.locator(`#spend-${card.card_id}`).press("Enter");
      const declined = await result(page, "cards");
      expect(declined.error).toBe(true);
      expect(declined.text).toMatch(/^Spend of \$5\.00 declined: .+\.$/);
      await expectAxeClean(page, `spend-declined-${size.name}`);

      // A refused form: the input stays, the error is under the field, the focus on it.
      // The clock's view: "Advance by" and "Advance to".
      await go(page, "Clock");
      const by = page.locator("#advance-by");
      await by.fill("ninety minutes");
      await by.press("Enter");
      await expect.poll(() => page.locator("#advance-by-field-error").textContent()).toMatch(/.+/);
      expect(await by.inputValue()).toBe("ninety minutes");
      expect(await by.getAttribute("aria-invalid")).toBe("true");
      expect(await by.getAttribute("aria-describedby")).toContain("advance-by-field-error");
      expect(await focused(page)).toBe("advance-by");
      expect((await result(page, "clock")).text).toBe("VALIDATION_ERROR: The given data was invalid. Check: Advance by.");
      await expectAxeClean(page, `refused-form-${size.name}`);

      // Advance by any duration: the result says where the clock is now; the form empties.
      await by.fill("90m");
      await by.press("Enter");
      await expect.poll(async () => (await result(page, "clock")).text).toBe("Clock advanced to 2026-11-22 10:30:00Z; 0 timers fired, 0 pending.");
      expect(await by.getAttribute("aria-invalid")).toBeNull();
      expect(await page.locator("#advance-by-field-error").count()).toBe(0);
      expect(await by.inputValue()).toBe("");

      // Advance to a time (UTC); one in the past is refused under the field.
      const to = page.locator("#advance-to");
      await to.fill("2026-11-22T08:00:00");
      await page.getByRole("button", { name: "Advance to this time" }).click();
      await expect.poll(() => page.locator("#advance-to-field-error").textContent()).toBe("The clock never goes backwards: give a time at or after the current sim time.");
      expect(await focused(page)).toBe("advance-to");
      await to.fill("2026-11-23T12:15:00");
      await page.getByRole("button", { name: "Advance to this time" }).click();
      await expect.poll(async () => (await result(page, "clock")).text).toBe("Clock advanced to 2026-11-23 12:15:00Z; 0 timers fired, 0 pending.");
      expect((await m.api("GET", "/sandbox/v1/clock")).data.now).toBe("2026-11-23T12:15:00.000Z");
      await expectAxeClean(page, `clock-${size.name}`);

      // Funding (on Home) says how much came in and the balance now.
      await go(page, "Home");
      const before = (await m.api("GET", "/api/v1/wallet/balance")).data.balance;
      await page.locator("#fund-amount").fill("5000");
      await page.locator("#fund-amount").press("Enter");
      const naira = (n: number) => `₦${n.toLocaleString("en-NG", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
      await expect.poll(async () => (await result(page, "overview")).text).toBe(`Wallet funded with ₦5,000.00; balance ${naira(before + 5000)}.`);

      // The outcome form offers only the chosen target's outcomes, and only the fields they take.
      await go(page, "Outcome rules");
      const outcomes = () => page.locator("#rule-outcome option").allTextContents();
      expect(await outcomes()).toEqual(["completed", "failed", "processing"]);
      expect(await page.locator("#rule-delay").isVisible()).toBe(true);
      await page.locator("#rule-target").selectOption("bank");
      expect(await outcomes()).toEqual(["down"]);
      expect(await page.locator("#rule-delay").isVisible()).toBe(false);
      expect(await page.locator("#rule-queries").isVisible()).toBe(false);
      await page.locator("#rule-target").selectOption("vtu");
      expect(await outcomes()).toEqual(["success", "fail", "processing_success", "processing_fail", "processing"]);
      await page.locator("#rule-outcome").selectOption("processing_fail");
      expect(await page.locator("#rule-queries").isVisible()).toBe(true);
      await page.locator("#rule-target").selectOption("payout");
      await page.locator("#rule-outcome").selectOption("failed");
      await page.locator("#rule-match-key").selectOption("account_number");
      await page.locator("#rule-match-value").fill("0123456789");
      await page.locator("#rule-times").fill("1");
      await page.getByRole("button", { name: "Add rule" }).click();
      const rule = (await m.api("GET", "/sandbox/v1/outcomes")).data[0];
      expect(rule).toMatchObject({ target: "payout", outcome: "failed", match: { account_number: "0123456789" }, times: 1 });
      expect((await result(page, "outcomes")).text).toBe(`Rule ${rule.id} added: payout → failed when {"account_number":"0123456789"}, 1 use.`);
      await expectAxeClean(page, `outcome-rule-${size.name}`);

      // Send test event: red with the status while the receiver fails, green with it once it answers.
      await go(page, "Webhook settings");
      const hooks = page.locator("#webhook-settings");
      await hooks.getByRole("button", { name: "Send test event" }).click();
      const failed = await result(page, "webhook-settings");
      expect(failed).toEqual({ error: true, text: `Not delivered: HTTP 500 from ${receiver.url}. Response: receiver exploded` });
      receiver.answer = () => ({ status: 200 });
      await hooks.getByRole("button", { name: "Send test event" }).click();
      await expect.poll(async () => (await result(page, "webhook-settings")).text).toMatch(new RegExp(`^Delivered webhook\\.test \\(EVT_\\w+\\) to ${receiver.url.replace(/[.]/g, "\\.")}: HTTP 200 in \\d+ ms\\.$`));
      expect((await result(page, "webhook-settings")).error).toBe(false);
      expect(receiver.received.at(-1)!.body.event).toBe("webhook.test");
      await expectAxeClean(page, `test-event-${size.name}`);

      // Settings: pre-filled, a refusal under its field keeping the input, then saved with what changed.
      await go(page, "Settings and reset");
      const name = page.locator("#set-business-name");
      await expect.poll(() => name.inputValue()).toBe("Suya Spot");
      const max = page.locator("#set-limits-payout-max");
      await max.fill("-5");
      await page.getByRole("button", { name: "Save settings" }).click();
      await expect.poll(() => page.locator("#set-limits-payout-max-field-error").textContent()).toMatch(/.+/);
      expect(await focused(page)).toBe("set-limits-payout-max");
      expect(await max.inputValue()).toBe("-5");
      await max.fill("250000");
      await name.fill("Suya Spot Ikeja");
      await page.getByRole("button", { name: "Save settings" }).click();
      await expect.poll(async () => (await result(page, "sandbox-settings")).text).toBe("Settings saved: Business name, Largest payout.");
      const saved = (await m.api("GET", "/sandbox/v1/merchant")).data;
      expect(saved).toMatchObject({ business_name: "Suya Spot Ikeja", limits: { payout_max: 250000 } });
      expect(await name.inputValue()).toBe("Suya Spot Ikeja");
      await expectAxeClean(page, `settings-${size.name}`);

      // Reset asks first (a second button, not a browser dialog), then says what went.
      await page.locator("#reset-balance").fill("5000");
      await page.getByRole("button", { name: "Empty this merchant…" }).click();
      const yes = page.getByRole("button", { name: "Yes, empty this merchant" });
      expect(await yes.isVisible()).toBe(true);
      expect(await yes.evaluate((b) => b === b.ownerDocument.activeElement)).toBe(true);
      await expectAxeClean(page, `reset-confirm-${size.name}`);
      await yes.click();
      await expect.poll(async () => (await result(page, "sandbox-settings")).text).toMatch(/^Merchant emptied: .* wallet balance ₦5,000\.00\. Keys, settings and the clock were kept\.$/);
      expect(await yes.isVisible()).toBe(false);
      expect((await m.api("GET", "/sandbox/v1/events")).data).toEqual([]);
      expect((await m.api("GET", "/api/v1/wallet/balance")).data.balance).toBe(5000);

      expect(violations).toEqual([]);
      expect(external).toEqual([]);
      await page.close();
    }, 90_000);
  }
});
