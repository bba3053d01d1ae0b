<?php
// Replies: JSON with the contract's error shape, CORS for the page's origin, the request body read
// with a size limit.
declare(strict_types=1);

/** Sends $body as JSON with $status and stops. */
function reply_json(int $status, array $body, array $headers = []): never
{
    http_response_code($status);
    header('Content-Type: application/json');
    header('Cache-Control: no-store');
    foreach ($headers as $name => $value) {
        header("$name: $value");
    }
    echo json_encode($body, JSON_UNESCAPED_SLASHES);
    exit;
}

/** { status: "ERROR", error: { code, message, fields?, retryable } }: messages are for customers. */
function reply_error(int $status, string $code, string $message, array $extra = []): never
{
    $error = ['code' => $code, 'message' => $message, 'retryable' => $extra['retryable'] ?? false];
    if (isset($extra['fields'])) {
        $error['fields'] = $extra['fields'];
    }
    reply_json($status, ['status' => 'ERROR', 'error' => $error], $extra['headers'] ?? []);
}

/** CORS headers for an allowed Origin; answers a preflight (OPTIONS) and stops. */
function cors(string $methods): void
{
    $origin = $_SERVER['HTTP_ORIGIN'] ?? '';
    $allowed = array_filter(array_map('trim', explode(',', config('PAY_ALLOWED_ORIGINS'))));
    if ($origin !== '' && in_array($origin, $allowed, true)) {
        header("Access-Control-Allow-Origin: $origin");
        header('Vary: Origin');
        if (($_SERVER['REQUEST_METHOD'] ?? '') === 'OPTIONS') {
            header("Access-Control-Allow-Methods: $methods, OPTIONS");
            header('Access-Control-Allow-Headers: Content-Type, Idempotency-Key');
            header('Access-Control-Max-Age: 600');
        }
    }
    if (($_SERVER['REQUEST_METHOD'] ?? '') === 'OPTIONS') {
        http_response_code(204);
        exit;
    }
}

function require_method(string $method): void
{
    if (($_SERVER['REQUEST_METHOD'] ?? '') !== $method) {
        reply_error(405, 'method_not_allowed', 'Method not allowed.', ['headers' => ['Allow' => "$method, OPTIONS"]]);
    }
}

/** The JSON object in the body, or a 4xx: not JSON (415), too large (413), not an object (400). */
function read_json_object(int $maxBytes): array
{
    $type = strtolower(trim(explode(';', $_SERVER['CONTENT_TYPE'] ?? '')[0]));
    if ($type !== 'application/json') {
        reply_error(415, 'unsupported_media_type', 'Send JSON (Content-Type: application/json).');
    }
    $raw = (string) file_get_contents('php://input', false, null, 0, $maxBytes + 1);
    if (strlen($raw) > $maxBytes) {
        reply_error(413, 'payload_too_large', 'The request is too large.');
    }
    $body = json_decode($raw, true, 32);
    if (!is_array($body) || array_is_list($body) && $body !== []) {
        reply_error(400, 'invalid_json', 'The request is not a JSON object.');
    }
    return $body;
}
