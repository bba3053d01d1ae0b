// Several processes, one SQLite file, as PM2's cluster mode or Node's `cluster` runs a shop on one
// machine: four merchant servers (test/node/crash/merchant-process.ts) take payments, settle the
// gateway's webhooks (each sent twice, each copy to any of the four), and sweep with their reconcilers
// at once for the payments whose webhooks were all lost (the four clocks moved past the first
// re-query together). Every paid payment reaches onPaid exactly once, none unpaid does, and onPaid
// never runs for one payment in two places at the same time.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createSandboxGateway } from '../../src/sandbox/index.js';
import { bundleMerchant, fileLines, merchantServer, pay, serve, storeEnv } from './crash/crash-run.js';
import { freePort } from './loopback.js';
import { delay } from './server-fixtures.js';

const PROCESSES = 4;
const PAYMENTS = 200;
const CUSTOMERS_AT_ONCE = 16;
const WEBHOOK_LOST = 0.3;
/** Past the reconciler's first re-query of a PENDING payment (a minute after its creation). */
const CLOCK_MOVED_MS = 3 * 60_000;

/** The references onPaid's work ran for, with how many times. */
function workRuns(lines: string[]): Map<string, number> {
  const runs = new Map<string, number>();
  for (const line of lines.filter((line) => line.startsWith('work ')))
    runs.set(line.slice(5), (runs.get(line.slice(5)) ?? 0) + 1);
  return runs;
}

/** The largest number of runs of onPaid for one reference open at once, from its `begin` and `work` lines in order. */
function mostAtOnce(lines: string[]): { reference: string; count: number } {
  const open = new Map<string, number>();
  let most = { reference: '', count: 0 };
  for (const line of lines) {
    const [kind, reference] = line.split(' ') as [string, string];
    const count = (open.get(reference) ?? 0) + (kind === 'begin' ? 1 : kind === 'work' ? -1 : 0);
    open.set(reference, count);
    if (count > most.count) most = { reference, count };
  }
  return most;
}

describe('four processes on one SQLite file', { timeout: 300_000 }, () => {
  it('take 200 payments with duplicate webhooks and concurrent sweeps: each paid one fulfilled once, never twice at once', async (t) => {
    const folder = await mkdtemp(join(tmpdir(), 'pay-widget-sqlite-processes-'));
    const fulfilments = join(folder, 'fulfilments.log');
    await writeFile(fulfilments, '');
    const ports = await Promise.all(Array.from({ length: PROCESSES }, () => freePort()));
    const origin = (port: number) => `http://127.0.0.1:${port}`;
    const anyProcess = () => origin(ports[Math.floor(Math.random() * PROCESSES)]!);

    const lost = new Set<string>();
    const sandbox = createSandboxGateway({
      webhookUrl: `${origin(ports[0]!)}/webhook`,
      duplicateWebhooks: true,
      webhookRetryDelaysMs: [300, 1_000],
      // Each notification (and its duplicate) to any one of the processes, as a load balancer sends it.
      fetch: async (input, init) => {
        const request = new Request(input, init);
        const body = (await request.clone().json()) as {
          notificationItems?: { notificationRequestItem?: { data?: { reference?: string } } }[];
        };
        if (lost.has(body.notificationItems?.[0]?.notificationRequestItem?.data?.reference ?? ''))
          throw new TypeError('fetch failed (webhook lost)');
        return fetch(new Request(`${anyProcess()}/webhook`, request));
      },
    });
    const gateway = await serve(async (request) => sandbox(request));
    const script = await bundleMerchant(folder);
    const servers = ports.map((port) =>
      merchantServer(
        {
          ...process.env,
          CRASH_PORT: String(port),
          CRASH_GATEWAY_URL: gateway.url,
          CRASH_FULFILMENTS: fulfilments,
          CRASH_KILLS: join(folder, 'kills.log'),
          CRASH_ONPAID_MS: '40',
          CRASH_SWEEP_MS: '150',
          // Longer than the clocks are moved: a lease taken before the move still holds after it.
          CRASH_LEASE_MS: String(10 * CLOCK_MOVED_MS),
          ...storeEnv({
            kind: 'sqlite',
            url: join(folder, 'ledger.db'),
            restart: async () => {},
            fulfilments: async () => [],
          }),
        },
        script,
      ),
    );
    try {
      await Promise.all(servers.map((server) => server.start({ faults: false })));
      const given = new Set<string>();
      let next = 0;
      const customer = async () => {
        while (next < PAYMENTS) {
          next += 1;
          const { references, lastAnswer } = await pay(anyProcess());
          assert.equal(references.size, 1, `one payment per customer (${lastAnswer})`);
          const reference = [...references][0]!;
          given.add(reference);
          if (Math.random() < WEBHOOK_LOST) lost.add(reference);
          sandbox.setStatus(reference, Math.random() < 0.8 ? 'SUCCESS' : 'FAILED');
        }
      };
      await Promise.all(Array.from({ length: CUSTOMERS_AT_ONCE }, customer));
      await sandbox.webhooksSettled();
      const paid = [...given].filter((reference) => sandbox.lookup(reference)?.status === 'SUCCESS');
      const leftToSweeps = paid.filter(
        (reference) => lost.has(reference) && !workRuns(fileLines(fulfilments)).has(reference),
      );
      // The four reconcilers, every 150 ms each, now find the payments whose webhooks were lost due at once.
      await Promise.all(ports.map((port) => fetch(`${origin(port)}/advance?ms=${CLOCK_MOVED_MS}`, { method: 'POST' })));
      const deadline = Date.now() + 60_000;
      while (paid.some((reference) => !workRuns(fileLines(fulfilments)).has(reference)) && Date.now() < deadline)
        await delay(200);

      const lines = fileLines(fulfilments);
      const runs = workRuns(lines);
      const most = mostAtOnce(lines);
      t.diagnostic(
        `${given.size} payments, ${paid.length} paid (${leftToSweeps.length} with every webhook lost, left to the sweeps), ` +
          `${runs.size} fulfilled, at most ${most.count} onPaid at once for one payment`,
      );

      assert.equal(given.size, PAYMENTS);
      assert.ok(paid.length >= 100, `enough paid to mean something (${paid.length})`);
      assert.ok(leftToSweeps.length >= 10, `enough left to the sweeps to mean something (${leftToSweeps.length})`);
      assert.deepEqual(
        paid.filter((reference) => runs.get(reference) !== 1),
        [],
        'every paid payment reached onPaid exactly once',
      );
      assert.deepEqual(
        [...runs.keys()].filter((reference) => !paid.includes(reference)),
        [],
        'no unpaid payment reached onPaid',
      );
      assert.equal(most.count, 1, `onPaid ran twice at once for ${most.reference}`);
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
      sandbox.close();
      await gateway.close();
      await rm(folder, { recursive: true, force: true });
    }
  });
});
