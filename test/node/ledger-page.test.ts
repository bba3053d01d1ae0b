// createLedgerPage (issue 37): the ledger for a person behind the shop's own login. Nothing is shown
// or done before `authorize` says yes; what needs a person is listed; a payment shows with its
// history, every value escaped; a resolve posted by the page itself is kept, one posted from
// another site is refused; the CSV export downloads.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createLedgerPage } from '../../src/server/index.js';
import { createMemoryPaymentStore } from '../../src/server/stores/memory.js';
import type { Payment } from '../../src/server/stores/types.js';

const PAGE = 'https://shop.example/admin/ledger';
const SIGNED_IN = 'session=staff';

async function ledgerWithPayments() {
  const payments = createMemoryPaymentStore();
  const base = { paymentType: 'USSD', currency: 'NGN', version: 1, updatedAt: 1, initiation: 'started' } as const;
  const entries: Payment[] = [
    {
      ...base,
      paymentReference: 'ORDER-PAID',
      amount: '5000.00',
      state: 'SUCCESS',
      createdAt: 1_000,
      fulfilledAt: 2_000,
    },
    {
      ...base,
      paymentReference: 'ORDER-SHORT',
      amount: '10000.00',
      state: 'PENDING',
      createdAt: 2_000,
      review: { reason: 'amount-mismatch', since: 3_000, amountReceived: '4000.00' },
      customer: { name: '<script>alert(1)</script>', phone: '08035550100' },
    },
  ];
  for (const entry of entries) await payments.insert(entry);
  await payments.appendHistory!('ORDER-SHORT', {
    at: 3_000,
    what: 'review',
    detail: 'amount-mismatch: 4000.00 NGN received',
  });
  const signedIn = (request: Request) => (request.headers.get('cookie') ?? '').split('; ').includes(SIGNED_IN);
  const page = createLedgerPage({ stores: { payments }, authorize: signedIn });
  const get = (search = '', cookie = SIGNED_IN) => page(new Request(`${PAGE}${search}`, { headers: { cookie } }));
  /** The CSRF cookie the page sets and the token its forms carry, as a browser opening a payment gets them. */
  const opened = async (reference: string) => {
    const response = await get(`?ref=${reference}`);
    const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0]!;
    const token = /name="csrf" value="([0-9a-f]{32})"/.exec(await response.text())?.[1] ?? '';
    return { cookie, token };
  };
  const post = (fields: Record<string, string>, origin: string, csrfCookie = '') =>
    page(
      new Request(PAGE, {
        method: 'POST',
        headers: {
          cookie: [SIGNED_IN, csrfCookie].filter(Boolean).join('; '),
          origin,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams(fields).toString(),
      }),
    );
  return { payments, get, post, opened };
}

describe('createLedgerPage', () => {
  it('shows nothing and does nothing before authorize lets the request in', async () => {
    const { get, payments } = await ledgerWithPayments();
    const refused = await get('?ref=ORDER-SHORT', 'session=someone-else');
    assert.equal(refused.status, 401);
    assert.ok(!(await refused.text()).includes('ORDER-SHORT'));
    assert.throws(() => createLedgerPage({ stores: { payments } } as never), /authorize/);
  });

  it('lists what needs a person, shows a payment with its history with every value escaped, under a strict CSP', async () => {
    const { get } = await ledgerWithPayments();
    const list = await get('?attention=1');
    assert.equal(list.status, 200);
    assert.match(list.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    const html = await list.text();
    assert.match(html, /<a href="\?attention=1">1 payment needs a person<\/a>/, 'the count on top');
    assert.match(html, /ORDER-SHORT/);
    assert.ok(!html.includes('ORDER-PAID'), 'a paid and fulfilled payment needs nobody');
    const shown = await (await get('?ref=ORDER-SHORT')).text();
    assert.match(shown, /review: amount-mismatch: 4000\.00 NGN received/);
    assert.ok(
      shown.includes('&lt;script&gt;alert(1)&lt;/script&gt;') && !shown.includes('<script>'),
      'the customer’s name is text',
    );
    assert.match(await (await get('?search=555 0100')).text(), /ORDER-SHORT/);
    assert.equal((await get('?since=2026-02-30')).status, 400);
    assert.equal((await get('?ref=NOPE')).status, 404);
  });

  it('keeps a resolve posted by the page itself, refuses one from another site, and exports CSV', async () => {
    const { payments, get, post, opened } = await ledgerWithPayments();
    const { cookie, token } = await opened('ORDER-SHORT');
    assert.match(cookie, /^pay-ledger-csrf=[0-9a-f]{32}$/);
    const forged = await post(
      { action: 'resolve', ref: 'ORDER-SHORT', note: 'refunded', csrf: token },
      'https://evil.example',
      cookie,
    );
    assert.equal(forged.status, 403);
    // Same origin, but without the form's token, or with one that is not the cookie's: refused too.
    assert.equal(
      (await post({ action: 'resolve', ref: 'ORDER-SHORT', note: 'refunded' }, 'https://shop.example', cookie)).status,
      403,
    );
    assert.equal(
      (await post({ action: 'resolve', ref: 'ORDER-SHORT', note: 'refunded', csrf: token }, 'https://shop.example'))
        .status,
      403,
    );
    const other = newTokenLike(token);
    assert.equal(
      (
        await post(
          { action: 'resolve', ref: 'ORDER-SHORT', note: 'refunded', csrf: other },
          'https://shop.example',
          cookie,
        )
      ).status,
      403,
    );
    assert.equal((await payments.get('ORDER-SHORT'))?.review?.reason, 'amount-mismatch', 'nothing changed');
    const resolved = await post(
      { action: 'resolve', ref: 'ORDER-SHORT', note: 'refunded ₦4,000', csrf: token },
      'https://shop.example',
      cookie,
    );
    assert.equal(resolved.status, 303);
    assert.match(resolved.headers.get('location') ?? '', /^\/admin\/ledger\?ref=ORDER-SHORT&done=/);
    assert.equal((await payments.get('ORDER-SHORT'))?.review, undefined);
    assert.ok(!(await (await get('?attention=1')).text()).includes('ORDER-SHORT'), 'it leaves the list');
    assert.match(await (await get('?ref=ORDER-SHORT')).text(), /resolved: refunded ₦4,000 \(by a person\)/);
    const retried = await post({ action: 'retry', ref: 'ORDER-PAID', csrf: token }, 'https://shop.example', cookie);
    assert.equal(retried.status, 400, 'a fulfilled payment owes no onPaid');
    const csv = await get('?format=csv');
    assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
    assert.equal((await csv.text()).split('\r\n').length, 3);
  });
});

/** A token of the same form as `token` but not it. */
function newTokenLike(token: string): string {
  return token.replace(/^./, (first) => (first === '0' ? '1' : '0'));
}
