/** Types for ensure-php.mjs, so the TypeScript tests import it checked. */
export function findPhp(): string | undefined;
export function missingPhpMessage(): string;
export function ensurePhp(options?: { log?: (line: string) => void }): string | undefined;
