<?php
// GET /pay/status?paymentReference=…&statusToken=…: the token is checked first, and a missing,
// forged or expired one gets the same 404 as an unknown reference. A pending payment is asked
// about at the gateway (at most once per reference every 5 seconds).
declare(strict_types=1);

cors('GET');
require_method('GET');

$reference = is_string($_GET['paymentReference'] ?? null) ? $_GET['paymentReference'] : '';
$token = is_string($_GET['statusToken'] ?? null) ? $_GET['statusToken'] : '';
$payment = valid_status_token($reference, $token) ? payment_record($reference) : null;
if ($payment === null) {
    reply_error(404, 'not_found', 'We could not find this payment.');
}
$state = $payment['state'] === 'PENDING' ? (settle($reference) ?? 'PENDING') : $payment['state'];
reply_json(200, ['status' => $state, 'amount' => $payment['amount'], 'currency' => $payment['currency']]);
