/**
 * The dashboard's "API keys" and "Webhook settings" views, at desktop and
 * phone sizes: the key shown and the secrets masked until revealed, Copy puts them on the clipboard,
 * saving a webhook URL changes the merchant and says so where the focus goes, a refused URL is
 * explained beside the field and the typed text stays; no secret in any server-rendered HTML.
 */
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { axeViolations, merchantAt, openPage, SCREENSHOTS, SKIP_BROWSER, useBrowserSandbox, SIZES } from "./browser.js";
import { focusedId as focused, navigate, settled } from "./dashboard-driver.js";

const ctx = useBrowserSandbox();

const clipboard = (page: Page) => page.evaluate("navigator.clipboard.readText()") as Promise<string>;

describe.skipIf(SKIP_BROWSER)("dashboard API keys and Webhook settings", () => {
  for (const size of SIZES) {
    const phone = size.name === "phone";
    it(`${size.name}: keys, reveal, copy, save a webhook URL, a refused URL kept with its error, no serious axe violation`, async () => {
      const m = await merchantAt(ctx.sandbox.url, { business_name: "Suya Spot" });
      const merchant = (await m.api("GET", "/sandbox/v1/merchant")).data;
      const { page, violations, external } = await openPage(ctx, `${ctx.sandbox.url}/dashboard/api-keys`, size.width, { height: size.height, clipboard: true });
      const html: string[] = [];
      page.on("response", async (r) => {
        if ((r.headers()["content-type"] ?? "").includes("text/html")) html.push(await r.text().catch(() => ""));
      });
      await page.locator("#api-key").fill(m.keys["x-api-key"]);
      await page.locator("#api-secret").fill(m.keys["x-api-secret"]);
      await page.keyboard.press("Enter");
      await settled(page, "API keys");

      // API keys: id and key shown, the secret masked until revealed, then hidden again.
      const keys = page.locator("#api-keys");
      await expect.poll(() => page.locator("#keys-merchant-id").textContent()).toBe(merchant.merchant_id);
      expect(await page.locator("#keys-api-key").textContent()).toBe(m.keys["x-api-key"]);
      const secret = page.locator("#keys-api-secret");
      expect(await secret.textContent()).not.toContain(m.keys["x-api-secret"]);
      await keys.getByRole("button", { name: "Reveal API secret" }).click();
      expect(await secret.textContent()).toBe(m.keys["x-api-secret"]);
      expect(await keys.getByRole("button", { name: "Hide API secret" }).getAttribute("aria-expanded")).toBe("true");
      await keys.getByRole("button", { name: "Hide API secret" }).click();
      expect(await secret.textContent()).not.toContain(m.keys["x-api-secret"]);

      // Copy works masked or not, and says so in the section.
      await keys.getByRole("button", { name: "Copy API secret" }).click();
      await expect.poll(() => clipboard(page)).toBe(m.keys["x-api-secret"]);
      expect(await page.locator("#api-keys-result").textContent()).toBe("Copied the API secret to the clipboard.");
      await keys.getByRole("button", { name: "Copy API key" }).click();
      await expect.poll(() => clipboard(page)).toBe(m.keys["x-api-key"]);

      // Webhook settings (its own view): the scheme, the secret masked, revealed and copied.
      await navigate(page, phone, "Webhook settings");
      const hooks = page.locator("#webhook-settings");
      await expect.poll(() => page.locator("#webhook-scheme").textContent()).toBe("HMAC-SHA256 of the raw body, hex encoded");
      expect(await page.locator("#webhook-secret").textContent()).not.toContain(merchant.webhook_secret);
      await hooks.getByRole("button", { name: "Reveal webhook secret" }).click();
      expect(await page.locator("#webhook-secret").textContent()).toBe(merchant.webhook_secret);
      await hooks.getByRole("button", { name: "Copy webhook secret" }).click();
      await expect.poll(() => clipboard(page)).toBe(merchant.webhook_secret);

      // A refused URL: the error beside the field, the text kept, the focus back in the field, nothing saved.
      const input = page.getByLabel("New webhook URL");
      await input.fill("ftp://example.com/hooks");
      await hooks.getByRole("button", { name: "Save webhook URL" }).click();
      await expect.poll(() => page.locator("#webhook-url-error").textContent()).toBe("Must be an http(s) URL.");
      expect(await page.locator("#webhook-url-error").isVisible()).toBe(true);
      expect(await input.inputValue()).toBe("ftp://example.com/hooks");
      expect(await input.getAttribute("aria-invalid")).toBe("true");
      expect(await focused(page)).toBe("webhook-url");
      expect(await page.locator("#webhook-settings-result").getAttribute("class")).toContain("error");
      expect(await page.locator("#webhook-settings-result").textContent()).toContain("VALIDATION_ERROR");
      expect((await m.api("GET", "/sandbox/v1/merchant")).data.webhook_url).toBe(merchant.webhook_url);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `${SCREENSHOTS}/dashboard-webhook-settings-refused-${size.name}.png` });

      // A good URL: saved, said in the result slot, which takes the focus; the error goes.
      const url = `https://example.com/hooks/${size.name}`;
      await input.fill(url);
      await input.press("Enter");
      await expect.poll(() => focused(page)).toBe("webhook-settings-result");
      expect(await page.locator("#webhook-settings-result").textContent()).toBe(`Webhook URL saved: new deliveries go to ${url}.`);
      expect(await page.locator("#webhook-settings-result").getAttribute("class")).toContain("success");
      expect((await m.api("GET", "/sandbox/v1/merchant")).data.webhook_url).toBe(url);
      expect(await page.locator("#webhook-current").textContent()).toBe(url);
      expect(await page.locator("#webhook-url-error").isVisible()).toBe(false);
      expect(await input.getAttribute("aria-invalid")).toBeNull();

      expect(await axeViolations(page)).toEqual([]);
      await navigate(page, phone, "API keys");
      await page.screenshot({ path: `${SCREENSHOTS}/dashboard-settings-${size.name}.png` });
      // The secrets reach the page only through the control API's JSON, never in HTML.
      for (const body of html) {
        expect(body).not.toContain(m.keys["x-api-secret"]);
        expect(body).not.toContain(merchant.webhook_secret);
      }
      expect(violations).toEqual([]);
      expect(external).toEqual([]);

      // Sign-out (on a phone, in the menu) forgets them.
      if (phone) await page.getByRole("button", { name: "Menu" }).click();
      await page.getByRole("button", { name: "Sign out" }).click();
      await expect.poll(() => page.getByRole("button", { name: "Sign in" }).isVisible()).toBe(true);
      expect(await page.locator("#keys-api-key").textContent()).toBe("");
      expect(await page.evaluate("document.getElementById('webhook-secret').textContent")).not.toContain(merchant.webhook_secret);
      await page.close();
    }, 60_000);
  }
});
