/**
 * The "done means": a developer does every common task on the dashboard from what it shows,
 * without the docs. Each step finds its control by its visible name (as a person would) and moves
 * between views with the Dashboard navigation (on a phone, through its Menu), at desktop and phone
 * sizes: find a payout, approve it (in its row on a desktop, in its story on a phone), advance time,
 * read and copy a webhook's payload and its signature (checked against the webhook secret),
 * redeliver, set the webhook URL, send a test event. axe-core at the end: no critical or serious
 * violation. The screenshots are the README's.
 */
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { receivers } from "../helpers.js";
import { axeViolations, merchantAt, openPage, SCREENSHOTS, SKIP_BROWSER, useBrowserSandbox, SIZES } from "./browser.js";
import { LOAD, navigate, result, settled, signIn } from "./dashboard-driver.js";

const ctx = useBrowserSandbox();
const receiver = receivers();

const transfer = (reference: string, amount: number) => ({
  amount, bank_code: "058", account_number: "0000000018", account_name: "EZE FUNMILAYO IBRAHIM", bank_name: "Guaranty Trust Bank", reference,
});
const clipboard = (page: Page) => page.evaluate("navigator.clipboard.readText()") as Promise<string>;

describe.skipIf(SKIP_BROWSER)("dashboard: the common tasks, by what the page shows", () => {
  for (const size of SIZES) {
    const phone = size.name === "phone";
    it(`${size.name}: find and approve a payout, advance time, copy a payload and its signature, redeliver, set the webhook URL, send a test event`, async () => {
      const first = await receiver();
      const m = await merchantAt(ctx.sandbox.url, {
        business_name: "Chop Life Kitchen",
        webhook_url: first.url,
        clock: { now: "2026-11-22T09:00:00Z" },
        limits: { payout_review_threshold: 50_000, payout_attempts_per_hour: 0, payout_attempts_per_ip_per_hour: 0 },
      });
      // Seven small payouts and one large one, which waits for approval: enough rows to need the search.
      for (let i = 1; i <= 7; i++) expect((await m.api("POST", "/api/v1/payout/transfer", transfer(`rent-${i}`, 1_000))).success).toBe(true);
      const big = await m.api("POST", "/api/v1/payout/transfer", transfer("supplier-nov", 75_000));
      expect(big.data.status).toBe("pending_approval");
      const { webhook_secret } = (await m.api("GET", "/sandbox/v1/merchant")).data;

      const { page, violations, external } = await openPage(ctx, `${ctx.sandbox.url}/dashboard`, size.width, { height: size.height, clipboard: true });
      await signIn(page, m.keys);
      await settled(page, "Home");

      // 1. Find the payout: the Payouts view's search.
      await navigate(page, phone, "Payouts");
      expect(new URL(page.url()).pathname).toBe("/dashboard/payouts");
      const payouts = page.locator("#payouts");
      await payouts.getByRole("searchbox").fill("supplier");
      await payouts.getByRole("searchbox").press("Enter");
      await expect.poll(() => payouts.locator("tbody tr").count(), LOAD).toBe(1);
      const row = payouts.locator("[data-payout='supplier-nov']");
      expect(await row.locator("[data-testid=payout-status]").textContent()).toBe("pending approval");

      // 2. Approve it: in its row on a desktop; on a phone in its story, opened from its reference.
      const APPROVED = "Payout supplier-nov approved: it is now processing.";
      const story = page.locator("#view-story");
      if (phone) {
        await row.getByRole("link", { name: "supplier-nov" }).click();
        await expect.poll(() => new URL(page.url()).pathname).toBe("/dashboard/payouts/supplier-nov");
        await settled(page, "Payout supplier-nov");
        await story.getByRole("button", { name: "Approve" }).click();
        expect(await result(page, "story")).toEqual({ error: false, text: APPROVED });
        await expect.poll(() => story.locator("[data-testid=story-status]").textContent(), LOAD).toBe("processing");
      } else {
        await row.getByRole("button", { name: "Approve" }).click();
        expect(await result(page, "payouts")).toEqual({ error: false, text: APPROVED });
        await expect.poll(() => row.locator("[data-testid=payout-status]").textContent(), LOAD).toBe("processing");
      }

      // 3. Advance time on Home: the payout settles and its webhook goes out.
      await navigate(page, phone, "Home");
      await page.getByRole("button", { name: "Advance 1 day" }).click();
      expect((await result(page, "overview")).text).toMatch(/^Clock advanced to 2026-11-23 09:00:00Z/);
      await expect.poll(() => first.received.filter((r) => r.body?.data?.reference === "supplier-nov").length, LOAD).toBeGreaterThan(0);
      if (phone) {
        // Back: the story again, now completed.
        await page.goBack();
        await settled(page, "Payout supplier-nov");
        await expect.poll(() => story.locator("[data-testid=story-status]").textContent(), LOAD).toBe("completed");
      } else {
        await navigate(page, phone, "Payouts");
        await expect.poll(() => row.locator("[data-testid=payout-status]").textContent(), LOAD).toBe("completed");
      }

      // 4. Read and copy the webhook's payload and its signature.
      const events = page.locator("#events");
      await navigate(page, phone, "Events and deliveries");
      const delivery = events.locator("[data-delivery-id]").filter({ hasText: "supplier-nov" }).first();
      await delivery.getByText("Request and response").click();
      await delivery.getByRole("button", { name: /^Copy payload/ }).click();
      await expect.poll(() => clipboard(page)).toContain("supplier-nov");
      const payload = await clipboard(page);
      expect(JSON.parse(payload).data.reference).toBe("supplier-nov");
      await delivery.getByRole("button", { name: /^Copy signature/ }).click();
      await expect.poll(() => clipboard(page)).not.toBe(payload);
      const signature = await clipboard(page);
      // What was copied is what the receiver got, and the signature verifies against those exact bytes.
      const got = first.received.find((r) => r.body?.data?.reference === "supplier-nov")!;
      expect(signature).toBe(got.headers["x-webhook-signature"]);
      expect(JSON.parse(payload)).toEqual(JSON.parse(got.raw.toString("utf8")));
      expect(signature).toBe(createHmac("sha256", webhook_secret).update(got.raw).digest("hex"));

      // 5. Redeliver that event: its row is the one the delivery links to.
      const toEvent = delivery.getByRole("link", { name: /^Event / });
      const eventId = (await toEvent.getAttribute("aria-label"))!.replace(/^Event /, "");
      await toEvent.click();
      await expect.poll(() => events.locator(`#event-${eventId}`).count(), LOAD).toBe(1);
      const before = first.received.length;
      await events.locator(`#event-${eventId}`).getByRole("button", { name: "Redeliver" }).click();
      const redelivered = await result(page, "events");
      expect(redelivered).toMatchObject({ error: false });
      expect(redelivered.text).toMatch(/^Delivered .* HTTP 200/);
      await expect.poll(() => first.received.length).toBe(before + 1);

      // 6. Set the webhook URL (Webhook settings).
      const second = await receiver();
      await navigate(page, phone, "Webhook settings");
      await page.getByLabel("New webhook URL").fill(second.url);
      await page.getByRole("button", { name: "Save webhook URL" }).click();
      await expect.poll(async () => (await m.api("GET", "/sandbox/v1/merchant")).data.webhook_url).toBe(second.url);

      // 7. Send a test event: it reaches the new URL, and the page says so.
      await page.getByRole("button", { name: "Send test event" }).click();
      const sent = await result(page, "webhook-settings");
      expect(sent.error).toBe(false);
      expect(sent.text).toContain(second.url);
      await expect.poll(() => second.received.map((r) => r.body?.event)).toContain("webhook.test");

      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `${SCREENSHOTS}/dashboard-common-tasks-${size.name}.png` });
      await navigate(page, phone, "Payouts");
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `${SCREENSHOTS}/dashboard-payouts-${size.name}.png` });
      expect(violations).toEqual([]);
      expect(external).toEqual([]);
      await page.close();
    }, 90_000);
  }
});
