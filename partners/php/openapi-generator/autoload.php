<?php
// What Composer's autoloader would do, without Composer: Guzzle and its PSR-7 messages from the
// system's PHP packages (on Debian, php-guzzlehttp-guzzle installs /usr/share/php/GuzzleHttp/
// autoload.php, on PHP's include_path), and the generated client's namespace from client/lib/.
declare(strict_types=1);

require_once 'GuzzleHttp/autoload.php';

spl_autoload_register(function (string $class): void {
    $prefix = 'Partner\\Payments\\';
    if (!str_starts_with($class, $prefix)) {
        return;
    }
    $file = __DIR__ . '/client/lib/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
    if (is_file($file)) {
        require $file;
    }
});
