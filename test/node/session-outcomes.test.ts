/**
 * `session/outcomes.ts` on its own: every gateway outcome and token failure, the reply the customer
 * gets (status, code, words, whether Try again can help) and what the Idempotency-Key keeps of it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TokenFailure } from '../../src/server/gateway/gateway.js';
import {
  checkReference,
  CUSTOMER_MESSAGES,
  GENERIC_FAILURE,
  NOT_SET_UP,
  replyForOutcome,
  replyForTokenFailure,
  type GatewayReply,
  type Keep,
  type SessionOutcome,
} from '../../src/server/session/outcomes.js';

const ORDER = { paymentReference: 'order-42', amount: '2500.00', currency: 'NGN' };
const keepAll = (text: string) => text;
const ENVELOPE = {
  status: 'SUCCESS',
  data: { code: null, message: null, payments: { paymentReference: 'order-42', ussdDailCode: '*737*000*1234#' } },
} as const;

type Row = { outcome: SessionOutcome; status: number; code: string; message: string; retryable: boolean; keep: Keep };

const ERRORS: Row[] = [
  {
    outcome: { kind: 'declined', httpStatus: 402, message: 'no' },
    status: 402,
    code: 'payment_declined',
    message: CUSTOMER_MESSAGES.declined,
    retryable: false,
    keep: 'done',
  },
  {
    outcome: { kind: 'http-error', httpStatus: 400, message: 'bad' },
    status: 502,
    code: 'gateway_error',
    message: CUSTOMER_MESSAGES.refused,
    retryable: false,
    keep: 'done',
  },
  {
    outcome: { kind: 'http-error', httpStatus: 401, message: undefined },
    status: 502,
    code: 'gateway_error',
    message: CUSTOMER_MESSAGES.unavailable,
    retryable: false,
    keep: 'release',
  },
  {
    outcome: { kind: 'http-error', httpStatus: 403, message: undefined },
    status: 502,
    code: 'gateway_error',
    message: CUSTOMER_MESSAGES.unavailable,
    retryable: false,
    keep: 'release',
  },
  {
    outcome: { kind: 'http-error', httpStatus: 404, message: undefined },
    status: 502,
    code: 'gateway_error',
    message: CUSTOMER_MESSAGES.unavailable,
    retryable: false,
    keep: 'release',
  },
  {
    outcome: { kind: 'http-error', httpStatus: 429, message: undefined },
    status: 502,
    code: 'gateway_error',
    message: CUSTOMER_MESSAGES.failing,
    retryable: true,
    keep: 'pending',
  },
  {
    outcome: { kind: 'http-error', httpStatus: 503, message: undefined },
    status: 502,
    code: 'gateway_error',
    message: CUSTOMER_MESSAGES.failing,
    retryable: true,
    keep: 'pending',
  },
  {
    outcome: { kind: 'duplicate-reference', httpStatus: 409, message: 'exists' },
    status: 422,
    code: 'duplicate_reference',
    message: CUSTOMER_MESSAGES.duplicate,
    retryable: false,
    keep: 'done',
  },
  {
    outcome: { kind: 'unconfirmed', httpStatus: 200, status: 'PENDING', message: undefined },
    status: 502,
    code: 'gateway_error',
    message: CUSTOMER_MESSAGES.unconfirmed,
    retryable: true,
    keep: 'pending',
  },
  {
    outcome: { kind: 'missing-fields', httpStatus: 200, message: undefined },
    status: 502,
    code: 'invalid_gateway_response',
    message: CUSTOMER_MESSAGES.incomplete,
    retryable: true,
    keep: 'pending',
  },
  {
    outcome: { kind: 'unreadable', httpStatus: 200 },
    status: 502,
    code: 'invalid_gateway_response',
    message: CUSTOMER_MESSAGES.unreadable,
    retryable: true,
    keep: 'pending',
  },
  {
    outcome: { kind: 'foreign-reference', httpStatus: 200, named: 'other-7' },
    status: 502,
    code: 'invalid_gateway_response',
    message: CUSTOMER_MESSAGES.foreign,
    retryable: true,
    keep: 'pending',
  },
  {
    outcome: { kind: 'timeout' },
    status: 504,
    code: 'gateway_timeout',
    message: CUSTOMER_MESSAGES.timeout,
    retryable: true,
    keep: 'pending',
  },
  {
    outcome: { kind: 'unreachable', reason: 'ECONNREFUSED' },
    status: 502,
    code: 'gateway_unreachable',
    message: CUSTOMER_MESSAGES.unreachable,
    retryable: true,
    keep: 'pending',
  },
];

type TokenRow = { failure: TokenFailure; status: number; code: string; message: string; retryable: boolean };

const TOKEN_FAILURES: TokenRow[] = [
  {
    failure: { kind: 'token-failed', reason: 'timeout' },
    status: 504,
    code: 'gateway_timeout',
    message: CUSTOMER_MESSAGES.timeout,
    retryable: true,
  },
  {
    failure: { kind: 'token-failed', reason: 'unreachable' },
    status: 502,
    code: 'gateway_unreachable',
    message: CUSTOMER_MESSAGES.unreachable,
    retryable: true,
  },
  {
    failure: { kind: 'token-failed', reason: 'source-failed' },
    status: 500,
    code: 'internal',
    message: GENERIC_FAILURE,
    retryable: true,
  },
  {
    failure: { kind: 'token-failed', reason: 'refused', httpStatus: 401 },
    status: 500,
    code: 'config',
    message: NOT_SET_UP,
    retryable: false,
  },
  {
    failure: { kind: 'token-failed', reason: 'unreadable' },
    status: 500,
    code: 'config',
    message: NOT_SET_UP,
    retryable: false,
  },
];

function errorOf(result: GatewayReply) {
  return {
    status: result.reply.status,
    ...(JSON.parse(result.reply.body) as { error: Record<string, unknown> }).error,
  };
}

describe('session outcomes: the gateway’s answer in the customer’s words', () => {
  it('answers a success with the envelope and the order, and keeps it as the final answer', () => {
    const result = replyForOutcome(
      { kind: 'success', httpStatus: 200, envelope: structuredClone(ENVELOPE) as never },
      keepAll,
      ORDER,
    );
    assert.equal(result.keep, 'done');
    assert.equal(result.reply.status, 200);
    assert.deepEqual(JSON.parse(result.reply.body), { ...ENVELOPE, order: ORDER });
  });

  for (const row of ERRORS) {
    const name = row.outcome.kind + ('httpStatus' in row.outcome ? ` ${row.outcome.httpStatus}` : '');
    it(`${name}: ${row.status} ${row.code}, retryable ${row.retryable}, keeps ${row.keep}`, () => {
      const result = replyForOutcome(row.outcome, keepAll, ORDER);
      assert.deepEqual(errorOf(result), {
        status: row.status,
        code: row.code,
        message: row.message,
        retryable: row.retryable,
      });
      assert.equal(result.keep, row.keep);
    });
  }

  it('reads instructions naming another paymentReference as foreign-reference, and those naming this one as success', () => {
    const success = { kind: 'success', httpStatus: 200, envelope: structuredClone(ENVELOPE) as never } as const;
    assert.equal(checkReference(success, 'order-42'), success);
    assert.deepEqual(checkReference(success, 'order-43'), {
      kind: 'foreign-reference',
      httpStatus: 200,
      named: 'order-42',
    });
    const timeout = { kind: 'timeout' } as const;
    assert.equal(checkReference(timeout, 'order-43'), timeout);
  });

  it('never passes the gateway’s own text to the customer', () => {
    for (const row of ERRORS) {
      assert.doesNotMatch(replyForOutcome(row.outcome, keepAll, ORDER).reply.body, /"(no|bad|exists)"/);
    }
  });

  for (const row of TOKEN_FAILURES) {
    it(`no token (${row.failure.reason}): ${row.status} ${row.code}, keeps nothing`, () => {
      const result = replyForTokenFailure(row.failure);
      assert.deepEqual(errorOf(result), {
        status: row.status,
        code: row.code,
        message: row.message,
        retryable: row.retryable,
      });
      assert.equal(result.keep, 'release');
    });
  }
});
