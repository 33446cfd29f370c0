// The package's folder, from src/ (tsx), from .build/ (npm start) or from dist/ (installed): each
// sits one level below it, beside generated/.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
