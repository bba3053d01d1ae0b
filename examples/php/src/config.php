<?php
// Settings, from the environment: the gateway (PAY_BASE_URL, PAY_PUBLIC_KEY, PAY_SECRET_KEY), the
// page's origin for CORS (PAY_ALLOWED_ORIGINS, comma-separated), the price (PAY_PRICE), where the
// shop is reached (PAY_PUBLIC_ORIGIN) and where files are kept (PAY_DATA_DIR).
declare(strict_types=1);

function config(string $name): string
{
    static $defaults = [
        'PAY_BASE_URL' => '',
        'PAY_PUBLIC_KEY' => '',
        'PAY_SECRET_KEY' => '',
        'PAY_ALLOWED_ORIGINS' => '',
        'PAY_PRICE' => '5000.00',
        'PAY_PUBLIC_ORIGIN' => 'http://127.0.0.1:8000',
    ];
    $value = getenv($name);
    if ($name === 'PAY_DATA_DIR') {
        return is_string($value) && $value !== '' ? $value : __DIR__ . '/../data';
    }
    if (is_string($value) && $value !== '') {
        return $value;
    }
    if (in_array($name, ['PAY_BASE_URL', 'PAY_PUBLIC_KEY', 'PAY_SECRET_KEY'], true)) {
        throw new RuntimeException("$name is not set");
    }
    return $defaults[$name];
}
