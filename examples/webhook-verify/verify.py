# Verify a merchant-sandbox webhook in Python: HMAC-SHA256 of the raw body, lowercase hex.
# Usage: python3 verify.py SIGNATURE SECRET < raw-body
import hashlib
import hmac
import sys


def verify(raw_body: bytes, signature: str, secret: str) -> bool:
    expected = hmac.new(secret.encode(), raw_body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, signature.lower())


ok = verify(sys.stdin.buffer.read(), sys.argv[1], sys.argv[2])
print("valid" if ok else "invalid")
sys.exit(0 if ok else 1)
