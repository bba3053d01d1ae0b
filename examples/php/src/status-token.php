<?php
// The status token the session gives in order.statusToken and status-url checks: an expiry and an
// HMAC-SHA256 of the reference and that expiry, under PAY_STATUS_SECRET (made once and kept in the
// data directory when unset), compared in constant time.
declare(strict_types=1);

/** The secret that signs status tokens: PAY_STATUS_SECRET, or one made on first use and kept. */
function status_secret(): string
{
    $secret = getenv('PAY_STATUS_SECRET');
    if (is_string($secret) && strlen($secret) >= 32) {
        return $secret;
    }
    return with_lock('status-secret', function (string $file): string {
        $kept = is_file($file) ? (string) file_get_contents($file) : '';
        if (strlen($kept) < 32) {
            $kept = bin2hex(random_bytes(32));
            file_put_contents($file, $kept);
        }
        return $kept;
    });
}

/** "<expiry>.<HMAC-SHA256 of reference and expiry>", for status-url. */
function status_token(string $reference, int $expiry): string
{
    $mac = hash_hmac('sha256', "$reference|$expiry", status_secret(), true);
    return $expiry . '.' . rtrim(strtr(base64_encode($mac), '+/', '-_'), '=');
}

function valid_status_token(string $reference, string $token): bool
{
    if ($reference === '' || strlen($reference) > 100 || !preg_match('/^(\d{1,12})\.[A-Za-z0-9_-]{43}$/', $token, $match)) {
        return false;
    }
    return (int) $match[1] > time() && hash_equals(status_token($reference, (int) $match[1]), $token);
}
