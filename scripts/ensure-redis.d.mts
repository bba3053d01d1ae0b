/** Types for ensure-redis.mjs, so the TypeScript tests and the bench import it checked. */
export function findRedisServer(): string | undefined;
export function missingRedisMessage(): string;
export function ensureRedisServer(options?: { log?: (line: string) => void }): string | undefined;
