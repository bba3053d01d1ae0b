<?php
// POST /pay/webhook: the gateway's notification. It is not signed, so it is only a hint: the
// reference is taken from it and the gateway is asked (settle.php). Answered 200 with the
// gateway's X-Expected-Ack-Reference once the gateway says paid or failed, 503 (deliver again
// later) while it says pending or cannot be asked, and for references we do not hold.
declare(strict_types=1);

require_method('POST');
$body = read_json_object(64 * 1024);
$items = $body['notificationItems'] ?? null;
$references = [];
foreach (is_array($items) ? $items : [] as $item) {
    $notice = is_array($item) ? ($item['notificationRequestItem'] ?? $item['NotificationRequestItem'] ?? null) : null;
    $data = is_array($notice) ? ($notice['data'] ?? null) : null;
    $reference = is_array($data) ? ($data['reference'] ?? $data['paymentReference'] ?? $data['externalReference'] ?? null) : null;
    if (!is_string($reference) || $reference === '' || strlen($reference) > 100) {
        reply_error(400, 'invalid_notification', 'Not a notification.');
    }
    $references[] = $reference;
}
if ($references === []) {
    reply_error(400, 'invalid_notification', 'Not a notification.');
}

// A reference we do not hold gets the same 503 as a pending payment, and costs no query.
foreach ($references as $reference) {
    $state = payment_record($reference) !== null ? settle($reference) : null;
    if ($state !== 'SUCCESS' && $state !== 'FAILED') {
        reply_error(503, 'not_yet', 'Not settled yet.', ['retryable' => true]);
    }
}
$ack = $_SERVER['HTTP_X_EXPECTED_ACK_REFERENCE'] ?? bin2hex(random_bytes(16));
reply_json(200, ['ackReference' => $ack, 'status' => 'received']);
