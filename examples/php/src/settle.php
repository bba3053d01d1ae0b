<?php
// Settling a payment, shared by the webhook and the status endpoint: ask the gateway (at most once
// per reference every 5 seconds), and move the record PENDING → SUCCESS under its lock, so
// fulfilment runs once however many notifications and polls arrive together.
declare(strict_types=1);

const REQUERY_AFTER_SECONDS = 5;

/** The payment's state after asking the gateway when due: 'SUCCESS', 'FAILED', 'PENDING', or null when unknown here. */
function settle(string $reference): ?string
{
    return with_lock($reference, function (string $file) use ($reference): ?string {
        $payment = read_record($file);
        if ($payment === null || $payment['state'] !== 'PENDING') {
            return $payment['state'] ?? null;
        }
        if (time() - ($payment['checkedAt'] ?? 0) < REQUERY_AFTER_SECONDS) {
            return 'PENDING';
        }
        $payment['checkedAt'] = time();
        $verdict = gateway_verdict($reference, $payment['amount'], $payment['currency']);
        if ($verdict === 'SUCCESS') {
            on_paid($payment); // before the record says SUCCESS: a crash in between runs it again, never skips it
        }
        if ($verdict !== null) {
            $payment['state'] = $verdict;
        }
        write_record($file, $payment);
        return $payment['state'];
    }, true, 'payments');
}

/** The merchant's fulfilment: here, one line in data/paid.log. Runs once per payment, under its lock; make yours idempotent by reference. */
function on_paid(array $payment): void
{
    $line = json_encode(['paymentReference' => $payment['paymentReference'], 'amount' => $payment['amount'], 'currency' => $payment['currency'], 'at' => gmdate('c')]);
    file_put_contents(config('PAY_DATA_DIR') . '/paid.log', $line . "\n", FILE_APPEND | LOCK_EX);
}
