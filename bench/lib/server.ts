/**
 * The pages the browser figures load, the contenders' scripts, and an instant session endpoint, on
 * 127.0.0.1. Pages are cross-origin isolated so `performance.now()` has its fine (5 µs) resolution.
 *
 *   /first-render/<id>   the element, then the script inline: mark → script → form in the shadow root
 *   /page-load/<id>      the element, then <script src>: mark → fetch + script → form
 *                        (both make their first Intl.NumberFormat before the mark; see INTL_WARM_UP)
 *   /submit/<id>         the element, pre-filled, its script from /js/<id>.js
 *   /js/<file>           a file a script loads from beside itself (the script tag's second file)
 *   /submit/raw          a plain button whose click posts the same request with fetch + JSON.parse
 *   /clock/widget        the submit page of the script tag as a shop serves it (demo/server/http.ts): its files
 *                        at /pay-widget/, gzipped, `no-cache`, the page not cross-origin isolated; beside the
 *                        element, the raw fetch's button: the same page, the same endpoint, for either click
 *   /heap/<id>           the script only; the bench adds the elements
 *   POST /session        the gateway's USSD envelope, at once
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { Contender } from './build.js';

export const SESSION_PATH = '/session';

export const CUSTOMER = { fullName: 'Ada Obi', email: 'ada@example.ng', mobileNumber: '08030000000', bankCode: '058' };
export const AMOUNT = '1500';

/** The request the widget sends for CUSTOMER (the raw-fetch reference sends the same bytes). */
const SESSION_REQUEST = {
  paymentType: 'USSD',
  ...CUSTOMER,
  amount: AMOUNT,
  currency: 'NGN',
  country: 'NG',
};

const USSD_ENVELOPE = JSON.stringify({
  status: 'SUCCESS',
  data: {
    code: null,
    message: null,
    payments: {
      paymentReference: 'BENCH-1001',
      linkingReference: 'LNK-77881',
      providerreference: 'PRV-55210',
      ussdDailCode: '*737*000*4412#',
    },
  },
});

/**
 * Before any contender runs: the first shadow root attached gets a MutationObserver that marks
 * `bench:form` the moment a <form> is in it (a microtask after the render that put it there).
 */
const FORM_PROBE = `(() => {
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) {
    Element.prototype.attachShadow = attach;
    const root = attach.call(this, init);
    const observer = new MutationObserver(() => {
      if (!root.querySelector('form')) return;
      performance.mark('bench:form');
      observer.disconnect();
    });
    observer.observe(root, { childList: true, subtree: true });
    return root;
  };
})();`;

/**
 * Every contender shows the amount with Intl.NumberFormat, and the first one made in a fresh
 * renderer loads ICU's locale data: 30 to 200 ms on a loaded 2-core machine, more than everything
 * else in a first render together, and the same for all. It is made (and timed, as the measure
 * `bench:intl`) before the first-render mark, so the figures compare the elements' own work.
 */
const INTL_WARM_UP = `(() => {
  const start = performance.now();
  new Intl.NumberFormat('en-NG', { style: 'currency', currency: 'NGN' }).format(1500);
  performance.measure('bench:intl', { start, end: performance.now() });
})();`;

const attributes = (extra = '') => `session-url="${SESSION_PATH}" amount="${AMOUNT}"${extra}`;
const prefilled = ` full-name="${CUSTOMER.fullName}" email="${CUSTOMER.email}" mobile-number="${CUSTOMER.mobileNumber}"`;

const page = (body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>bench</title></head><body>${body}</body></html>`;

function firstRenderPage(contender: Contender): string {
  if (/<\/script/i.test(contender.code))
    throw new Error(`${contender.id}: the script contains "</script" and cannot be inlined`);
  return page(
    `<${contender.tag} ${attributes()}></${contender.tag}>` +
      `<script>${FORM_PROBE}${INTL_WARM_UP}performance.mark('bench:start')</script>` +
      `<script>${contender.code}\n;performance.mark('bench:script-end')</script>`,
  );
}

function pageLoadPage(contender: Contender): string {
  return page(
    `<${contender.tag} ${attributes()}></${contender.tag}>` +
      `<script>${FORM_PROBE}${INTL_WARM_UP}performance.mark('bench:start')</script>` +
      `<script src="/js/${contender.id}.js"></script>`,
  );
}

function submitPage(contender: Contender): string {
  return page(
    `<${contender.tag} ${attributes(prefilled)}></${contender.tag}><script src="/js/${contender.id}.js"></script>`,
  );
}

/** The raw fetch's button and its click: fetch, then JSON.parse, nothing else; marks `bench:raw-done`. */
const RAW_FETCH = `<button id="pay" type="button" style="min-height:44px">Pay</button><script>
const request = ${JSON.stringify(SESSION_REQUEST)};
const key = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
document.getElementById('pay').addEventListener('click', async () => {
  const response = await fetch('${SESSION_PATH}', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Idempotency-Key': key() },
    body: JSON.stringify(request),
    credentials: 'same-origin',
  });
  window.benchResult = JSON.parse(await response.text());
  performance.mark('bench:raw-done');
});
</script>`;

const RAW_SUBMIT_PAGE = page(RAW_FETCH);

/** Where the demo serves the script tag's files (demo/server/http.ts). */
export const DEMO_SCRIPT_FOLDER = '/pay-widget/';

/** The script tag's submit page as the demo serves it, with the raw fetch's button beside the element. */
function clockPage(contender: Contender): string {
  return page(
    `<${contender.tag} ${attributes(prefilled)}></${contender.tag}>${RAW_FETCH}` +
      `<script src="${DEMO_SCRIPT_FOLDER}pay-widget.iife.js"></script>`,
  );
}

export type BenchServer = { origin: string; sessionRequests: () => unknown[]; close: () => Promise<void> };

export async function startServer(contenders: Contender[]): Promise<BenchServer> {
  const byId = new Map(contenders.map((contender) => [contender.id, contender]));
  const beside = new Map(contenders.flatMap((contender) => Object.entries(contender.beside ?? {})));
  const sessionRequests: unknown[] = [];

  /** The script tag's files as demo/server/http.ts sends them: gzip -9 when the browser takes it, `no-cache`. */
  const gzipped = new Map<string, Buffer>();
  function sendAsTheDemo(request: IncomingMessage, response: ServerResponse, name: string, body: string) {
    const compress = /gzip/.test(String(request.headers['accept-encoding'] ?? ''));
    if (compress && !gzipped.has(name)) gzipped.set(name, gzipSync(body, { level: 9 }));
    const sent = compress ? gzipped.get(name)! : Buffer.from(body);
    response.writeHead(200, {
      'content-type': 'text/javascript; charset=utf-8',
      'content-length': sent.byteLength,
      'cache-control': 'no-cache',
      vary: 'accept-encoding',
      ...(compress ? { 'content-encoding': 'gzip' } : {}),
    });
    response.end(sent);
  }

  function send(response: ServerResponse, status: number, type: string, body: string) {
    response.writeHead(status, {
      'Content-Type': `${type}; charset=utf-8`,
      'Cache-Control': 'no-store',
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Embedder-Policy': 'require-corp',
    });
    response.end(body);
  }

  function route(request: IncomingMessage, response: ServerResponse, body: string) {
    const [, kind = '', id = ''] = (request.url ?? '').split('?')[0]!.split('/');
    if (request.method === 'POST' && `/${kind}` === SESSION_PATH) {
      sessionRequests.push(JSON.parse(body));
      return send(response, 200, 'application/json', USSD_ENVELOPE);
    }
    if (kind === 'submit' && id === 'raw') return send(response, 200, 'text/html', RAW_SUBMIT_PAGE);
    const scriptTag = byId.get('widget');
    if (`/${kind}/` === DEMO_SCRIPT_FOLDER && scriptTag) {
      const file = id === 'pay-widget.iife.js' ? scriptTag.code : scriptTag.beside?.[id];
      if (file !== undefined) return sendAsTheDemo(request, response, id, file);
    }
    if (kind === 'clock' && id === 'widget' && scriptTag) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
      return response.end(clockPage(scriptTag));
    }
    const besideFile = kind === 'js' ? beside.get(id) : undefined;
    if (besideFile !== undefined) return send(response, 200, 'text/javascript', besideFile);
    const contender = byId.get(id.replace(/\.js$/, ''));
    if (!contender) return send(response, 404, 'text/plain', 'not found');
    if (kind === 'js') return send(response, 200, 'text/javascript', contender.code);
    if (kind === 'first-render') return send(response, 200, 'text/html', firstRenderPage(contender));
    if (kind === 'page-load') return send(response, 200, 'text/html', pageLoadPage(contender));
    if (kind === 'submit') return send(response, 200, 'text/html', submitPage(contender));
    if (kind === 'heap')
      return send(response, 200, 'text/html', page(`<script src="/js/${contender.id}.js"></script>`));
    return send(response, 404, 'text/plain', 'not found');
  }

  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => route(request, response, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    sessionRequests: () => sessionRequests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
