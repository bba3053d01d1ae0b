import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root. */
export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Downloads and build output of the bench; git-ignored. */
export const cacheDir = join(root, 'bench', '.cache');
