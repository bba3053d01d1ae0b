import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { runCheck } from '../../src/check/runner.js';
import type { CheckResult } from '../../src/check/types.js';
import { PAGE_ORIGIN, startBackEnd, type Breakage } from './check-backends.js';
import { freePort, loopbackServers } from './loopback.js';

const servers = loopbackServers();
after(() => servers.close());

async function check(breakage?: Breakage): Promise<CheckResult[]> {
  const gatewayPort = await freePort();
  const urls = await startBackEnd(servers, `http://127.0.0.1:${gatewayPort}`, breakage);
  const { results } = await runCheck({ ...urls, origin: PAGE_ORIGIN, gatewayPort, waitMs: 10_000 });
  return results;
}

const failed = (results: CheckResult[]) => results.filter((result) => result.status === 'fail');

describe('pay-widget check', () => {
  it("passes every check against the package's own handlers", async () => {
    const results = await check();
    assert.deepEqual(failed(results), []);
    assert.equal(results.filter((result) => result.status === 'ok').length, results.length);
  });
});

/** Each broken back end, the one check it must fail, and what that check says to fix. */
const BROKEN: readonly { breakage: Breakage; check: string; says: RegExp }[] = [
  {
    breakage: 'forgets-unfinished-attempts',
    check: 'session-timeout-retry',
    says: /the retry after a gateway time-out got HTTP 503 .*initiate the same paymentReference again with retry: true/,
  },
  {
    breakage: 'trusts-page-amount',
    check: 'amount',
    says: /page sent amount: "1\.00" and the gateway was asked to charge 1\.00/,
  },
  {
    breakage: 'non-atomic-claims',
    check: 'session-concurrent',
    says: /made 2 initiation requests: claim the key atomically/,
  },
  { breakage: 'webhook-trusts-body', check: 'webhook-forged', says: /forged "paid" notification .* was believed/ },
  {
    breakage: 'status-without-token',
    check: 'status-no-token',
    says: /without a statusToken, an existing reference got HTTP 200 and an unknown one HTTP 404/,
  },
  { breakage: 'leaks-key-in-error', check: 'secrets', says: /carries the secret key/ },
  {
    breakage: 'no-cors',
    check: 'cors',
    says: /session preflight from https:\/\/shop\.example got HTTP 403 with Access-Control-Allow-Origin absent: list https:\/\/shop\.example in the handlers' allowedOrigins/,
  },
];

describe('pay-widget check against broken back ends', () => {
  for (const { breakage, check: name, says } of BROKEN) {
    it(`fails only ${name} when the back end ${breakage.replaceAll('-', ' ')}`, async () => {
      const results = failed(await check(breakage));
      assert.deepEqual(
        results.map((result) => result.name),
        [name],
      );
      assert.match(results[0]!.problems.join('\n'), says);
    });
  }
});
