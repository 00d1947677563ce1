/**
 * Every view of the dashboard, at a laptop's and a phone's size, signed in as the demo merchant with
 * its one click: each view's URL loads (and reloads) to that view, with its title and its navigation
 * link marked current; nothing scrolls sideways at 390 px; axe-core finds no serious or critical
 * violation. A payout's story shows its webhook delivery and the requests that touched it; links, the
 * back button and the phone's menu move between views. The screenshots are the docs'.
 */
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { STORY_PATHS } from "../../src/pages/dashboard-ui.js";
import { VIEWS } from "../../src/pages/dashboard-views.js";
import { START } from "../helpers.js";
import { axeViolations, merchantAt, openPage, SCREENSHOTS, SKIP_BROWSER, useBrowserSandbox, SIZES } from "./browser.js";

const ctx = useBrowserSandbox();

/** Strings: this project compiles without the DOM types. */
const js = <T,>(page: Page, code: string) => page.evaluate(code) as Promise<T>;
const overflow = (page: Page) => js<number>(page, "document.documentElement.scrollWidth - window.innerWidth");
const LOAD = { timeout: 10_000 };

/** The view is shown with every section loaded. */
async function settled(page: Page, title: string): Promise<void> {
  await expect.poll(() => page.locator(".view:not([hidden]) h1").textContent(), LOAD).toBe(title);
  await expect.poll(() => page.locator(".view:not([hidden]) [data-section]").evaluateAll((nodes) => nodes.filter((n) => n.textContent === "Loading…").length), LOAD).toBe(0);
}

async function signInAsDemo(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Use the demo merchant" }).click();
  await expect.poll(() => page.locator("[data-testid=merchant-name]").count(), LOAD).toBe(1);
}

describe.skipIf(SKIP_BROWSER)("dashboard views", () => {
  for (const size of SIZES) {
    it(`${size.name}: every view at its URL, reloaded, fits, and passes axe`, async () => {
      const { page, violations, external } = await openPage(ctx, `${ctx.sandbox.url}/dashboard`, size.width, { height: size.height });
      expect(await axeViolations(page), "the sign-in").toEqual([]);
      await signInAsDemo(page);
      for (const view of VIEWS) {
        const url = `${ctx.sandbox.url}/dashboard${view.path ? `/${view.path}` : ""}`;
        // A reload of the view's URL: the keys stay for the tab's session, the view is the same.
        const res = await page.goto(url);
        expect(res!.status(), url).toBe(200);
        await settled(page, view.title);
        expect(await page.locator(`#nav a[aria-current=page]`).textContent(), url).toBe(view.title);
        expect(await page.title()).toBe(`${view.title} · merchant-sandbox`);
        expect(await overflow(page), `${url} scrolls sideways`).toBeLessThanOrEqual(0);
        expect(await axeViolations(page), url).toEqual([]);
        if (view.id === "home") await page.screenshot({ path: `${SCREENSHOTS}/dashboard-home-${size.name}.png` });
      }
      expect(violations).toEqual([]);
      expect(external).toEqual([]);
      await page.close();
    }, 180_000);

    it(`${size.name}: a payout's story shows its delivery and its requests, and its actions; links, back and reload keep the view`, async () => {
      const m = await merchantAt(ctx.sandbox.url, { business_name: "Story Foods", webhook_capture: {}, clock: { now: new Date(START).toISOString() } });
      const payout = (reference: string) =>
        m.api("POST", "/api/v1/payout/transfer", { amount: 5000, bank_code: "058", account_number: "0000000018", account_name: "EZE FUNMILAYO IBRAHIM", bank_name: "Guaranty Trust Bank", reference });
      const reference = `story-done-${size.name}`;
      const open = `story-open-${size.name}`;
      await payout(reference);
      await m.api("GET", `/api/v1/payout/status?reference=${reference}`);
      await m.api("POST", `/sandbox/v1/payouts/${reference}/complete`);
      // The manual clock sends the payout.completed webhook (to the built-in capture) when it moves.
      await m.api("POST", "/sandbox/v1/clock/advance", { seconds: 0 });
      await payout(open);

      const { page, violations } = await openPage(ctx, `${ctx.sandbox.url}/dashboard/payouts`, size.width, { height: size.height });
      await page.getByLabel("API key (X-Api-Key)").fill(m.keys["x-api-key"]);
      await page.getByLabel("API secret (X-Api-Secret)").fill(m.keys["x-api-secret"]);
      await page.getByRole("button", { name: "Sign in" }).click();
      await settled(page, "Payouts");
      await page.locator(`[data-payout='${reference}']`).getByRole("link", { name: reference }).click();
      await expect.poll(() => page.url()).toBe(`${ctx.sandbox.url}/dashboard/${STORY_PATHS.payout}/${encodeURIComponent(reference)}`);
      await settled(page, `Payout ${reference}`);
      const story = page.locator("#view-story");
      await expect.poll(() => story.locator("[data-testid=story-delivery]").count(), LOAD).toBeGreaterThan(0);
      expect(await story.locator("[data-testid=story-delivery]").first().textContent()).toMatch(/HTTP 2\d\d/);
      await expect.poll(() => story.locator("[data-testid=story-request]").count(), LOAD).toBeGreaterThan(0);
      const requests = (await story.locator("[data-testid=story-request]").allTextContents()).join("\n");
      expect(requests).toContain("/api/v1/payout/transfer");
      expect(requests).toContain("/api/v1/payout/status");
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      expect(await axeViolations(page)).toEqual([]);
      if (size.name === "phone") await page.screenshot({ path: `${SCREENSHOTS}/dashboard-payout-story-phone.png`, fullPage: true });
      // A time says when relative to the merchant's clock; on focus its tip gives UTC.
      const time = story.locator("time.when[tabindex='0']").first();
      expect(await time.locator(".tip").isVisible()).toBe(false);
      await time.focus();
      expect(await time.locator(".tip").isVisible()).toBe(true);
      expect(await time.locator(".tip").textContent()).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ/);

      // Reload: the same story.
      await page.reload();
      await settled(page, `Payout ${reference}`);
      // A request of the story opens in the request log, at its own URL.
      await story.locator("[data-testid=story-request] a").first().click();
      await expect.poll(() => new URL(page.url()).pathname).toBe("/dashboard/logs");
      await expect.poll(() => page.locator("#request-detail-heading").count(), LOAD).toBe(1);
      // Back: the story again; back once more: the payouts list.
      await page.goBack();
      await settled(page, `Payout ${reference}`);
      await page.goBack();
      await settled(page, "Payouts");
      expect(await js<boolean>(page, `document.activeElement === document.getElementById("view-payouts-title")`)).toBe(true);

      if (size.name === "phone") {
        // The navigation is a menu: closed, it takes no room; open, it leads to a view and closes.
        await expect.poll(() => page.locator("#nav").isVisible()).toBe(false);
        await page.getByRole("button", { name: "Menu" }).click();
        await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Ledger" }).click();
        await settled(page, "Ledger");
        await expect.poll(() => page.locator("#nav").isVisible()).toBe(false);
        expect(await page.getByRole("button", { name: "Menu" }).getAttribute("aria-expanded")).toBe("false");
      } else {
        await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Ledger" }).click();
        await settled(page, "Ledger");
      }
      expect(new URL(page.url()).pathname).toBe("/dashboard/ledger");

      // An action in context: the open payout's story completes it, and says so where it was taken.
      await page.goto(`${ctx.sandbox.url}/dashboard/${STORY_PATHS.payout}/${open}`);
      await settled(page, `Payout ${open}`);
      await story.getByRole("button", { name: "Complete" }).click();
      await expect.poll(() => page.locator("#story-result").textContent(), LOAD).toBe(`Payout ${open} completed.`);
      await expect.poll(() => story.locator("[data-testid=story-status]").textContent(), LOAD).toBe("completed");
      expect(violations).toEqual([]);
      await page.close();
    }, 120_000);
  }

  it("the Scenarios view loads a scenario into a new merchant and switches to it in one step", async () => {
    const { page } = await openPage(ctx, `${ctx.sandbox.url}/dashboard/scenarios`, 390, { height: 844 });
    await signInAsDemo(page);
    await settled(page, "Scenarios");
    await page.getByRole("button", { name: "Load scenario" }).click();
    await expect.poll(() => page.locator("#scenarios-result").textContent(), LOAD).toBe("Scenario loaded: 1 new merchant. Switch to one below.");
    await page.getByRole("button", { name: "Switch to shop" }).click();
    await page.goto(`${ctx.sandbox.url}/dashboard/payment-links`);
    await settled(page, "Payment links");
    await expect.poll(() => page.locator("#links tbody tr").count(), LOAD).toBe(1);
    expect(await page.locator("#links tbody tr .money").first().textContent()).toBe("₦12,500.00");
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.close();
  });

  it("an unknown dashboard path is a 404 page that leads home", async () => {
    const { page, status } = await openPage(ctx, `${ctx.sandbox.url}/dashboard/nothing-here`, 1280);
    expect(status).toBe(404);
    expect(await page.getByRole("link", { name: "Open the dashboard's home" }).getAttribute("href")).toBe("/dashboard");
    await page.close();
  });

  it("switching merchants is one step: a merchant used before in the tab is one click away", async () => {
    const { page } = await openPage(ctx, `${ctx.sandbox.url}/dashboard`, 1280);
    await signInAsDemo(page);
    const demoName = (await page.locator("[data-testid=merchant-name]").textContent())!;
    const other = (await (await fetch(`${ctx.sandbox.url}/sandbox/v1/merchants`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ business_name: "Second Shop" }) })).json()) as {
      data: { api_key: string; api_secret: string };
    };
    await page.getByRole("button", { name: "Switch merchant" }).click();
    await page.getByLabel("API key (X-Api-Key)").fill(other.data.api_key);
    await page.getByLabel("API secret (X-Api-Secret)").fill(other.data.api_secret);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => page.locator("[data-testid=merchant-name]").textContent(), LOAD).toBe("Second Shop");
    await page.getByRole("button", { name: "Switch merchant" }).click();
    await page.getByRole("button", { name: `Switch to ${demoName}` }).click();
    await expect.poll(() => page.locator("[data-testid=merchant-name]").textContent(), LOAD).toBe(demoName);
    // Signing out by hand forgets every merchant the tab knew: no secret stays in the tab.
    await page.getByRole("button", { name: "Sign out" }).click();
    expect(await page.locator("#signin-recent button").count()).toBe(0);
    expect(await page.evaluate("Object.keys(sessionStorage).length")).toBe(0);
    await page.close();
  });
});
