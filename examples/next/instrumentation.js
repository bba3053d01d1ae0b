// Runs once when the server starts (not during `next build`, which needs no keys): a server that
// could only take payments through the wrong gateway stops here, with one line saying why.
import { gatewayMode, sandboxExposed } from './lib/gateway-mode.js';

export function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs' || process.env.NEXT_PHASE === 'phase-production-build') return;
  const error = gatewayMode(process.env).error ?? sandboxExposed(process.env);
  if (!error) return;
  console.error(`pay-widget example: ${error}`);
  process.exit(1);
}
