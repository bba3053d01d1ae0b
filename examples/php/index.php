<?php
// A merchant back end for <pay-widget>, written from the contract in docs/own-back-end.md alone: plain PHP 8, no
// framework, no extension beyond the CLI's own (JSON, hash, streams). Run it with PHP's built-in
// server (several workers, so concurrent requests really are concurrent):
//
//   PHP_CLI_SERVER_WORKERS=4 PAY_BASE_URL=… PAY_PUBLIC_KEY=… PAY_SECRET_KEY=… \
//     php -S 127.0.0.1:8000 index.php
//
//   POST /pay/session   the widget's session-url   (src/session.php)
//   GET  /pay/status    the widget's status-url    (src/status.php)
//   POST /pay/webhook   the gateway's notifications (src/webhook.php)
//
// Everything is kept in files under PAY_DATA_DIR, with flock for the claims that must be atomic.
declare(strict_types=1);

require __DIR__ . '/src/config.php';
require __DIR__ . '/src/http.php';
require __DIR__ . '/src/store.php';
require __DIR__ . '/src/gateway.php';
require __DIR__ . '/src/settle.php';
require __DIR__ . '/src/status-token.php';

// A warning printed into a reply could carry a URL, a token or a path: errors go to the log only.
ini_set('display_errors', '0');
ini_set('log_errors', '1');

$routes = [
    '/pay/session' => __DIR__ . '/src/session.php',
    '/pay/status' => __DIR__ . '/src/status.php',
    '/pay/webhook' => __DIR__ . '/src/webhook.php',
];
$path = parse_url($_SERVER['REQUEST_URI'] ?? '/', PHP_URL_PATH);

try {
    if (!is_string($path) || !isset($routes[$path])) {
        reply_error(404, 'not_found', 'Not found.');
    }
    require $routes[$path];
} catch (Throwable $error) {
    // The class and the line only: a message could quote a URL or a header.
    error_log('pay-widget example: ' . get_class($error) . ' at ' . basename($error->getFile()) . ':' . $error->getLine() . ' in ' . $path);
    reply_error(500, 'internal_error', 'Something went wrong on our side. Please try again.', ['retryable' => true]);
}
