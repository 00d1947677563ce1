/**
 * The dashboard's "Run webhook doctor" button, in chromium: signed in as a merchant whose webhook_url
 * is the correct reference receiver, the Webhook doctor view (reached through the navigation) runs
 * the battery with its records view, every case passes and the scorecard shows; all of it under the
 * dashboard's CSP, with nothing fetched from elsewhere.
 */
import { describe, expect, it } from "vitest";
import { CASES } from "../../src/doctor/battery.js";
import { referenceReceivers, startNodeReceiver } from "../support/reference-receivers.js";
import { axeViolations, merchantAt, openPage, SCREENSHOTS, SIZES, SKIP_BROWSER, useBrowserSandbox } from "./browser.js";
import { LOAD, navigate, settled, signIn } from "./dashboard-driver.js";

const ctx = useBrowserSandbox();
const stoppedAfter = referenceReceivers();

describe.skipIf(SKIP_BROWSER)("dashboard: webhook doctor", () => {
  for (const size of SIZES) {
    it(`${size.name}: runs the battery against the merchant's webhook_url and shows the scorecard`, async () => {
      const m = await merchantAt(ctx.sandbox.url, { business_name: "Amala Corner" });
      const secret = (await m.api("GET", "/sandbox/v1/merchant")).data.webhook_secret as string;
      const r = stoppedAfter(await startNodeReceiver("receiver.mjs", { WEBHOOK_SECRET: secret }));
      await m.api("PATCH", "/sandbox/v1/merchant", { webhook_url: r.url });

      const { page, violations, external } = await openPage(ctx, `${ctx.sandbox.url}/dashboard`, size.width, { height: size.height });
      await signIn(page, m.keys);
      await settled(page, "Home");
      await navigate(page, size.name === "phone", "Webhook doctor");
      expect(new URL(page.url()).pathname).toBe("/dashboard/doctor");
      const section = page.locator("#doctor");
      await expect.poll(() => section.getByText("No run yet.").isVisible(), LOAD).toBe(true);

      await section.getByLabel("Records URL (optional)").fill(r.recordsUrl);
      await section.getByRole("button", { name: "Run webhook doctor" }).click();
      await expect.poll(() => section.locator("[data-testid=doctor-summary]").textContent(), { timeout: 20_000 }).toBe(`${CASES.length} of ${CASES.length} cases passed`);
      expect(await section.locator("tr[data-case]").count()).toBe(CASES.length);
      expect(await section.locator("tr[data-case='duplicate_delivery']").textContent()).toContain("pass");
      expect(await section.textContent()).toContain(`credits checked against ${r.recordsUrl}`);
      await section.screenshot({ path: `${SCREENSHOTS}/dashboard-webhook-doctor-${size.name}.png` });
      expect(await axeViolations(page)).toEqual([]);
      expect(violations).toEqual([]);
      expect(external).toEqual([]);
      await page.close();
    }, 60_000);
  }
});
