<?php
// Verify a merchant-sandbox webhook in PHP: HMAC-SHA256 of the raw body, lowercase hex.
// In a web handler the raw body is file_get_contents('php://input') and the signature is
// $_SERVER['HTTP_X_WEBHOOK_SIGNATURE']. Usage here: php verify.php SIGNATURE SECRET < raw-body

function verify(string $rawBody, string $signature, string $secret): bool {
    $expected = hash_hmac('sha256', $rawBody, $secret);
    return hash_equals($expected, strtolower($signature));
}

$ok = verify(stream_get_contents(STDIN), $argv[1], $argv[2]);
echo $ok ? "valid\n" : "invalid\n";
exit($ok ? 0 : 1);
