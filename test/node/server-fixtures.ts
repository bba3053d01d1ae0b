import assert from 'node:assert/strict';
import { errorBodySchema, type ErrorBody } from '../../src/contract/schemas.js';
import {
  createSessionHandler,
  type ResolvedOrder,
  type SessionEvent,
  type SessionHandlerOptions,
} from '../../src/server/internal.js';
import { createStatusTokens } from '../../src/server/status/tokens.js';

export const GATEWAY_URL = 'https://gateway.test';
export const INITIATE_URL = `${GATEWAY_URL}/api/v2/payments/initiates`;
export const TOKEN = 'sk_test_TOKEN_9f8e7d6c5b4a3921';
export const PUBLIC_KEY = 'pk_test_PUBLIC_1a2b3c4d5e6f7081';
export const SESSION_URL = 'https://shop.test/api/pay/session';

export const ORDER: ResolvedOrder = {
  amount: '2500.00',
  currency: 'NGN',
  country: 'NG',
  paymentReference: 'order-42',
  callbackUrl: 'https://shop.test/pay/callback',
  redirectUrl: 'https://shop.test/pay/done',
};

export const USSD_REQUEST = {
  paymentType: 'USSD',
  fullName: 'Ada Obi',
  email: 'ada@example.ng',
  mobileNumber: '+234 803 000 0000',
  bankCode: '058',
  amount: '1',
};

export const TRANSFER_REQUEST = {
  paymentType: 'TRANSFER',
  fullName: 'Ada Obi',
  email: 'ada@example.ng',
  mobileNumber: '08030000000',
  amount: '1',
};

export function ussdEnvelope(paymentReference: string) {
  return {
    status: 'SUCCESS',
    data: {
      code: null,
      message: null,
      payments: {
        paymentReference,
        linkingReference: 'LNK-1',
        providerreference: 'PRV-1',
        ussdDailCode: '*737*000*1234#',
      },
    },
  };
}

export function transferEnvelope(paymentReference: string) {
  return {
    status: 'SUCCESS',
    data: {
      code: '00',
      message: 'Account opened successfully',
      payments: {
        paymentReference,
        walletName: 'Shop / Ada Obi',
        wallet: '8000000001',
        bankName: 'Test Bank',
        accountNumber: '9000000001',
      },
    },
  };
}

export type UpstreamCall = { url: string; method: string; headers: Headers; body: Record<string, unknown> };
export type Responder = (call: UpstreamCall, signal: AbortSignal | undefined) => Response | Promise<Response>;

/** A spec-faithful happy gateway: answers each call with the envelope of its payment type. */
export const answerSuccess: Responder = (call) => {
  const reference = String(call.body.paymentReference);
  return Response.json(call.body.paymentType === 'USSD' ? ussdEnvelope(reference) : transferEnvelope(reference));
};

/** The happy gateway, 30 ms late: long enough for a duplicate request to arrive meanwhile. */
export const slowSuccess: Responder = async (call, signal) => {
  await delay(30, signal);
  return answerSuccess(call, signal);
};

/** A promise the test settles when it decides: a gate that code under test waits on. */
export type Deferred<T = void> = { promise: Promise<T>; resolve: (value: T) => void };
export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

/**
 * The happy gateway, answering only when the test says: `asked` settles when the first call
 * arrives, `answer()` lets every call through. However loaded the machine, a duplicate request is
 * still in flight while the first waits here. An abort (the handler's time-out) still ends a call.
 */
export function gatedGateway() {
  const asked = deferred();
  const open = deferred();
  const respond: Responder = async (call, signal) => {
    asked.resolve();
    await new Promise((resolve, reject) => {
      if (signal?.aborted) reject(signal.reason);
      signal?.addEventListener('abort', () => reject(signal.reason));
      void open.promise.then(resolve);
    });
    return answerSuccess(call, signal);
  };
  return { respond, asked: asked.promise, answer: () => open.resolve() };
}

/** `promise`, and whether it has settled yet. */
export function settled<T>(promise: Promise<T>): { promise: Promise<T>; done: boolean } {
  const state = { promise, done: false };
  void promise.finally(() => (state.done = true));
  return state;
}

/** Lets every promise that can settle without a timer or I/O settle (setImmediate is never mocked here). */
export async function turns(): Promise<void> {
  for (let i = 0; i < 10; i += 1) await new Promise((resolve) => setImmediate(resolve));
}

/** Handler options whose time limits no loaded machine reaches, for tests ordered by gates, not by time. */
export const PATIENT = { timeoutMs: 30_000 } as const;

/** A `fetch` stand-in that records every upstream call. */
export function recordingFetch(respond: Responder = answerSuccess) {
  const calls: UpstreamCall[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const call = { url: request.url, method: request.method, headers: request.headers, body: await request.json() };
    calls.push(call);
    return respond(call, init?.signal ?? undefined);
  }) as typeof globalThis.fetch;
  return { fetch, calls };
}

/**
 * A handler on a recording gateway. It lets a request without an `Idempotency-Key` through
 * (`requireIdempotencyKey: false`), for the tables that build raw requests to test something else;
 * {@link post} sends a key anyway, and the default (required) is tested on its own.
 */
export function makeHandler(options: Partial<SessionHandlerOptions> = {}, respond?: Responder) {
  const upstream = recordingFetch(respond);
  const events: SessionEvent[] = [];
  const handler = createSessionHandler({
    baseUrl: GATEWAY_URL,
    publicKey: PUBLIC_KEY,
    accessToken: TOKEN,
    order: () => ORDER,
    fetch: upstream.fetch,
    timeoutMs: 2_000,
    onEvent: (event) => void events.push(event),
    requireIdempotencyKey: false,
    ...options,
  });
  return { handler, calls: upstream.calls, events };
}

/** A widget-shaped POST: with a new `Idempotency-Key` per call, as the widget sends per attempt, unless `headers` has one. */
export function post(body: unknown, headers: Record<string, string> = {}): Request {
  return postWithoutKey(body, { 'idempotency-key': newKey(), ...headers });
}

/** A POST without an `Idempotency-Key`, as a server-to-server caller may send. */
export function postWithoutKey(body: unknown, headers: Record<string, string> = {}): Request {
  return new Request(SESSION_URL, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export function newKey(): string {
  return `key-${crypto.randomUUID()}`;
}

/** Asserts the contract's error shape and returns it. */
export async function readError(response: Response, status: number, code: string): Promise<ErrorBody['error']> {
  const text = await response.text();
  assert.equal(response.status, status, `expected HTTP ${status}, got ${response.status}: ${text}`);
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
  const body = errorBodySchema.parse(JSON.parse(text));
  assert.equal(body.error.code, code, text);
  assert.ok(body.error.message.length > 0);
  return body.error;
}

export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}

/** The secret both handlers share in the tests: 32 bytes, the least accepted. */
export const STATUS_SECRET = 'test-status-secret-0123456789abcdef';
const statusTokens = createStatusTokens(STATUS_SECRET, { who: 'test' });

/** The `statusToken` the session handler gives for `paymentReference` with {@link STATUS_SECRET}. */
export function statusTokenFor(paymentReference: string): Promise<string> {
  return statusTokens.sign(paymentReference);
}

/**
 * A status answer's body without its `now` (the server's clock, issue 26: server-time-left.test.ts),
 * which it checks is there, in ISO 8601 UTC, so that tests compare the rest exactly.
 */
export async function statusBody(response: Response): Promise<Record<string, unknown>> {
  const { now, ...rest } = (await response.json()) as Record<string, unknown>;
  assert.match(String(now), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, 'the answer says the server’s time');
  return rest;
}

/**
 * A session answer's body without `order.expiresInMs` (the TRANSFER account's time left, measured
 * as each answer leaves, so a replay's differs by the time between them: server-time-left.test.ts),
 * for comparing the rest of a replay exactly.
 */
export function withoutTimeLeft(text: string): string {
  const body = JSON.parse(text) as { order?: { expiresInMs?: number } };
  if (body.order) delete body.order.expiresInMs;
  return JSON.stringify(body);
}
