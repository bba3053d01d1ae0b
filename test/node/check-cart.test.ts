// `pay-widget check` against a cart shop (issue 34): its order refuses a request without the cart's
// cookie, reference and id, and the check names that refusal as the shop's order's, not as a
// sandbox setting; with --header, --reference and --body-extra every check passes, the cookie on
// every request the check sends but the CORS preflight; an order that charges every attempt under
// the page's one reference is explained; a header or body it cannot send is one line.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { checkCommand } from '../../src/cli/check-command.js';
import { PAGE_ORIGIN, startBackEnd, type CartShop } from './check-backends.js';
import { freePort, loopbackServers } from './loopback.js';

const servers = loopbackServers();
after(() => servers.close());

const CART: CartShop = { cookie: 'cart=abc', reference: 'order-42-v3', cartId: 'c-17' };

async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await checkCommand(args, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** The command against a new cart shop, with `page` (what the page's requests carry). */
async function checkCartShop(page: string[], cart: CartShop = CART) {
  const gatewayPort = await freePort();
  const shop = await startBackEnd(servers, `http://127.0.0.1:${gatewayPort}`, undefined, cart);
  const urls = [
    '--session-url',
    shop.sessionUrl,
    '--status-url',
    shop.statusUrl,
    '--webhook-url',
    shop.webhookUrl,
    '--origin',
    PAGE_ORIGIN,
  ];
  return { ...(await run([...urls, '--gateway-port', String(gatewayPort), ...page])), requests: shop.requests };
}

const FULL_PAGE = [
  '--header',
  'Cookie: theme=dark',
  '--header',
  'Cookie: cart=abc',
  '--reference',
  'order-42-v3',
  '--body-extra',
  '{"cartId":"c-17"}',
];

describe("pay-widget check: a cart shop's order", () => {
  it("names a refusal as the shop's order refusing the request, with --header and --reference, never as a sandbox setting", async () => {
    const withoutCart = [
      { page: [], message: 'Your cart is empty.' },
      {
        page: ['--header', 'Cookie: cart=abc', '--body-extra', '{"cartId":"c-17"}'],
        message: 'This page shows another cart: reload it.',
      },
      {
        page: ['--header', 'Cookie: cart=abc', '--reference', 'order-42-v3'],
        message: 'This page shows another cart: reload it.',
      },
    ];
    for (const { page, message } of withoutCart) {
      const result = await checkCartShop(page);
      assert.equal(result.code, 1, page.join(' '));
      const fails = result.out.split('\n').filter((line) => line.includes('FAIL'));
      assert.deepEqual(fails, [
        `FAIL the session endpoint answered HTTP 422 order_refused ("${message}") before asking the gateway: the shop's order refused the request ` +
          "(no cart: its cookie, reference or id missing?), not the sandbox: send what your page's requests carry with --header 'Cookie: …' " +
          "and --reference REF (the page's payment-reference) or --body-extra JSON",
        'pay-widget check: FAIL (0 passed, 1 failed, 0 skipped)',
      ]);
    }
  });

  it("passes every check with the page's cookie, reference and cart id; the cookie on every request but the preflight", async () => {
    const result = await checkCartShop(FULL_PAGE);
    assert.equal(result.code, 0, result.out);
    assert.match(result.out, /pay-widget check: ok \(16 passed, 0 failed, 0 skipped\)$/);
    const cookies = (method: string, path: string) =>
      result.requests.filter((seen) => seen.method === method && seen.path === path).map((seen) => seen.cookie);
    const both = 'theme=dark; cart=abc';
    for (const [method, path] of [
      ['POST', '/pay/session'],
      ['GET', '/pay/status'],
    ] as const) {
      assert.ok(cookies(method, path).length > 5, `${method} ${path} was sent`);
      assert.deepEqual(
        new Set(cookies(method, path)),
        new Set([both]),
        `every ${method} ${path} carries the page's cookies, as one header`,
      );
    }
    assert.deepEqual(
      new Set(cookies('OPTIONS', '/pay/session')),
      new Set([null]),
      'a preflight carries no cookie, as in a browser',
    );
    const notifications = cookies('POST', '/pay/webhook');
    // The sandbox's own two deliveries (webhook-real, webhook-duplicates) are the gateway's: no cookie.
    assert.equal(notifications.filter((cookie) => cookie === null).length, 2);
    assert.ok(notifications.every((cookie) => cookie === null || cookie === both));
    assert.ok(
      notifications.filter((cookie) => cookie === both).length >= 27,
      "the check's own notifications (forged, 20 duplicates, 6 malformed) carry it",
    );
  });

  it("explains a shop whose order charges every attempt under the page's reference: one payment, refused once it ended", async () => {
    const result = await checkCartShop(FULL_PAGE, { ...CART, chargesReference: true });
    assert.equal(result.code, 1);
    const valid = result.out.slice(result.out.indexOf('FAIL session-valid:')).split('\n').slice(0, 3);
    assert.match(
      valid[1]!,
      /^ {7}FAIL needs a working session endpoint: a valid TRANSFER request got HTTP 422 order_refused \("[^"]+"\): the shop's order refused it, not the sandbox, though it took the check's first request: an order that gives every attempt for one cart one paymentReference makes the check's attempts one payment, refused once it ended or was paid \(see --reference in pay-widget check --help\); or the cart changed midway$/,
    );
    assert.match(
      valid[2]!,
      /^ {7}note a new payment attempt \(a new Idempotency-Key\) was given payment order-42-v3, which an earlier attempt had started: your order gives every attempt for one cart one paymentReference/,
    );
  });
});

describe('pay-widget check: a header, reference or body it cannot send', () => {
  it('is refused with exit code 2 and one line saying why, without repeating the header value', async () => {
    for (const [option, value, reason] of [
      [
        '--header',
        'Cookie cart=secret-abc',
        /^--header must be 'Name: value' with a header name before the colon, like --header 'Cookie: cart=abc'$/,
      ],
      ['--header', 'Host: shop.example', /^--header Host is set by the check \(it comes from the URL\): leave it out$/],
      ['--header', 'content-length: 5', /^--header content-length is set by the check/],
      [
        '--header',
        'Idempotency-Key: k-1',
        /^--header Idempotency-Key is set by the check \(the check makes one per payment attempt/,
      ],
      ['--header', 'Content-Type: text/plain', /^--header Content-Type is set by the check/],
      ['--header', 'Cookie:  ', /^--header Cookie has no value: --header 'Cookie: value'$/],
      [
        '--header',
        'Cookie: cart=secret-abc\r\nX-Admin: 1',
        /^--header Cookie has a line break or another control character in its value$/,
      ],
      [
        '--body-extra',
        '[{"cartId":"c-17"}]',
        /^--body-extra must be a JSON object, like '\{"cartId":"abc"\}' \(got an array\)$/,
      ],
      [
        '--body-extra',
        'cartId=secret-abc',
        /^--body-extra must be a JSON object, like '\{"cartId":"abc"\}' \(it is not JSON\)$/,
      ],
      [
        '--body-extra',
        '{"cartId":"c-17","amount":"1.00"}',
        /^--body-extra names amount, which the check sets itself: give only your own fields$/,
      ],
      ['--body-extra', '{"paymentReference":"order-42"}', /use --reference for paymentReference/],
      [
        '--reference',
        '../admin',
        /^--reference must be a payment reference: 1 to 128 letters, digits and \. _ : \/ - \(got "\.\.\/admin"\)$/,
      ],
    ] as const) {
      const result = await run(['--session-url', 'http://127.0.0.1:9/pay/session', option, value]);
      assert.equal(result.code, 2, value);
      const [first, blank, usage] = result.err.split('\n');
      assert.match(first!.replace(/^pay-widget check: /, ''), reason, value);
      assert.equal(blank, '', `${value}: the reason is one line`);
      assert.match(usage!, /^Usage: pay-widget check --session-url URL/);
      assert.doesNotMatch(result.err, /secret-abc/, 'the value given is never printed');
    }
  });
});
