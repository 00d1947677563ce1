/**
 * The dashboard's "Skip to content" did nothing. Signed out, it pointed at the app's <main>, which is
 * hidden until sign-in; signed in, the view router took the link (/dashboard#content is a dashboard
 * URL) for a navigation: it dropped the fragment, pushed a history entry and focused the view's title.
 * Now it leads to the sign-in while signed out, and an in-page link is left to the browser.
 */
import { describe, expect, it } from "vitest";
import { merchantAt, openPage, SKIP_BROWSER, useBrowserSandbox } from "../browser/browser.js";
import { focusedId, settled, signIn } from "../browser/dashboard-driver.js";

const ctx = useBrowserSandbox();

describe.skipIf(SKIP_BROWSER)("the dashboard's skip link", () => {
  it("leads to the sign-in while signed out, and to the view's content once signed in, without a navigation", async () => {
    const m = await merchantAt(ctx.sandbox.url);
    const { page } = await openPage(ctx, `${ctx.sandbox.url}/dashboard/payouts`, 1280);
    const skip = page.getByRole("link", { name: "Skip to content" });
    await skip.focus();
    await page.keyboard.press("Enter");
    expect(await focusedId(page)).toBe("signin-heading");

    await signIn(page, m.keys);
    await settled(page, "Payouts");
    await skip.focus();
    await page.keyboard.press("Enter");
    expect(await focusedId(page)).toBe("content");
    expect(new URL(page.url()).hash).toBe("#content");
    expect(new URL(page.url()).pathname).toBe("/dashboard/payouts");
    expect(await page.locator(".view:not([hidden]) h1").textContent()).toBe("Payouts");
    await page.close();
  }, 60_000);
});
