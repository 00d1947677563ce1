/**
 * Driving the dashboard as a person does, for its browser tests: sign in with a merchant's keys, go to
 * a view through the Dashboard navigation (behind its Menu on a phone), wait for the shown view to load,
 * and read an action's result where it was taken.
 */
import { expect } from "vitest";
import type { Page } from "playwright-core";

/** How long a view's sections, or an action's result, may take to arrive. */
export const LOAD = { timeout: 10_000 };

/** A string: this project compiles without the DOM types. */
export const focusedId = (page: Page) => page.evaluate("document.activeElement && document.activeElement.id") as Promise<string | null>;

/** Signs in with the sign-in form's labelled fields and its button. */
export async function signIn(page: Page, keys: Record<string, string>): Promise<void> {
  await page.getByLabel("API key (X-Api-Key)").fill(keys["x-api-key"]!);
  await page.getByLabel("API secret (X-Api-Secret)").fill(keys["x-api-secret"]!);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** The shown view is `title`, with every section loaded. */
export async function settled(page: Page, title: string): Promise<void> {
  await expect.poll(() => page.locator(".view:not([hidden]) h1").textContent(), LOAD).toBe(title);
  await expect.poll(() => page.locator(".view:not([hidden]) [data-section]", { hasText: /^Loading…$/ }).count(), LOAD).toBe(0);
}

/** Goes to a view by its link in the Dashboard navigation, opening the Menu first on a phone. */
export async function navigate(page: Page, phone: boolean, title: string): Promise<void> {
  if (phone) await page.getByRole("button", { name: "Menu" }).click();
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: title, exact: true }).click();
  await settled(page, title);
}

/** The section's result once it is no longer "Working…": its text and whether it is red. */
export async function result(page: Page, section: string): Promise<{ text: string; error: boolean }> {
  const slot = page.locator(`#${section}-result`);
  await expect.poll(async () => (await slot.getAttribute("class")) ?? "", LOAD).toMatch(/success|error/);
  return { text: (await slot.textContent()) ?? "", error: ((await slot.getAttribute("class")) ?? "").includes("error") };
}
