<?php
// The gateway: a bearer token bought from the two keys (POST /api/v2/encrypt/keys, cached in a
// file, renewed once on a 401), the initiation (POST /api/v2/payments/initiates) and the query
// (GET /api/v3/payments/query/{reference}). Nothing it answers is passed to the customer.
declare(strict_types=1);

/** ['status' => HTTP status or 0 when nothing came back, 'json' => the body decoded, or null]. */
function gateway_call(string $method, string $path, ?array $body, ?string $token): array
{
    $headers = ['Accept: application/json'];
    if ($body !== null) {
        $headers[] = 'Content-Type: application/json';
    }
    if ($token !== null) {
        $headers[] = "Authorization: Bearer $token";
    }
    $context = stream_context_create(['http' => [
        'method' => $method,
        'header' => implode("\r\n", $headers),
        'content' => $body === null ? '' : json_encode($body, JSON_UNESCAPED_SLASHES),
        'timeout' => 15,
        'ignore_errors' => true, // read 4xx and 5xx bodies instead of failing
        'follow_location' => 0,
    ]]);
    $text = @file_get_contents(rtrim(config('PAY_BASE_URL'), '/') . $path, false, $context);
    $status = 0;
    foreach ($http_response_header ?? [] as $line) {
        if (preg_match('#^HTTP/\S+ (\d{3})#', $line, $match)) {
            $status = (int) $match[1];
        }
    }
    $json = is_string($text) ? json_decode($text, true) : null;
    return ['status' => $text === false ? 0 : $status, 'json' => is_array($json) ? $json : null];
}

function gateway_token(bool $renew = false): ?string
{
    return with_lock('token', function (string $file) use ($renew): ?string {
        $kept = read_record($file);
        if (!$renew && $kept !== null && $kept['until'] > time()) {
            return $kept['token'];
        }
        $answer = gateway_call('POST', '/api/v2/encrypt/keys', ['key' => config('PAY_SECRET_KEY') . '.' . config('PAY_PUBLIC_KEY')], null);
        $token = $answer['json']['data']['EncryptedSecKey']['encryptedKey'] ?? null;
        if (!is_string($token) || $token === '') {
            return null;
        }
        write_record($file, ['token' => $token, 'until' => time() + 50 * 60]);
        return $token;
    });
}

/** A call with the bearer token, renewed and sent again once when the gateway answers 401. */
function gateway_authorised(string $method, string $path, ?array $body): array
{
    $token = gateway_token();
    if ($token === null) {
        return ['status' => 0, 'json' => null];
    }
    $answer = gateway_call($method, $path, $body, $token);
    if ($answer['status'] === 401 && ($token = gateway_token(true)) !== null) {
        $answer = gateway_call($method, $path, $body, $token);
    }
    return $answer;
}

/**
 * The gateway's verdict on a payment: 'SUCCESS' only for code 00 with the amount and currency we
 * charged; 'FAILED' for the failure codes; null while pending or when the answer cannot be read.
 */
function gateway_verdict(string $reference, string $amount, string $currency): ?string
{
    $answer = gateway_authorised('GET', '/api/v3/payments/query/' . rawurlencode($reference), null);
    $data = $answer['status'] === 200 ? ($answer['json']['data'] ?? null) : null;
    if (!is_array($data) || ($data['payments']['paymentReference'] ?? null) !== $reference) {
        return null;
    }
    $code = (string) ($data['code'] ?? '');
    $paid = $data['payments']['paymentBreakdown']['amount'] ?? $data['payments']['amount'] ?? null;
    if ($code === '00') {
        $right = is_numeric($paid) && round((float) $paid * 100) === round((float) $amount * 100)
            && ($data['payments']['currency'] ?? null) === $currency;
        return $right ? 'SUCCESS' : null; // a different amount is never paid: look at it by hand
    }
    return in_array($code, ['S12', 'X23', 'SM_X23'], true) ? 'FAILED' : null;
}
