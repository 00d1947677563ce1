/**
 * /docs "try it", as a merchant developer clicks it: in chromium, Scalar's API client sends every
 * operation's pre-filled request (the document's first example, the demo merchant's keys filled in
 * by the page) and gets the documented success. Before each, the demo merchant is put back as
 * `npm start` made it (its snapshot), as a developer meets it on a fresh start.
 */
import { describe, expect, it } from "vitest";
import type { Page, Response } from "playwright-core";
import { DEMO_KEYS, httpCall } from "../helpers.js";
import { operations, shapeOf } from "../openapi-examples.js";
import { openPage, SCREENSHOTS, SKIP_BROWSER, useBrowserSandbox } from "./browser.js";

const ctx = useBrowserSandbox();

/** Scalar's sidebar id of an operation: tag slug, upper-case method, path. */
const sidebarId = (tag: string, method: string, path: string) =>
  `api-1/tag/${tag.toLowerCase().replace(/[^a-z0-9]+/g, "-")}/${method.toUpperCase()}${path}`;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * What the snapshot put back before each request cannot undo goes last: clearing the request log (it is
 * traffic, not state, so a GET of one request after it finds none), then deleting the demo merchant.
 */
const LAST = ["clearRequests", "deleteMerchant"];
const rank = (op: { operationId?: string }) => LAST.indexOf(op.operationId ?? "") + 1;
const ordered = [...operations].sort((a, b) => rank(a.op) - rank(b.op));

/** The request Scalar sends for `method path` (path parameters filled in) and its response. */
function nextResponse(page: Page, method: string, template: string): Promise<Response> {
  const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`);
  return page.waitForResponse((r) => r.request().method() === method.toUpperCase() && pattern.test(new URL(r.url()).pathname), { timeout: 15_000 });
}

describe.skipIf(SKIP_BROWSER)("/docs try it", () => {
  it("every operation's pre-filled request gets its documented success, with the demo merchant's keys", async () => {
    const base = ctx.sandbox.url;
    const demo = (await httpCall(base, "GET", "/sandbox/v1/snapshot", { headers: DEMO_KEYS })).body;
    const { page } = await openPage(ctx, `${base}/docs`, 1400);
    // Open Scalar's API client from the first operation; its sidebar then reaches every operation.
    const first = page.locator("button", { hasText: "Test Request(get /api/v1/wallet/balance)" });
    await first.waitFor({ timeout: 30_000 });
    await first.click();
    const client = page.locator("[role=dialog].scalar-client");
    const bar = client.locator(".scalar-address-bar").first();
    const send = bar.locator("button", { hasText: /^Send/ }).first();
    await send.waitFor();
    await client.locator("button", { hasText: "Show sidebar" }).click();

    const results: string[] = [];
    for (const { path, method, op, requests } of ordered) {
      const tag = (op as { tags?: string[] }).tags?.[0] ?? "";
      const id = sidebarId(tag, method, path);
      const item = client.locator(`[data-sidebar-id="${id}"] > div > button`).first();
      // A tag's group opens on its first use.
      if (!(await item.isVisible())) await client.locator(`[data-sidebar-id="${sidebarId(tag, "", "").replace(/\/$/, "")}"] > div > button`).first().click();
      await item.click();
      // Then its first example, which is what "try it" pre-fills (the client lists each by name).
      const expected = requests[0]!;
      const example = client.locator(`[data-sidebar-id="${id}/example/${expected.name.toLowerCase()}"] > button`).first();
      // The client routes asynchronously (opening a tag's group can land on another operation after
      // the click): select until the address bar shows this operation.
      const target = new RegExp(`Send ${method.toLowerCase()} request to ${escapeRegExp(base)}${escapeRegExp(path).replace(/\\\{[^}]+\\\}/g, "[^/]+")}$`);
      const shows = async () => target.test((await bar.textContent()) ?? "");
      for (let attempt = 0; attempt < 5 && !(await shows()); attempt++) {
        await example.click();
        await page.waitForTimeout(200); // the client's route change; checked again right after
      }
      expect(await shows(), `${expected.operation} is selected in the client (example "${expected.name}": ${await example.count()} found; the client shows ${await bar.textContent()})`).toBe(true);
      await expect.poll(() => example.getAttribute("aria-selected")).toBe("true");
      expect((await httpCall(base, "PUT", "/sandbox/v1/snapshot", { headers: DEMO_KEYS, body: demo })).status).toBe(200);
      const answered = nextResponse(page, method, path);
      await send.click();
      const response = await answered.catch(async (err: Error) => {
        await page.screenshot({ path: `${SCREENSHOTS}/docs-try-it-failed.png` });
        throw new Error(`${expected.operation}: no answer to the pre-filled request (screenshot: docs-try-it-failed.png; the client shows ${await bar.textContent()}): ${err.message}`);
      });
      results.push(`${expected.operation}: ${response.status()}${response.status() === expected.status ? "" : ` (documented ${expected.status}: ${await response.text()})`}`);
      // Scalar sends the body as a stream the browser does not expose: the answer shows it was the example's.
      expect(shapeOf(await response.json()), `${expected.operation} answers as documented`).toEqual(shapeOf(expected.expected));
      if (!expected.anonymous) expect(response.request().headers()["x-api-key"], expected.operation).toBe(DEMO_KEYS["x-api-key"]);
    }
    expect(results.filter((r) => r.includes("documented"))).toEqual([]);
    expect(results).toHaveLength(operations.length);
    await page.close();
  }, 300_000);
});
