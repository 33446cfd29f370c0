<?php
// What Composer's autoloader would do, without Composer (this machine's toolchain: Packagist is not
// reachable, so Guzzle comes from Debian's php-guzzlehttp-guzzle): Guzzle from PHP's include_path,
// and the generated client's namespace, the generator's default OpenAPI\Client, from client/lib/.
declare(strict_types=1);

require_once 'GuzzleHttp/autoload.php';

spl_autoload_register(function (string $class): void {
    $prefix = 'OpenAPI\\Client\\';
    if (!str_starts_with($class, $prefix)) {
        return;
    }
    $file = __DIR__ . '/client/lib/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
    if (is_file($file)) {
        require $file;
    }
});
