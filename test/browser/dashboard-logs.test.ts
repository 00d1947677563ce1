/**
 * The dashboard's Logs view in chromium: the merchant's requests listed, one opened with its
 * headers (the secret never shown), bodies, the objects it touched (as they are now, and linked to their
 * sections) and the webhook it caused with its delivery; nothing it shows sends an API request; under the strict CSP, with no external request.
 */
import { describe, expect, it } from "vitest";
import { accountHolderName } from "../../src/domain/names.js";
import { receivers } from "../helpers.js";
import { axeViolations, merchantAt, openPage, SCREENSHOTS, SIZES, SKIP_BROWSER, useBrowserSandbox } from "./browser.js";

const ctx = useBrowserSandbox();
const receiver = receivers();

describe.skipIf(SKIP_BROWSER)("dashboard Logs view", () => {
    for (const size of SIZES) {
    it(`${size.name}: lists the requests and opens one with its headers, bodies, objects and webhooks`, async () => {
      const r = await receiver();
      const m = await merchantAt(ctx.sandbox.url, { business_name: "Bole Joint", webhook_url: r.url });
      const transfer = { amount: 5000, bank_code: "058", account_number: "0123450004", account_name: accountHolderName("058", "0123450004"), bank_name: "Guaranty Trust Bank", reference: "logs-1" };
      expect((await m.api("POST", "/api/v1/payout/transfer", transfer)).success).toBe(true);
      expect((await m.api("POST", "/api/v1/payout/transfer", { ...transfer, reference: "logs-2", amount: 1.005 })).error_code).toBe("VALIDATION_ERROR");
      // The 3rd status read settles the payout (account ending 0004): that request causes payout.completed.
      for (let i = 0; i < 3; i++) await m.api("GET", "/api/v1/payout/status?reference=logs-1");
      await m.api("POST", "/sandbox/v1/clock/advance", { seconds: 0 }); // the delivery in flight lands

      const { page, violations, external } = await openPage(ctx, `${ctx.sandbox.url}/dashboard`, size.width, { height: size.height });
      await page.getByLabel("API key (X-Api-Key)").fill(m.keys["x-api-key"]);
      await page.getByLabel("API secret (X-Api-Secret)").fill(m.keys["x-api-secret"]);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("link", { name: "Logs" }).click();
      const rows = page.locator("[data-request-row]");
      await expect.poll(() => rows.count()).toBe(5);
      expect(await rows.first().getAttribute("data-request-row")).toBe("5");
      expect(await page.locator("[data-request-row='2'] [data-testid=request-status]").textContent()).toBe("422");
      expect(await page.locator("[data-request-row='2']").textContent()).toContain("VALIDATION_ERROR");

      await page.getByRole("button", { name: "Open request 5", exact: true }).click();
      const detail = page.locator("[data-testid=request-detail]");
      await expect.poll(() => detail.locator("h3").textContent()).toContain("Request 5: GET");
      expect(await page.evaluate("document.activeElement && document.activeElement.id")).toBe("request-detail-heading");
      expect(await detail.locator("[data-header='x-api-secret']").textContent()).toBe("[not logged]");
      expect(await detail.locator("[data-header='x-api-key']").textContent()).toMatch(/^pk_test_…/);
      expect(await detail.textContent()).not.toContain(m.keys["x-api-secret"]);
      expect(await detail.locator("[data-testid=response-body]").textContent()).toContain('"status": "completed"');
      await expect.poll(() => detail.locator("[data-testid=event-delivery]").first().textContent()).toContain("HTTP 200");
      expect(await detail.locator("[data-event]").textContent()).toContain("payout.completed");

      const object = detail.locator("[data-object='payout:logs-1']");
      expect(await object.textContent()).toContain("GET /api/v1/payout/status?reference=logs-1");
      await object.getByText("Record").click();
      expect(await object.locator("pre").textContent()).toContain('"status": "completed"');
      await object.getByRole("link", { name: "logs-1" }).click();
      expect(await page.evaluate("location.hash")).toBe("#payouts");
      await page.screenshot({ path: `${SCREENSHOTS}/dashboard-logs-request-${size.name}.png`, fullPage: true });

      // The list refreshes every 5 s; the open request stays until it is closed.
      await m.api("GET", "/api/v1/wallet/balance");
      await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(6);
      expect(await detail.count()).toBe(1);
      await detail.getByRole("button", { name: "Close" }).click();
      expect(await detail.count()).toBe(0);

      await page.getByRole("button", { name: "Open request 2", exact: true }).click();
      await expect.poll(() => detail.locator("[data-testid=request-body]").textContent()).toContain('"amount": 1.005');
      expect(await detail.textContent()).toContain("VALIDATION_ERROR");

      // No inline style (chromium itself leaves an empty style="" on inputs it autofilled: nothing applied).
      expect(await page.locator('[style]:not([style=""])').count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      expect(violations).toEqual([]);
      expect(external).toEqual([]);
      await page.close();
    }, 60_000);
  }
});
