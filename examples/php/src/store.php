<?php
// Files under PAY_DATA_DIR: one JSON record per Idempotency-Key and one per payment, each changed
// only while holding its lock (flock), which is what makes a claim atomic across PHP workers.
declare(strict_types=1);

function data_path(string $kind, string $name): string
{
    $dir = config('PAY_DATA_DIR') . "/$kind";
    if (!is_dir($dir)) {
        @mkdir($dir, 0700, true);
    }
    return "$dir/" . hash('sha256', $name);
}

/**
 * Runs $work($file) holding the exclusive lock of record $name. With $wait false, a lock another
 * request holds returns null at once instead of waiting.
 */
function with_lock(string $name, callable $work, bool $wait = true, string $kind = 'misc'): mixed
{
    $file = data_path($kind, $name);
    $lock = fopen("$file.lock", 'c');
    if ($lock === false) {
        throw new RuntimeException('cannot open a lock file');
    }
    try {
        if (!flock($lock, $wait ? LOCK_EX : LOCK_EX | LOCK_NB)) {
            return null;
        }
        return $work("$file.json");
    } finally {
        flock($lock, LOCK_UN);
        fclose($lock);
    }
}

function read_record(string $file): ?array
{
    if (!is_file($file)) {
        return null;
    }
    $record = json_decode((string) file_get_contents($file), true);
    return is_array($record) ? $record : null;
}

/** Writes whole or not at all: a new file renamed over the old one. */
function write_record(string $file, array $record): void
{
    $temporary = "$file." . bin2hex(random_bytes(4));
    file_put_contents($temporary, json_encode($record, JSON_UNESCAPED_SLASHES));
    rename($temporary, $file);
}

/** The payment's record, read without its lock (a status answer, never a decision). */
function payment_record(string $reference): ?array
{
    return read_record(data_path('payments', $reference) . '.json');
}
