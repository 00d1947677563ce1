/**
 * X-Webhook-Signature: an HMAC of the exact raw body bytes with the merchant's webhook secret.
 * Default HMAC-SHA256 in lowercase hex; SHA-512 and base64 are per-merchant settings because real
 * providers differ (Paystack: SHA-512 hex; Flutterwave and Monnify: SHA-512/256 variants; others base64).
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export interface SignatureOptions {
  algorithm?: "sha256" | "sha512";
  encoding?: "hex" | "base64";
}

export function signPayload(rawBody: string | Uint8Array, secret: string, options: SignatureOptions = {}): string {
  return createHmac(options.algorithm ?? "sha256", secret).update(rawBody).digest(options.encoding ?? "hex");
}

/**
 * Verifies a webhook signature in constant time. Pass the body exactly as received (the raw bytes or
 * the untouched string), not a re-serialised object: any change of whitespace or key order breaks it.
 */
export function verifyWebhookSignature(
  rawBody: string | Uint8Array,
  signature: string | null | undefined,
  secret: string,
  options: SignatureOptions = {},
): boolean {
  if (!signature) return false;
  const expected = Buffer.from(signPayload(rawBody, secret, options), "utf8");
  const given = Buffer.from(options.encoding === "base64" ? signature.trim() : signature.trim().toLowerCase(), "utf8");
  return expected.length === given.length && timingSafeEqual(expected, given);
}
