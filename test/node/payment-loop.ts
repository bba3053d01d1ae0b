// The payment loop every server recipe must pass, driven over HTTP against a started server that prints `session from
// <address>` (beforeInitiate), `paid <reference> <amount> <currency>` (onPaid) and `webhook <event>` (or `event
// <event>`, createPayments' one onEvent): session → instructions, replay → the same answer, status → the server's
// amount, the sandbox's "customer paid" (/pay/simulate) → onPaid once through the webhook, and the caller's address
// given to beforeInitiate.
import assert from 'node:assert/strict';
import { statusBody, USSD_REQUEST } from './server-fixtures.js';
import type { StartedServer } from './started-server.js';

function session(server: StartedServer, key: string): Promise<Response> {
  return fetch(`${server.origin}/pay/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify(USSD_REQUEST),
  });
}

/** The payment loop against the recipe's server, and the address beforeInitiate was given. */
export async function paymentLoop(server: StartedServer): Promise<void> {
  const first = await session(server, 'recipe-000000001');
  const text = await first.text();
  assert.equal(first.status, 200, text);
  const body = JSON.parse(text) as {
    order: { paymentReference: string; amount: string; currency: string; statusToken: string };
  };
  assert.deepEqual([body.order.amount, body.order.currency], ['5000.00', 'NGN'], 'the server’s amount, not the page’s');
  assert.match(text, /\*000\*058\*/, 'USSD instructions');

  const replay = await session(server, 'recipe-000000001');
  assert.equal(replay.headers.get('idempotent-replayed'), 'true');
  assert.equal(await replay.text(), text, 'a replay gets the same answer');

  const reference = body.order.paymentReference;
  const statusUrl = `${server.origin}/pay/status?paymentReference=${encodeURIComponent(reference)}&statusToken=${encodeURIComponent(body.order.statusToken)}`;
  assert.deepEqual(await statusBody(await fetch(statusUrl)), { status: 'PENDING', amount: '5000.00', currency: 'NGN' });

  const paid = await fetch(`${server.origin}/pay/simulate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ paymentReference: reference }),
  });
  assert.equal(paid.status, 204);
  await server.printed(new RegExp(`(?:webhook|pay|event) \\{"type":"paid","paymentReference":"${reference}"`));
  await server.printed(new RegExp(`paid ${reference} 5000.00 NGN`));
  assert.deepEqual(await statusBody(await fetch(statusUrl)), { status: 'SUCCESS', amount: '5000.00', currency: 'NGN' });
  assert.equal(server.output().split(`paid ${reference} `).length - 1, 1, 'onPaid ran once');

  const addresses = [...server.output().matchAll(/^session from (.*)$/gm)].map((match) => match[1]);
  assert.ok(addresses.length >= 1, server.output());
  assert.deepEqual(new Set(addresses), new Set(['127.0.0.1']), 'beforeInitiate gets the caller’s address');
}
