// The memory stores forget every payment when the process ends: fine for tests and the sandbox, a
// lost paid order with live keys. A handler made with them and a live gateway says so, once per process.
import { isMemoryStore } from './memory.js';

/** What the gateway's settings say of it. */
type GatewayLike = { readonly baseUrl?: string; readonly publicKey: string };

/** Hosts that never take real money: this machine, and the names reserved for tests and examples. */
const OFFLINE_HOST = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$|\.(localhost|test|invalid|example)$/i;

/**
 * Live keys on a real gateway: not the sandbox's keys nor the gateway's test keys (SeerBit's
 * `SBTESTPUBK_…`; the sandbox's `pk_sandbox_…`), and not a gateway on this machine or a test domain.
 */
export function isLiveGateway(gateway: GatewayLike): boolean {
  if (/test|sandbox/i.test(gateway.publicKey)) return false;
  if (gateway.baseUrl === undefined) return true;
  try {
    return !OFFLINE_HOST.test(new URL(gateway.baseUrl).hostname);
  } catch {
    return false;
  }
}

export const MEMORY_WITH_LIVE_KEYS =
  "pay-widget: the payments are kept in this process's memory (the memory stores) while the gateway's keys are live: " +
  'a restart or a crash forgets every pending payment, and a customer who paid may never reach onPaid. ' +
  "On one machine use createSqliteStores from 'pay-widget/server/sqlite' (a file, several processes may share it); " +
  "on several, createPostgresStores ('pay-widget/server/postgres') or createRedisStores ('pay-widget/server/redis', with persistence on).";

let warned = false;

/** Warns once per process when any of `stores` is a memory store and the gateway is live. */
export function warnIfMemoryWithLiveKeys(
  gateway: GatewayLike,
  stores: unknown[],
  warn: (message: string) => void = console.warn,
): void {
  if (warned || !stores.some(isMemoryStore) || !isLiveGateway(gateway)) return;
  warned = true;
  warn(MEMORY_WITH_LIVE_KEYS);
}
