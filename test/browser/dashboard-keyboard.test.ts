/**
 * The dashboard and /docs by keyboard, at desktop and phone sizes: a skip link is
 * the first Tab stop; sign-in and each action move the focus to what they produced; every table that
 * scrolls sideways can be reached and scrolled by keyboard; axe-core finds no critical or serious
 * violation on the signed-out and signed-in dashboard nor on /docs.
 */
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { axeViolations, merchantAt, openPage, SCREENSHOTS, SKIP_BROWSER, useBrowserSandbox, SIZES } from "./browser.js";

const ctx = useBrowserSandbox();

/** A string: this project compiles without the DOM types. */
const PAYOUTS = `document.querySelector("#payouts .scroll-x")`;
const focused = (page: Page) => page.evaluate("document.activeElement && (document.activeElement.id || document.activeElement.textContent)") as Promise<string | null>;

describe.skipIf(SKIP_BROWSER)("dashboard by keyboard", () => {
  for (const size of SIZES) {
    it(`${size.name}: skip link, focus after sign-in and after actions, focusable scroll regions, no serious axe violation`, async () => {
      const m = await merchantAt(ctx.sandbox.url, { business_name: "Amala Corner" });
      await m.api("POST", "/api/v1/payout/transfer", {
        amount: 5000, bank_code: "058", account_number: "0000000018", account_name: "EZE FUNMILAYO IBRAHIM", bank_name: "Guaranty Trust Bank", reference: `kbd-${size.name}`,
      });
      const { page, violations, external } = await openPage(ctx, `${ctx.sandbox.url}/dashboard`, size.width, { height: size.height });

      // Signed out: the skip link is the first Tab stop, shown when focused, and lands on the content.
      expect(await axeViolations(page)).toEqual([]);
      await page.keyboard.press("Tab");
      expect(await focused(page)).toBe("Skip to content");
      const box = await page.getByRole("link", { name: "Skip to content" }).boundingBox();
      expect(box!.y).toBeGreaterThanOrEqual(0);
      await page.keyboard.press("Enter");
      expect(await focused(page)).toBe("content");
      await page.keyboard.press("Tab");
      expect(await focused(page)).toBe("api-key");

      // Sign-in by keyboard: the focus goes to the first section's heading.
      await page.keyboard.type(m.keys["x-api-key"]);
      await page.keyboard.press("Tab");
      await page.keyboard.type(m.keys["x-api-secret"]);
      await page.keyboard.press("Enter");
      await expect.poll(() => focused(page)).toBe("overview-heading");
      await expect.poll(() => page.locator(`[data-payout='kbd-${size.name}']`).count()).toBe(1);

      // An action by keyboard (a form, then a button): the focus goes to its result, in its section.
      await page.getByLabel("Fund wallet (₦)").fill("250");
      await page.keyboard.press("Enter");
      await expect.poll(() => focused(page)).toBe("overview-result");
      const result = page.locator("#overview-result");
      expect(await result.getAttribute("class")).toContain("success");
      expect(await result.getAttribute("role")).toBe("status");
      await page.getByRole("button", { name: "Advance 1 min" }).focus();
      await page.evaluate('document.getElementById("overview-result").textContent = ""');
      await page.keyboard.press("Enter");
      await expect.poll(() => focused(page)).toBe("overview-result");
      await expect.poll(() => result.textContent()).not.toBe("Working…");
      expect(await result.getAttribute("class")).toContain("success");

      // Every table's wrapper is a named region, in the Tab order exactly while it scrolls sideways
      // (a table that fits costs no Tab stop).
      const regions = page.locator(".scroll-x");
      expect(await regions.count()).toBeGreaterThan(2);
      const scrolling = (await page.evaluate(`Array.prototype.map.call(document.querySelectorAll(".scroll-x"), (r) => r.scrollWidth > r.clientWidth + 1)`)) as boolean[];
      for (const [i, region] of (await regions.all()).entries()) {
        expect(await region.getAttribute("tabindex")).toBe(scrolling[i] ? "0" : null);
        expect(await region.getAttribute("role")).toBe("region");
        expect(await region.getAttribute("aria-label")).toMatch(/\S/);
      }
      const payouts = page.getByRole("region", { name: "Payouts table", exact: true });
      if (size.name === "phone") {
        await payouts.focus();
        expect(await focused(page)).toContain(`kbd-${size.name}`);
        // Too wide for a phone: the arrow keys scroll it.
        expect(await page.evaluate(`${PAYOUTS}.scrollWidth > ${PAYOUTS}.clientWidth`)).toBe(true);
        await page.keyboard.press("ArrowRight");
        await page.keyboard.press("ArrowRight");
        await expect.poll(() => page.evaluate(`${PAYOUTS}.scrollLeft`) as Promise<number>).toBeGreaterThan(0);
      }

      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `${SCREENSHOTS}/dashboard-keyboard-${size.name}.png` });
      expect(violations).toEqual([]);
      expect(external).toEqual([]);
      await page.close();
    }, 60_000);
  }
});

describe.skipIf(SKIP_BROWSER)("/docs accessibility", () => {
  for (const size of SIZES) {
    it(`${size.name}: has a language and no serious axe violation`, async () => {
      const { page, external } = await openPage(ctx, `${ctx.sandbox.url}/docs`, size.width, { height: size.height });
      expect(await page.locator("html").getAttribute("lang")).toBe("en");
      await expect.poll(() => page.getByText("Wallet balance").first().isVisible(), { timeout: 20_000 }).toBe(true);
      // #app holds Scalar's API reference (vendor/scalar/standalone.js), a third-party component we
      // vendor as is; its own violations (unnamed icon buttons, contrast of its badges, ...) are
      // Scalar's. Checked here: our page around it (language, title, viewport).
      expect(await axeViolations(page, ["#app"])).toEqual([]);
      expect(external).toEqual([]);
      await page.close();
    }, 60_000);
  }
});
