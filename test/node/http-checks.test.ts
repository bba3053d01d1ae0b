// The request checks every endpoint shares (src/server/http/checks.ts): each names what is wrong in
// a problem the endpoint answers with, or passes the request on.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readJsonBody, requireJson, requireMethod } from '../../src/contract/request-checks.js';

const URL_ = 'https://shop.test/pay';

function trickle(chunks: string[], gapMs: number): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    async pull(controller) {
      const next = chunks.shift();
      if (next === undefined) return controller.close();
      await new Promise((resolve) => setTimeout(resolve, gapMs));
      controller.enqueue(encoder.encode(next));
    },
  });
}

describe('requireMethod', () => {
  it('passes an allowed method and answers another with 405 naming the allowed ones', () => {
    assert.equal(requireMethod(new Request(URL_, { method: 'POST' }), 'POST, OPTIONS'), undefined);
    assert.deepEqual(requireMethod(new Request(URL_, { method: 'PUT' }), 'POST, OPTIONS'), {
      code: 'method_not_allowed',
      message: 'Use POST.',
      reason: 'method',
      headers: { allow: 'POST, OPTIONS' },
    });
    assert.equal(requireMethod(new Request(URL_, { method: 'DELETE' }), 'GET, HEAD, OPTIONS')?.message, 'Use GET.');
  });
});

describe('requireJson', () => {
  it('passes application/json with parameters and in any case', () => {
    for (const type of ['application/json', 'Application/JSON; charset=utf-8']) {
      assert.equal(
        requireJson(new Request(URL_, { method: 'POST', headers: { 'content-type': type }, body: '{}' })),
        undefined,
      );
    }
  });

  it('refuses what a cross-site form can send without a preflight, and a missing type', () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', undefined]) {
      const request = new Request(URL_, { method: 'POST', headers: type ? { 'content-type': type } : {}, body: '{}' });
      const problem = requireJson(request, 'the notification');
      assert.equal(problem?.code, 'unsupported_media_type', String(type));
      assert.equal(problem?.message, 'Send the notification as application/json.');
    }
  });
});

describe('readJsonBody', () => {
  const post = (body: BodyInit, headers: Record<string, string> = {}) =>
    new Request(URL_, { method: 'POST', body, headers, duplex: 'half' } as RequestInit);

  it('gives any JSON value back', async () => {
    assert.deepEqual(await readJsonBody(post('{"a":[1,2]}'), { maxBytes: 100 }), { ok: true, json: { a: [1, 2] } });
    assert.deepEqual(await readJsonBody(post('null'), { maxBytes: 100 }), { ok: true, json: null });
  });

  it('names text that is not JSON, and bytes that are not UTF-8', async () => {
    const notJson = await readJsonBody(post('{"a":'), { maxBytes: 100 });
    assert.deepEqual(notJson, {
      ok: false,
      problem: { code: 'invalid_json', message: 'The body is not valid JSON.', reason: 'malformed' },
    });
    const notText = await readJsonBody(post(new Uint8Array([0x7b, 0xff, 0x7d])), { maxBytes: 100 });
    assert.equal(!notText.ok && notText.problem.reason, 'unreadable');
  });

  it('refuses a body over the limit, declared or counted as it arrives', async () => {
    const declared = await readJsonBody(post('{}', { 'content-length': '5000' }), { maxBytes: 100 });
    assert.equal(!declared.ok && declared.problem.code, 'payload_too_large');
    const counted = await readJsonBody(post(trickle(['{"a":"', 'x'.repeat(80), 'x'.repeat(80), '"}'], 1)), {
      maxBytes: 100,
      what: 'The notification body',
    });
    assert.ok(!counted.ok);
    assert.equal(counted.problem.code, 'payload_too_large');
    assert.equal(counted.problem.message, 'The notification body is larger than 100 bytes.');
  });

  it('abandons a body still trickling in after its time', async () => {
    const slow = await readJsonBody(post(trickle(['{', '"a"', ':', '1', '}'], 40)), { maxBytes: 100, timeoutMs: 50 });
    assert.equal(!slow.ok && slow.problem.code, 'request_timeout');
    assert.equal(!slow.ok && slow.problem.reason, 'slow-body');
  });
});
