/**
 * The dashboard's Request log view in chromium: the merchant's requests listed, one opened with its
 * headers (the secret never shown), bodies, the objects it touched (as they are now, and linked to
 * their stories) and the webhook it caused with its delivery; the open request outlives the list's
 * refresh; nothing it shows sends an API request; under the strict CSP, with no external request.
 */
import { describe, expect, it } from "vitest";
import { accountHolderName } from "../../src/domain/names.js";
import { STORY_PATHS } from "../../src/pages/dashboard-ui.js";
import { receivers } from "../helpers.js";
import { axeViolations, merchantAt, openPage, SCREENSHOTS, SIZES, SKIP_BROWSER, useBrowserSandbox } from "./browser.js";
import { focusedId, LOAD, navigate, settled, signIn } from "./dashboard-driver.js";

const ctx = useBrowserSandbox();
const receiver = receivers();

describe.skipIf(SKIP_BROWSER)("dashboard Request log view", () => {
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
      await signIn(page, m.keys);
      await settled(page, "Home");
      await navigate(page, size.name === "phone", "Request log");
      expect(new URL(page.url()).pathname).toBe("/dashboard/logs");
      const rows = page.locator("[data-request-row]");
      await expect.poll(() => rows.count(), LOAD).toBe(5);
      expect(await rows.first().getAttribute("data-request-row")).toBe("5");
      expect(await page.locator("[data-request-row='2'] [data-testid=request-status]").textContent()).toBe("422");
      expect(await page.locator("[data-request-row='2']").textContent()).toContain("VALIDATION_ERROR");

      await page.getByRole("button", { name: "Open request 5", exact: true }).click();
      const detail = page.locator("[data-testid=request-detail]");
      await expect.poll(() => detail.locator("h3").textContent(), LOAD).toContain("Request 5: GET");
      expect(await focusedId(page)).toBe("request-detail-heading");
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
      await page.screenshot({ path: `${SCREENSHOTS}/dashboard-logs-request-${size.name}.png`, fullPage: true });

      // The list refreshes with the view; the open request stays until it is closed or the view is left.
      await m.api("GET", "/api/v1/wallet/balance");
      await expect.poll(() => rows.count(), LOAD).toBe(6);
      expect(await detail.count()).toBe(1);
      expect(await object.locator("details").getAttribute("open")).toBe("");

      // The object it touched links to its story, at its own URL; back returns to the request log.
      await object.getByRole("link", { name: "logs-1" }).click();
      await settled(page, "Payout logs-1");
      expect(new URL(page.url()).pathname).toBe(`/dashboard/${STORY_PATHS.payout}/logs-1`);
      await page.goBack();
      await settled(page, "Request log");
      // Neither the request log nor the story sent an API request of its own: the next one is #7.
      await m.api("GET", "/api/v1/wallet/balance");
      await expect.poll(() => rows.first().getAttribute("data-request-row"), LOAD).toBe("7");
      expect(await rows.count()).toBe(7);

      await page.getByRole("button", { name: "Open request 2", exact: true }).click();
      await expect.poll(() => detail.locator("[data-testid=request-body]").textContent(), LOAD).toContain('"amount": 1.005');
      expect(await detail.textContent()).toContain("VALIDATION_ERROR");
      await detail.getByRole("button", { name: "Close" }).click();
      expect(await detail.count()).toBe(0);

      // A request named by the URL (as a story links to it) opens on a reload too.
      await page.goto(`${ctx.sandbox.url}/dashboard/logs?seq=2`);
      await settled(page, "Request log");
      await expect.poll(() => detail.locator("h3").textContent(), LOAD).toContain("Request 2: POST");

      // No inline style (chromium itself leaves an empty style="" on inputs it autofilled: nothing applied).
      expect(await page.locator('[style]:not([style=""])').count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      expect(violations).toEqual([]);
      expect(external).toEqual([]);
      await page.close();
    }, 60_000);
  }
});
