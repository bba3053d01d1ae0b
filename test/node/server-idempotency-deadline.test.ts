import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMemoryIdempotencyStore, type IdempotencyStore } from '../../src/server/internal.js';
import {
  deferred,
  delay,
  makeHandler,
  ORDER,
  post,
  postWithoutKey,
  readError,
  settled,
  turns,
  USSD_REQUEST,
} from './server-fixtures.js';

const KEY = { 'idempotency-key': 'attempt-deadline-01' };
const never = () => new Promise<never>(() => {});

/**
 * Each case would hang for ever without the deadline: the test's own time-out turns that into a
 * failure. Where the time matters, the clock is node:test's mock: the deadline passes exactly when
 * the test ticks it, and nothing else can run out of time on a loaded machine.
 */
describe('createSessionHandler: one deadline on the whole attempt', { timeout: 5_000 }, () => {
  it('answers 504 when the order resolver hangs, reports where, and frees the key for the retry', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const resolverHangs = deferred();
    let call = 0;
    const { handler, calls, events } = makeHandler({
      attemptTimeoutMs: 100,
      order: () => (++call === 1 ? (resolverHangs.resolve(), never()) : ORDER),
    });
    const answers = settled(Promise.all([handler(post(USSD_REQUEST, KEY)), handler(post(USSD_REQUEST, KEY))]));
    await resolverHangs.promise;
    await turns();
    assert.equal(answers.done, false, 'nothing is answered before the deadline');
    t.mock.timers.tick(100);
    const [first, duplicate] = await answers.promise;
    const error = await readError(first, 504, 'gateway_timeout');
    assert.match(error.message, /in time/);
    assert.equal(duplicate.status, 504, 'a duplicate waiting in this process gets the same answer');
    // Each request reports its own deadline; the first one's names the order resolver.
    const deadlines = events.filter((e) => e.type === 'internal-error' && e.where === 'deadline');
    assert.ok(
      deadlines.some((e) => e.type === 'internal-error' && /order resolver/.test(e.detail)),
      JSON.stringify(events),
    );

    // The clock stands still from here: the retry cannot run into its own deadline however slow the machine.
    assert.equal((await handler(post(USSD_REQUEST, KEY))).status, 200, 'the key is free again');
    assert.equal(calls.length, 1);
  });

  it('answers 504 when the token source hangs, and never calls the gateway afterwards', async () => {
    let release: (token: string) => void = () => {};
    const { handler, calls } = makeHandler({
      attemptTimeoutMs: 80,
      accessToken: () => new Promise<string>((resolve) => (release = resolve)),
    });
    await readError(await handler(post(USSD_REQUEST, KEY)), 504, 'gateway_timeout');
    release('sk_late_token_123456');
    await delay(20);
    assert.equal(calls.length, 0, 'a late token does not start a payment nobody is waiting for');
  });

  it('answers 504 when the store hangs, and when a request without a key hangs', async () => {
    const hung: IdempotencyStore = { get: never, set: never, claim: never, release: never };
    const stuck = makeHandler({ attemptTimeoutMs: 80, idempotency: hung });
    await readError(await stuck.handler(post(USSD_REQUEST, KEY)), 504, 'gateway_timeout');

    const keyless = makeHandler({ attemptTimeoutMs: 80, requireIdempotencyKey: false, order: never });
    await readError(await keyless.handler(postWithoutKey(USSD_REQUEST)), 504, 'gateway_timeout');
  });

  it('still answers with the instructions when the gateway answered and only storing them hangs', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const inner = createMemoryIdempotencyStore();
    const storing = deferred();
    const store: IdempotencyStore = {
      ...inner,
      set: (key, record, ttlMs) =>
        record.state === 'done' ? (storing.resolve(), never()) : inner.set(key, record, ttlMs),
    };
    const { handler, calls } = makeHandler({ attemptTimeoutMs: 100, idempotency: store });
    const answer = handler(post(USSD_REQUEST, KEY));
    await storing.promise;
    t.mock.timers.tick(100);
    const response = await answer;
    assert.equal(response.status, 200);
    assert.equal(calls.length, 1);
  });

  it('defaults to twice timeoutMs', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const resolverHangs = deferred();
    // The deadline is counted from the request's arrival in real time, so a loaded machine may take
    // some of it before the clock is ticked: 5 s of margin between 1.5 × and 2 × timeoutMs.
    const { handler } = makeHandler({ timeoutMs: 10_000, order: () => (resolverHangs.resolve(), never()) });
    const answer = settled(handler(post(USSD_REQUEST, KEY)));
    await resolverHangs.promise;
    t.mock.timers.tick(15_000);
    await turns();
    assert.equal(answer.done, false, 'still waiting after 1.5 × timeoutMs');
    t.mock.timers.tick(5_000);
    await readError(await answer.promise, 504, 'gateway_timeout');
  });
});
