// Where the sandbox runs: production or not, from NODE_ENV, read without assuming Node. On workers
// `process` may not exist (not production, as there is no NODE_ENV to say so); under Deno without
// permission to read it (`--allow-env=PORT`) reading it throws: taken as production, the safe side,
// since the sandbox moves no money.

/** Why the sandbox must be allowed explicitly to start here, or undefined when it may start. */
export function productionRefusal(readNodeEnv: () => string | undefined = nodeEnvOfProcess): string | undefined {
  let nodeEnv: string | undefined;
  try {
    nodeEnv = readNodeEnv();
  } catch (error) {
    const why = error instanceof Error ? error.name : 'not allowed';
    return (
      `could not read NODE_ENV (${why}: e.g. Deno without --allow-env=NODE_ENV), so it is taken as production: refusing to start, ` +
      'as the sandbox moves no money. Allow reading NODE_ENV, or pass allowInProduction: true for a public demo.'
    );
  }
  if (nodeEnv !== 'production') return undefined;
  return (
    'refusing to start with NODE_ENV=production: the sandbox moves no money and answers every payment with made-up ' +
    'instructions. Use createGateway with your real keys in production, or pass allowInProduction: true for a public demo.'
  );
}

function nodeEnvOfProcess(): string | undefined {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.NODE_ENV;
}
