/** `--public-url https://x/` gave payment links like `https://x//pay/...`. */
import { describe, expect, it } from "vitest";
import { parseSettings } from "../../src/config.js";
import { harness } from "../helpers.js";

describe("--public-url with a trailing slash", () => {
  it("is stored without it, so links have one slash", async () => {
    const parsed = parseSettings(["--public-url", "https://sandbox.example.com/"], {});
    if ("error" in parsed) throw new Error(parsed.error);
    expect(parsed.settings.public_url).toBe("https://sandbox.example.com");
    const h = harness({ publicUrl: parsed.settings.public_url });
    const m = await h.merchant();
    const link = await m.call("POST", "/api/v1/checkout/create", { body: { amount: 500 } });
    expect(link.body.payment_link).toMatch(/^https:\/\/sandbox\.example\.com\/pay\/CHK_/);
  });

  it("refuses a URL that is not http(s)", () => {
    expect(parseSettings(["--public-url", "ftp://x"], {})).toMatchObject({ error: expect.stringContaining("--public-url") });
  });
});
