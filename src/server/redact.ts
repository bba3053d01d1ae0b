const REDACTED = '[redacted]';

/**
 * Removes secrets from text that leaves the handler (gateway messages, error names for `onEvent`).
 * Tokens may rotate, so every token seen is remembered.
 */
export type Redactor = { add(secret: string): void; text(value: string): string };

export function createRedactor(initial: readonly string[]): Redactor {
  const secrets = new Set(initial.filter((secret) => secret.length > 0));
  return {
    add(secret) {
      if (secret.length > 0) secrets.add(secret);
    },
    text(value) {
      let result = value;
      for (const secret of secrets) if (result.includes(secret)) result = result.split(secret).join(REDACTED);
      return result;
    },
  };
}
