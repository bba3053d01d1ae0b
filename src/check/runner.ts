// `pay-widget check`'s run: the sandbox gateway on a local port, the settings the merchant's back
// end must use, a wait until the back end reaches the sandbox, then every check in order.
import { SANDBOX_PUBLIC_KEY, SANDBOX_SECRET_KEY } from '../sandbox/index.js';
import { CHECKS } from './checks/index.js';
import { createMerchantClient, type MerchantUrls, type PageExtras } from './merchant.js';
import { createObservedSandbox } from './observed-sandbox.js';
import { serveOnLoopback } from './serve.js';
import { waitForBackEnd } from './setup.js';
import { SkipCheck, type Check, type CheckContext, type CheckResult } from './types.js';

export type CheckOptions = MerchantUrls & {
  origin?: string;
  /** `--header`: what the page's requests carry (a cart's cookie), sent on every request but the CORS preflight. */
  headers?: readonly (readonly [name: string, value: string])[];
  /** `--reference`: the page's `payment-reference`, sent as `paymentReference` in every session body. */
  reference?: string;
  /** `--body-extra`: fields merged into every session body (a `cartId`). */
  bodyExtra?: Record<string, unknown>;
  /** The sandbox's port; default 0, any free one. */
  gatewayPort?: number;
  /** How long to wait for the back end to reach the sandbox; default 120 s. */
  waitMs?: number;
  /** Each request's time limit; default 15 s. */
  timeoutMs?: number;
  /** Only these checks (by name); default all. */
  only?: readonly string[];
  /** Told the settings, the wait and each result as they come. */
  log?: (line: string) => void;
  onResult?: (result: CheckResult) => void;
};

/** The three settings, as the environment variables our examples read. */
export function settingsLines(baseUrl: string): string[] {
  return [`PAY_BASE_URL=${baseUrl}`, `PAY_PUBLIC_KEY=${SANDBOX_PUBLIC_KEY}`, `PAY_SECRET_KEY=${SANDBOX_SECRET_KEY}`];
}

export async function runCheck(options: CheckOptions): Promise<{ gatewayUrl: string; results: CheckResult[] }> {
  const log = options.log ?? (() => {});
  const gateway = createObservedSandbox(options.webhookUrl ? { webhookUrl: options.webhookUrl } : {});
  const served = await serveOnLoopback(gateway.handle, options.gatewayPort ?? 0);
  try {
    log(`The sandbox gateway listens at ${served.url}. Point your back end at it:`);
    for (const line of settingsLines(served.url)) log(`  ${line}`);
    const merchant = createMerchantClient(options, options.timeoutMs ?? 15_000, pageExtras(options));
    const problem = await waitForBackEnd(merchant, gateway, options.waitMs ?? 120_000, log);
    if (problem)
      return {
        gatewayUrl: served.url,
        results: [
          { name: 'setup', title: 'the back end reaches the sandbox', status: 'fail', problems: [problem], notes: [] },
        ],
      };
    const context: CheckContext = { merchant, gateway, origin: options.origin };
    const results: CheckResult[] = [];
    for (const check of CHECKS.filter((check) => !options.only || options.only.includes(check.name))) {
      const result = await runOne(check, context);
      results.push(result);
      options.onResult?.(result);
    }
    return { gatewayUrl: served.url, results };
  } finally {
    gateway.close();
    await served.close();
  }
}

function pageExtras({ headers, reference, bodyExtra }: CheckOptions): PageExtras {
  return {
    headers: headers ?? [],
    sessionFields: { ...(reference === undefined ? {} : { paymentReference: reference }), ...bodyExtra },
  };
}

async function runOne(check: Check, context: CheckContext): Promise<CheckResult> {
  const result: CheckResult = { name: check.name, title: check.title, status: 'ok', problems: [], notes: [] };
  try {
    await check.run(context, {
      fail: (text) => void result.problems.push(text),
      note: (text) => void result.notes.push(text),
    });
  } catch (error) {
    if (error instanceof SkipCheck) return { ...result, status: 'skip', notes: [error.message] };
    result.problems.push(`the check itself failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (result.problems.length) result.status = 'fail';
  return result;
}
