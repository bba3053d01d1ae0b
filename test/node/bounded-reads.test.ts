// Issue 35, finding 8: every body the sandbox, the check and the gateway client read from outside
// is read within a limit. A 200 MB body, made chunk by chunk as it is sent and never held, gets a
// 413 (or is cut) while the process grows by less than RSS_BUDGET, and the rest is never pulled.
import assert from 'node:assert/strict';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { after, describe, it } from 'node:test';
import { createObservedSandbox } from '../../src/check/observed-sandbox.js';
import { runCheck } from '../../src/check/runner.js';
import { serveOnLoopback } from '../../src/check/serve.js';
import { createSandboxGateway, SANDBOX_ACCESS_TOKEN, type WebhookAttempt } from '../../src/sandbox/index.js';
import { createGateway } from '../../src/server/index.js';
import { startBackEnd } from './check-backends.js';
import { freePort, loopbackServers } from './loopback.js';

const HUGE = 200 * 1024 * 1024;
const CHUNK = 64 * 1024;
const RSS_BUDGET = 50 * 1024 * 1024;
const INITIATE = '/api/v2/payments/initiates';
const TOKEN = '/api/v2/encrypt/keys';
const JSON_HEADERS = { 'content-type': 'application/json', authorization: `Bearer ${SANDBOX_ACCESS_TOKEN}` };

/** `total` bytes of `x`, each 64 KiB chunk made when the reader asks for it; `pulled()` says how many were. */
function hugeStream(total = HUGE) {
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= total) return controller.close();
      pulled += CHUNK;
      controller.enqueue(new Uint8Array(CHUNK).fill(0x78));
    },
  });
  return { stream, pulled: () => pulled };
}

/** Runs `work` and gives its result with how far the process's RSS rose above where it started. */
async function peakRssGrowth<T>(work: () => Promise<T>): Promise<{ result: T; growth: number }> {
  (globalThis as { gc?: () => void }).gc?.();
  const start = process.memoryUsage().rss;
  let peak = start;
  const sample = () => void (peak = Math.max(peak, process.memoryUsage().rss));
  const sampler = setInterval(sample, 2);
  try {
    const result = await work();
    sample();
    return { result, growth: peak - start };
  } finally {
    clearInterval(sampler);
  }
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** POSTs a huge body over a socket with `node:http` (it hears an answer that comes before the upload ends). */
function uploadHuge(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string; sent: number }> {
  const source = hugeStream();
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: 'POST', headers });
    request.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (text: string) => (body += text));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body, sent: source.pulled() }));
      response.on('error', reject);
    });
    request.on('error', () => {}); // the server closes the connection on the rest of the upload
    const reader = source.stream.getReader();
    const write = async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done || request.destroyed) return void request.end();
        if (!request.write(value)) await drainedOrClosed(request);
        if (request.destroyed) return;
      }
    };
    write().catch(reject);
  });
}

function drainedOrClosed(request: ClientRequest): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      request.off('drain', done).off('close', done);
      resolve();
    };
    request.on('drain', done).on('close', done);
  });
}

describe("pay-widget check's sandbox server: a huge request body", () => {
  const gateway = createObservedSandbox({});
  let close: () => Promise<void> = async () => {};
  after(async () => {
    gateway.close();
    await close();
  });

  for (const path of [INITIATE, TOKEN]) {
    it(`answers 413 to 200 MB sent to ${path} without holding it`, { timeout: 60_000 }, async (t) => {
      const served = await serveOnLoopback(gateway.handle);
      close = served.close;
      const { result, growth } = await peakRssGrowth(() => uploadHuge(served.url + path, JSON_HEADERS));
      assert.equal(result.status, 413, result.body);
      assert.match(result.body, /larger than 100000 bytes/);
      t.diagnostic(`RSS rose ${mb(growth)}`);
      assert.ok(growth < RSS_BUDGET, `RSS rose ${mb(growth)}`);
      assert.ok(result.sent < HUGE / 4, `the client had to make ${mb(result.sent)} of it`);
      await served.close();
    });
  }
});

describe('the sandbox handler, called with a huge streamed body', () => {
  const handlers = {
    'the sandbox': createSandboxGateway(),
    "the check's observed sandbox": createObservedSandbox({}).handle,
  };
  for (const [name, handle] of Object.entries(handlers)) {
    for (const path of [INITIATE, TOKEN]) {
      it(`${name} answers 413 to 200 MB at ${path}, reading no more than the limit`, { timeout: 60_000 }, async (t) => {
        const source = hugeStream();
        const request = new Request(`http://127.0.0.1${path}`, {
          method: 'POST',
          headers: JSON_HEADERS,
          body: source.stream,
          duplex: 'half',
        } as RequestInit);
        const { result, growth } = await peakRssGrowth(async () => handle(request));
        assert.ok(result instanceof Response);
        assert.equal(result.status, 413);
        t.diagnostic(`RSS rose ${mb(growth)}`);
        assert.ok(growth < RSS_BUDGET, `RSS rose ${mb(growth)}`);
        assert.ok(source.pulled() < 1024 * 1024, `it pulled ${mb(source.pulled())} of the body`);
      });
    }
  }
});

/** A back end whose answers are given by `answer(n, ack)`; `'huge'` streams 200 MB as fast as it is read. */
async function backEnd(servers: ReturnType<typeof loopbackServers>, answer: (n: number) => 'huge' | 'ack') {
  let n = 0;
  const written: number[] = [];
  const url = await servers.listen((request, response) => {
    const ack = request.headers['x-expected-ack-reference'];
    request.resume();
    n += 1;
    if (answer(n) === 'ack')
      return void response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ ackReference: ack, status: 'received' }));
    response.writeHead(200, { 'content-type': 'application/json' });
    const index = written.push(0) - 1;
    const more = () => {
      while (written[index]! < HUGE && !response.destroyed) {
        written[index]! += CHUNK;
        if (!response.write(new Uint8Array(CHUNK).fill(0x78))) return void response.once('drain', more);
      }
      if (!response.destroyed) response.end();
    };
    more();
  });
  return { url, written };
}

describe("the sandbox's webhook sender, answered with a huge body", () => {
  const servers = loopbackServers();
  after(() => servers.close());

  it(
    'cuts the answer, counts it as not acknowledged and retries, with memory bounded',
    { timeout: 60_000 },
    async (t) => {
      const merchant = await backEnd(servers, (n) => (n === 1 ? 'huge' : 'ack'));
      const attempts: WebhookAttempt[] = [];
      const sandbox = createSandboxGateway({
        webhookUrl: `${merchant.url}/pay/webhook`,
        webhookRetryDelaysMs: [1],
        onWebhook: (attempt) => attempts.push(attempt),
      });
      const session = await sandbox(
        new Request(`http://127.0.0.1${INITIATE}`, {
          method: 'POST',
          headers: JSON_HEADERS,
          body: JSON.stringify(initiation('big-ack-1')),
        }),
      );
      assert.equal(session.status, 200);
      const { growth } = await peakRssGrowth(async () => {
        sandbox.setStatus('big-ack-1', 'SUCCESS');
        await sandbox.webhooksSettled();
      });
      sandbox.close();
      t.diagnostic(`RSS rose ${mb(growth)}`);
      assert.ok(growth < RSS_BUDGET, `RSS rose ${mb(growth)}`);
      assert.deepEqual(
        attempts.map(({ attempt, httpStatus, acknowledged, answerCut }) => ({
          attempt,
          httpStatus,
          acknowledged,
          answerCut,
        })),
        [
          { attempt: 1, httpStatus: 200, acknowledged: false, answerCut: true },
          { attempt: 2, httpStatus: 200, acknowledged: true, answerCut: undefined },
        ],
      );
      assert.ok(merchant.written[0]! < HUGE / 4, `the back end got to write ${mb(merchant.written[0]!)}`);
    },
  );
});

describe('pay-widget check against a back end that answers the notification endlessly', () => {
  const servers = loopbackServers();
  after(() => servers.close());

  it('fails webhook-real, saying the answer was over 64 KB, with memory bounded', { timeout: 60_000 }, async (t) => {
    const gatewayPort = await freePort();
    const urls = await startBackEnd(servers, `http://127.0.0.1:${gatewayPort}`, 'answers-webhooks-endlessly');
    const { result, growth } = await peakRssGrowth(() =>
      runCheck({ ...urls, gatewayPort, waitMs: 10_000, only: ['webhook-real'] }),
    );
    t.diagnostic(`RSS rose ${mb(growth)}`);
    assert.ok(growth < RSS_BUDGET, `RSS rose ${mb(growth)}`);
    const [webhookReal] = result.results;
    assert.equal(webhookReal?.status, 'fail');
    assert.match(
      webhookReal.problems.join('\n'),
      /the gateway's notification for a paid payment got HTTP 200 with an answer over 64 KB \(read no further\)/,
    );
  });
});

describe("the session handler's gateway client, answered with a huge body", () => {
  const servers = loopbackServers();
  after(() => servers.close());

  it(
    'reads no more than its limit of an initiation answer, and calls it unreadable',
    { timeout: 60_000 },
    async (t) => {
      const gatewayAnswers = await backEnd(servers, () => 'huge');
      const gateway = createGateway({
        baseUrl: gatewayAnswers.url,
        publicKey: 'pk_test',
        accessToken: 'token',
        timeoutMs: 15_000,
      });
      const { result, growth } = await peakRssGrowth(() =>
        gateway.initiate({ ...initiation('big-answer-1'), publicKey: 'pk_test' }),
      );
      assert.equal(result.kind, 'unreadable');
      t.diagnostic(`RSS rose ${mb(growth)}`);
      assert.ok(growth < RSS_BUDGET, `RSS rose ${mb(growth)}`);
      assert.ok(gatewayAnswers.written[0]! < HUGE / 4, `the gateway got to write ${mb(gatewayAnswers.written[0]!)}`);
    },
  );
});

function initiation(paymentReference: string) {
  return {
    publicKey: 'pk_sandbox_7b1e4d9a2c6f8e05',
    amount: '5000',
    fullName: 'Ada Obi',
    mobileNumber: '08031234567',
    email: 'ada@example.com',
    currency: 'NGN',
    country: 'NG',
    paymentReference,
    callbackUrl: 'https://shop.test/callback',
    redirectUrl: 'https://shop.test/done',
    paymentType: 'USSD' as const,
    bankCode: '058',
  };
}
