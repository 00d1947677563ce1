// Verify a merchant-sandbox webhook in Node.js: HMAC-SHA256 of the raw body, lowercase hex.
// Usage: node verify.mjs SIGNATURE SECRET < raw-body
import { createHmac, timingSafeEqual } from "node:crypto";

function verify(rawBody, signature, secret) {
  const expected = Buffer.from(createHmac("sha256", secret).update(rawBody).digest("hex"));
  const given = Buffer.from(String(signature).toLowerCase());
  return expected.length === given.length && timingSafeEqual(expected, given);
}

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const ok = verify(Buffer.concat(chunks), process.argv[2], process.argv[3]);
console.log(ok ? "valid" : "invalid");
process.exit(ok ? 0 : 1);
