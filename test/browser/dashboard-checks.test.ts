/**
 * The dashboard's integration checks in chromium: after a merchant's code makes a mistake, Home's
 * verdict says it fails and leads to the Integration checks view, which shows the fired rule with the
 * request that fired it (its seq in the request log, which opens it whole in the Request log view) and
 * the rules that did not fire, under the page's Content-Security-Policy.
 */
import { describe, expect, it } from "vitest";
import { axeViolations, merchantAt, openPage, SCREENSHOTS, SIZES, SKIP_BROWSER, useBrowserSandbox } from "./browser.js";
import { LOAD, settled, signIn } from "./dashboard-driver.js";

const ctx = useBrowserSandbox();

describe.skipIf(SKIP_BROWSER)("dashboard: integration checks", () => {
  for (const size of SIZES) {
    it(`${size.name}: shows the verdict, the fired rule with its evidence, and the rules that did not fire`, async () => {
      const m = await merchantAt(ctx.sandbox.url);
      // A transfer with no name enquiry before it (the first request of the merchant's log: #1).
      await m.api("POST", "/api/v1/payout/transfer", {
        amount: 5_000, bank_code: "058", account_number: "0000000018", account_name: "EZE FUNMILAYO IBRAHIM", bank_name: "Guaranty Trust Bank", reference: "inv-1",
      });
      const { page, violations, external } = await openPage(ctx, `${ctx.sandbox.url}/dashboard`, size.width, { height: size.height });
      await signIn(page, m.keys);
      await settled(page, "Home");

      // Home's verdict in one line, and its link to the whole report.
      const verdict = page.locator("#verdict [data-verdict]");
      expect(await verdict.getAttribute("data-verdict")).toBe("fail");
      expect(await verdict.textContent()).toMatch(/^Fails 1 error/);
      await verdict.getByRole("link", { name: "See the integration checks" }).click();
      await settled(page, "Integration checks");
      expect(new URL(page.url()).pathname).toBe("/dashboard/checks");

      const section = page.locator("#checks");
      await expect.poll(() => section.locator("[data-verdict]").getAttribute("data-verdict"), LOAD).toBe("fail");
      expect(await section.getByRole("heading", { name: "Integration checks" }).isVisible()).toBe(true);
      const fired = section.locator("tr[data-check='transfer-to-unverified-account']");
      expect(await fired.textContent()).toContain("A transfer to an account never verified");
      expect(await fired.locator("[data-request-seq='1']").textContent()).toContain("#1 POST /api/v1/payout/transfer → 201");
      await section.getByText(/Rules that did not fire/).click();
      expect(await section.locator("li[data-check='secret-key-in-browser']").textContent()).toContain("passed");
      await section.screenshot({ path: `${SCREENSHOTS}/dashboard-checks-${size.name}.png` });
      expect(await axeViolations(page)).toEqual([]);

      // The evidence opens the request whole in the Request log view, at its own URL.
      await fired.locator("[data-request-seq='1']").getByRole("button", { name: "Open request 1 in the Logs view" }).click();
      await settled(page, "Request log");
      expect(page.url()).toBe(`${ctx.sandbox.url}/dashboard/logs?seq=1`);
      await expect.poll(() => page.locator("#request-detail").textContent(), LOAD).toContain("inv-1");
      expect(await page.evaluate("document.activeElement && document.activeElement.id")).toBe("request-detail-heading");
      expect(await axeViolations(page)).toEqual([]);
      expect(violations).toEqual([]);
      expect(external).toEqual([]);
      await page.close();
    }, 60_000);
  }
});
