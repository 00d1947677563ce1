/**
 * Security review: after payment the payment page followed the link's `redirect_url`, and a
 * `javascript:` URL planted in a merchant's state (a snapshot import) ran script on the sandbox's
 * origin, where the dashboard keeps API keys. The pages must not rely on the entry paths: the server
 * drops a non-http(s) redirect_url, the page's script refuses one, and the CSP runs only nonce'd script.
 */
import { describe, expect, it } from "vitest";
import type { Tenant } from "../../src/engine/tenant.js";
import { merchantAt, SKIP_BROWSER, useBrowserSandbox, watchCsp } from "../browser/browser.js";
import { harness } from "../helpers.js";

const EVIL = "javascript:alert(document.domain)";

describe("a javascript: redirect_url planted in a merchant's state", () => {
  it("never reaches the page, whose only script carries the CSP's nonce", async () => {
    const h = harness();
    const m = await h.merchant();
    const link = await m.call("POST", "/api/v1/checkout/create", { body: { amount: 1500, redirect_url: "https://shop.example.com/done" } });
    const ref: string = link.body.reference;
    m.tenant.state.checkouts.get(ref)!.redirect_url = EVIL;

    for (const path of [`/pay/${ref}`, `/processor/checkout/${ref}`]) {
      const page = await h.call("GET", path);
      expect(page.status).toBe(200);
      const html: string = page.body;
      expect(html).not.toMatch(/javascript:/i);
      expect(html).not.toContain("alert(document.domain)");

      const csp = page.headers.get("content-security-policy") ?? "";
      const scriptSrc = csp.split(";").map((d) => d.trim()).find((d) => d.startsWith("script-src "));
      expect(scriptSrc).toBeDefined();
      expect(scriptSrc).not.toContain("unsafe-inline");
      const nonce = /'nonce-([^']+)'/.exec(scriptSrc!)?.[1];
      expect(nonce).toBeDefined();
      const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
      expect(scripts.length).toBeGreaterThan(0);
      for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    }

    // The status the script polls (and the simulate reply) carry no such URL either.
    const status = await h.call("GET", `/pay/${ref}/status`);
    expect(status.body.data.redirect_url).toBeNull();
    const paid = await h.call("POST", `/pay/${ref}/simulate`, { body: {} });
    expect(paid.body.data).toMatchObject({ status: "paid", redirect_url: null });
  });

  it("keeps an http(s) redirect_url", async () => {
    const h = harness();
    const m = await h.merchant();
    const link = await m.call("POST", "/api/v1/checkout/create", { body: { amount: 1500, redirect_url: "https://shop.example.com/done?order=9" } });
    expect((await h.call("GET", `/pay/${link.body.reference}/status`)).body.data.redirect_url).toBe("https://shop.example.com/done?order=9");
  });
});

describe.skipIf(SKIP_BROWSER)("paying a link with a javascript: redirect_url in chromium", () => {
  const ctx = useBrowserSandbox();

  async function plantedLink(): Promise<string> {
    const m = await merchantAt(ctx.sandbox.url);
    const link = (await m.api("POST", "/api/v1/checkout/create", { amount: 900, redirect_url: "https://shop.example.com/done" })) as { reference: string };
    const tenant: Tenant = ctx.sandbox.registry.get(m.id)!;
    tenant.state.checkouts.get(link.reference)!.redirect_url = EVIL;
    return `${ctx.sandbox.url}/pay/${link.reference}`;
  }

  /** Pays on the page, waits past the 2 s redirect delay, and returns what happened. */
  async function payAndWait(url: string, tamper: boolean) {
    const page = await ctx.browser.newPage();
    const violations = await watchCsp(page);
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    if (tamper) {
      // Puts the URL back into the JSON the script reads, as if the server had not dropped it.
      await page.route(/\/pay\/[^/]+\/(status|simulate)$/, async (route) => {
        const res = await route.fetch();
        const body = (await res.json()) as { data?: { redirect_url: string | null } };
        if (body.data) body.data.redirect_url = EVIL;
        await route.fulfill({ response: res, json: body });
      });
    }
    await page.goto(url);
    await page.getByRole("button", { name: "Simulate bank transfer" }).click();
    await expect.poll(() => page.locator("#status").textContent()).toBe("Paid");
    await page.waitForTimeout(3500);
    const result = { url: page.url(), dialogs, violations, message: await page.locator("#message").textContent() };
    // The page keeps polling its status: a tampering handler still running when it closes must not fail the run.
    await page.unrouteAll({ behavior: "ignoreErrors" });
    await page.close();
    return result;
  }

  it("stays on the page and opens no dialog", async () => {
    const url = await plantedLink();
    const result = await payAndWait(url, false);
    expect(result).toEqual({ url, dialogs: [], violations: [], message: "Payment received. Thank you!" });
  }, 60_000);

  it("the script itself refuses the URL when the server's check is bypassed (it never tries: no CSP report)", async () => {
    const url = await plantedLink();
    const result = await payAndWait(url, true);
    expect(result).toEqual({ url, dialogs: [], violations: [], message: "Payment received. Thank you!" });
  }, 60_000);
});
