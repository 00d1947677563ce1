<?php
// A correct webhook receiver for merchant-sandbox (and the real service), in plain PHP. It verifies
// X-Webhook-Signature over the raw body in constant time, refuses deliveries older than 5 minutes
// and repeated nonces, credits each transaction_id once, answers 2xx to event types it does not
// know (and ignores them), and answers before any slow work.
//
// Run:   WEBHOOK_SECRET=whsec_... php -S 127.0.0.1:3002 examples/webhook-receivers/receiver.php
// Grade: merchant-sandbox doctor --endpoint http://127.0.0.1:3002/webhooks --secret whsec_... \
//          --records-url http://127.0.0.1:3002/credited
// Also: WEBHOOK_ALGORITHM (sha256 or sha512), WEBHOOK_ENCODING (hex or base64), RECEIVER_STORE.
//
// PHP keeps nothing between requests, so credits and recent nonces live in a JSON file
// (RECEIVER_STORE, by default in the temp folder), locked while in use. In real code: a database
// table with a unique key on transaction_id.

const MAX_AGE_SECONDS = 300;
const CREDITS = ['payment.received', 'checkout.completed'];
const KNOWN = ['payment.received', 'checkout.completed', 'payout.completed', 'payout.failed'];

$secret = getenv('WEBHOOK_SECRET') ?: '';
$algorithm = getenv('WEBHOOK_ALGORITHM') ?: 'sha256';
$encoding = getenv('WEBHOOK_ENCODING') ?: 'hex';
$storePath = getenv('RECEIVER_STORE') ?: sys_get_temp_dir() . '/merchant-sandbox-receiver.json';

function answer(int $status, array $body): void
{
    http_response_code($status);
    header('Content-Type: application/json');
    echo json_encode($body);
}

// The HMAC of the exact raw bytes, compared in constant time. Never verify json_encode(json_decode(...)):
// PHP re-encodes slashes and non-ASCII differently, and the signature no longer matches.
function verify(string $raw, string $signature, string $secret, string $algorithm, string $encoding): bool
{
    if ($signature === '' || $secret === '') {
        return false;
    }
    $mac = hash_hmac($algorithm, $raw, $secret, $encoding === 'base64');
    $expected = $encoding === 'base64' ? base64_encode($mac) : $mac;
    return hash_equals($expected, $encoding === 'hex' ? strtolower(trim($signature)) : trim($signature));
}

// Runs $work on the store (credits made, nonces seen) with the file locked, and saves what it gives back.
function withStore(string $path, callable $work)
{
    $file = fopen($path, 'c+');
    flock($file, LOCK_EX);
    $store = json_decode(stream_get_contents($file) ?: '', true) ?: ['credits' => [], 'nonces' => []];
    [$result, $store] = $work($store);
    ftruncate($file, 0);
    rewind($file);
    fwrite($file, json_encode($store));
    fflush($file);
    flock($file, LOCK_UN);
    fclose($file);
    return $result;
}

$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
$method = $_SERVER['REQUEST_METHOD'];

// The records view: every credit made, of these transactions only when ?transaction_ids= is given.
if ($method === 'GET' && $path === '/credited') {
    $filter = isset($_GET['transaction_ids']) ? explode(',', $_GET['transaction_ids']) : null;
    $credits = withStore($storePath, fn ($store) => [$store['credits'], $store]);
    $listed = $filter === null ? $credits : array_values(array_intersect($credits, $filter));
    answer(200, ['credited' => $listed]);
    return;
}
if ($method !== 'POST' || $path !== '/webhooks') {
    answer(404, ['error' => 'not found']);
    return;
}

$raw = file_get_contents('php://input');
if (!verify($raw, $_SERVER['HTTP_X_WEBHOOK_SIGNATURE'] ?? '', $secret, $algorithm, $encoding)) {
    answer(401, ['error' => 'invalid signature']);
    return;
}
$event = json_decode($raw, true);
if (!is_array($event) || !is_string($event['sent_at'] ?? null) || !is_string($event['nonce'] ?? null)) {
    answer(400, ['error' => 'not a webhook delivery']);
    return;
}
$sentAt = strtotime($event['sent_at']);
if ($sentAt === false || abs(time() - $sentAt) > MAX_AGE_SECONDS) {
    answer(400, ['error' => 'stale delivery: sent_at is more than 5 minutes away']);
    return;
}

$outcome = withStore($storePath, function (array $store) use ($event) {
    $now = time();
    $store['nonces'] = array_filter($store['nonces'], fn ($at) => $at >= $now - MAX_AGE_SECONDS);
    if (isset($store['nonces'][$event['nonce']])) {
        return ['replayed', $store];
    }
    $store['nonces'][$event['nonce']] = $now;
    if (!in_array($event['event'], KNOWN, true)) {
        return ['ignored', $store];
    }
    if (!in_array($event['event'], CREDITS, true)) {
        return ['received', $store]; // payout.completed / payout.failed: mark the payout settled here
    }
    $transactionId = $event['data']['transaction_id'] ?? '';
    if (in_array($transactionId, $store['credits'], true)) {
        return ['duplicate', $store];
    }
    $store['credits'][] = $transactionId;
    return ['credited', $store];
});

if ($outcome === 'replayed') {
    answer(409, ['error' => 'replayed nonce']);
    return;
}
answer(200, ['outcome' => $outcome]);
