<?php
// POST /pay/session: validate → claim the Idempotency-Key (flock) → replay, refuse, or record the
// payment PENDING before asking the gateway → initiate → keep the answer for the key's replays.
// The order (amount, currency, reference) is decided here, never by the page.
declare(strict_types=1);

cors('POST');
require_method('POST');

$key = $_SERVER['HTTP_IDEMPOTENCY_KEY'] ?? '';
if (!preg_match('/^[\x21-\x7e]{8,255}$/', $key)) {
    reply_error(400, 'idempotency_key_required', 'Please try again.', ['fields' => ['Idempotency-Key' => 'Send a random key per payment attempt (8 to 255 visible characters).']]);
}
$request = validated_request(read_json_object(16 * 1024));
$fingerprint = hash('sha256', json_encode($request));

$reply = with_lock($key, function (string $file) use ($key, $request, $fingerprint): array {
    $record = read_record($file);
    if ($record !== null && $record['fingerprint'] !== $fingerprint) {
        return [422, error_body('idempotency_key_reused', 'This payment attempt was sent with other details. Please start a new payment.', false)];
    }
    if ($record !== null && $record['state'] === 'done') {
        return $record['reply'];
    }
    // First attempt: the order and the payment are written before the gateway is asked, so a retry
    // after a time-out sends the same reference (retry: true) and can never start a second payment.
    $again = $record !== null;
    $order = $record['order'] ?? new_order($key);
    if (!$again) {
        write_record($file, ['state' => 'pending', 'fingerprint' => $fingerprint, 'order' => $order]);
        with_lock($order['paymentReference'], fn (string $paymentFile) => write_record($paymentFile, $order + ['state' => 'PENDING', 'paymentType' => $request['paymentType']]), true, 'payments');
    }
    [$status, $body, $final] = initiate($request, $order, $again);
    if ($final) {
        write_record($file, ['state' => 'done', 'fingerprint' => $fingerprint, 'order' => $order, 'reply' => [$status, $body]]);
    }
    return [$status, $body];
}, false, 'keys');

if ($reply === null) {
    reply_error(409, 'request_in_progress', 'This payment is already being started. Please wait a moment.', ['retryable' => true, 'headers' => ['Retry-After' => '1']]);
}
reply_json($reply[0], $reply[1]);

/** The widget's fields, checked; a 422 naming each wrong one otherwise. */
function validated_request(array $body): array
{
    $text = fn (string $name) => is_string($body[$name] ?? null) ? trim($body[$name]) : '';
    $request = ['paymentType' => $text('paymentType'), 'fullName' => $text('fullName'), 'email' => $text('email'), 'mobileNumber' => $text('mobileNumber')];
    $fields = [];
    if (!in_array($request['paymentType'], ['USSD', 'TRANSFER'], true)) {
        $fields['paymentType'] = 'Choose USSD or TRANSFER.';
    }
    if ($request['fullName'] === '' || strlen($request['fullName']) > 100) {
        $fields['fullName'] = 'Enter your full name.';
    }
    if (filter_var($request['email'], FILTER_VALIDATE_EMAIL) === false) {
        $fields['email'] = 'Enter a valid e-mail address.';
    }
    if (!preg_match('/^\+?[0-9]{7,15}$/', $request['mobileNumber'])) {
        $fields['mobileNumber'] = 'Enter a valid mobile number.';
    }
    if ($request['paymentType'] === 'USSD') {
        $request['bankCode'] = $text('bankCode');
        if (!preg_match('/^[0-9]{3,6}$/', $request['bankCode'])) {
            $fields['bankCode'] = 'Choose your bank.';
        }
    }
    if ($fields) {
        reply_error(422, 'validation', 'Please check the highlighted fields.', ['fields' => $fields]);
    }
    return $request;
}

/** What this shop charges: decided here. The reference comes from the key, so every retry names the same payment. */
function new_order(string $key): array
{
    return ['paymentReference' => 'php-' . substr(hash('sha256', $key), 0, 24), 'amount' => config('PAY_PRICE'), 'currency' => 'NGN', 'country' => 'NG'];
}

function error_body(string $code, string $message, bool $retryable): array
{
    return ['status' => 'ERROR', 'error' => ['code' => $code, 'message' => $message, 'retryable' => $retryable]];
}

/** [HTTP status, body, whether the answer is final for this key]. */
function initiate(array $request, array $order, bool $again): array
{
    $public = config('PAY_PUBLIC_ORIGIN');
    $answer = gateway_authorised('POST', '/api/v2/payments/initiates', $request + [
        'publicKey' => config('PAY_PUBLIC_KEY'),
        'amount' => $order['amount'],
        'currency' => $order['currency'],
        'country' => $order['country'],
        'paymentReference' => $order['paymentReference'],
        'callbackUrl' => "$public/pay/callback",
        'redirectUrl' => "$public/thank-you",
        'retry' => $again,
    ]);
    $fields = $request['paymentType'] === 'USSD'
        ? ['paymentReference', 'linkingReference', 'providerreference', 'ussdDailCode']
        : ['paymentReference', 'walletName', 'wallet', 'bankName', 'accountNumber'];
    $data = $answer['json']['data'] ?? null;
    $payments = is_array($data) && is_array($data['payments'] ?? null) ? array_intersect_key($data['payments'], array_flip($fields)) : [];
    if ($answer['status'] === 200 && count($payments) === count($fields)) {
        // The spec's fields only: whatever else the gateway said stays here.
        $envelope = ['status' => 'SUCCESS', 'data' => ['code' => $data['code'] ?? null, 'message' => $data['message'] ?? null, 'payments' => $payments]];
        $token = status_token($order['paymentReference'], time() + 86400);
        return [200, $envelope + ['order' => ['paymentReference' => $order['paymentReference'], 'amount' => $order['amount'], 'currency' => $order['currency'], 'statusToken' => $token]], true];
    }
    if ($answer['status'] === 402 || ($answer['status'] === 200 && in_array($answer['json']['status'] ?? '', ['FAILED', 'DECLINED'], true))) {
        return [402, error_body('payment_declined', 'The payment was declined. Please try another bank or method.', false), true];
    }
    // A time-out, a 5xx, a duplicate reference, an unreadable answer: not final. The retry sends the same reference.
    return [502, error_body('gateway_error', 'The payment could not be started. Please try again.', true), false];
}
