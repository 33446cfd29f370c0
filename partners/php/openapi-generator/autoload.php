<?php
// What Composer's autoloader would do, without Composer: Guzzle and its PSR-7 messages from the
// system's PHP packages (on Debian, php-guzzlehttp-guzzle installs /usr/share/php/GuzzleHttp/
// autoload.php, on PHP's include_path), and the generated client's namespace from client/lib/.
// The known values of the open enums (client/lib/KnownValues.php, written by the partner's
// template) are one file of small classes, Partner\Payments\KnownValues\<Model>: any of them
// loads that file (Composer: an `autoload.files` entry).
declare(strict_types=1);

require_once 'GuzzleHttp/autoload.php';

spl_autoload_register(function (string $class): void {
    $prefix = 'Partner\\Payments\\';
    if (!str_starts_with($class, $prefix)) {
        return;
    }
    if (str_starts_with($class, $prefix . 'KnownValues\\')) {
        require_once __DIR__ . '/client/lib/KnownValues.php';
        return;
    }
    $file = __DIR__ . '/client/lib/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
    if (is_file($file)) {
        require $file;
    }
});
