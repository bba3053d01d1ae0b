/** Types for ensure-chromium.mjs, so TypeScript callers (the demo's end-to-end test) import it checked. */
export function findChromium(): string | undefined;
export function missingChromiumMessage(): string;
export function requireChromium(): string;
export function ensureChromium(options?: { log?: (line: string) => void }): string | undefined;
export const CHROMIUM_FLAGS: readonly string[];
