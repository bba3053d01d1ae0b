// The reconciler's schedule in figures: for one payment started through the session handler on a
// SQLite ledger, its notification lost, the gateway queries made over ten days of sweeps (every
// minute on a moved clock), and when a late payment was found. `node --import tsx scripts/schedule-figures.ts`
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGateway, createReconciler, createSessionHandler } from '../src/server/internal.js';
import { createSqliteStores } from '../src/server/stores/sqlite/index.js';
import { BASE_URL, fakeGateway, PUBLIC_KEY, queryAnswer } from '../test/node/gateway-fixtures.js';
import {
  ORDER,
  post,
  transferEnvelope,
  TRANSFER_REQUEST,
  ussdEnvelope,
  USSD_REQUEST,
} from '../test/node/server-fixtures.js';
const T0 = 1_800_000_000_000;
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const folder = mkdtempSync(join(tmpdir(), 'pay-widget-schedule-'));

async function scenario(name: string, request: object, days: string | undefined, paidAt?: number) {
  const clock = { time: T0 };
  const now = () => clock.time;
  const stores = createSqliteStores(join(folder, `${name.replace(/\W+/g, '-')}.db`), { now });
  let paid = false;
  const up = fakeGateway(async (r) => {
    if (r.path.endsWith('/initiates')) {
      const body = JSON.parse(r.body) as { paymentType: string; paymentReference: string };
      return Response.json(
        body.paymentType === 'USSD' ? ussdEnvelope(body.paymentReference) : transferEnvelope(body.paymentReference),
      );
    }
    return queryAnswer(paid ? '00' : 'S20', { amount: 2500 }, decodeURIComponent(r.path.split('/').pop()!));
  });
  const gateway = createGateway({ baseUrl: BASE_URL, publicKey: PUBLIC_KEY, accessToken: 't', fetch: up.fetch });
  const handler = createSessionHandler({
    gateway,
    payments: stores.payments,
    now,
    order: () => ORDER,
    ...(days ? { walletDaysActive: days } : {}),
  });
  let foundAt: number | undefined;
  const onPaid = () => void (foundAt ??= clock.time);
  const rec = createReconciler({
    gateway,
    payments: stores.payments,
    now,
    onPaid,
    sleep: async (ms) => void (clock.time += ms),
  });
  await handler(post(request));
  for (let t = T0 + MIN; t <= T0 + 10 * DAY; t += MIN) {
    clock.time = Math.max(clock.time, t);
    if (paidAt !== undefined && clock.time >= T0 + paidAt) paid = true;
    await rec.run();
  }
  const queries = up.seen.filter((r) => r.method === 'GET').length;
  const found =
    paidAt === undefined
      ? ''
      : foundAt === undefined
        ? '; never found'
        : `; found at ${((foundAt - T0) / HOUR).toFixed(1)} h`;
  console.log(`${name}: ${queries} queries over ten days${found}`);
  stores.close();
}
await scenario('TRANSFER walletDaysActive "3", paid at 30 h', TRANSFER_REQUEST, '3', 30 * HOUR);
await scenario('TRANSFER walletDaysActive "3", never paid', TRANSFER_REQUEST, '3');
await scenario('TRANSFER default "1", never paid', TRANSFER_REQUEST, undefined);
await scenario('TRANSFER default "1", paid at 24 h 30', TRANSFER_REQUEST, undefined, 24.5 * HOUR);
await scenario('USSD, never paid', USSD_REQUEST, undefined);
rmSync(folder, { recursive: true, force: true });
