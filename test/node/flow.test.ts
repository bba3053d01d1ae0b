/**
 * The payment flow machine, without a DOM: every transition, every ignored event.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  initialState,
  paymentReferenceOf,
  transition,
  type FlowEvent,
  type FlowState,
  type PayFailure,
} from '../../src/element/flow.js';
import type { Order, SessionRequest, TransferInstructions, UssdInstructions } from '../../src/contract/schemas.js';
import { orderAt } from '../../src/element/countdown.js';

const request: SessionRequest = {
  paymentType: 'USSD',
  fullName: 'Ada Obi',
  email: 'ada@example.com',
  mobileNumber: '08012345678',
  bankCode: '058',
};
const ussd: UssdInstructions = {
  paymentType: 'USSD',
  paymentReference: 'ORD-1',
  ussdDialCode: '*737*000*4412#',
  linkingReference: 'LNK-1',
  providerReference: 'PRV-1',
};
const transfer: TransferInstructions = {
  paymentType: 'TRANSFER',
  paymentReference: 'ORD-2',
  accountNumber: '9900112233',
  bankName: 'Providus Bank',
  walletName: 'Acme / Ada',
  wallet: 'WAL-1',
};
/** What the server charges: the page asked for 5000 at most as a hint. */
const order: Order = { paymentReference: 'ORD-1', amount: '7250', currency: 'NGN', statusToken: 'st.1' };
const retryable: PayFailure = { code: 'network', message: undefined, retryable: true };
const final: PayFailure = { code: 'gateway', message: 'Limit exceeded', retryable: false };

const states: Record<FlowState['kind'], FlowState> = {
  form: initialState,
  submitting: { kind: 'submitting', request },
  ussd: { kind: 'ussd', request, instructions: ussd, order },
  transfer: { kind: 'transfer', request, instructions: transfer, order: undefined },
  complete: { kind: 'complete', request, instructions: ussd, order, status: 'SUCCESS', message: undefined },
  error: { kind: 'error', request, failure: retryable },
};

const events: Record<FlowEvent['type'], FlowEvent> = {
  submit: { type: 'submit', request },
  initiated: { type: 'initiated', instructions: ussd, order },
  failed: { type: 'failed', failure: retryable },
  retry: { type: 'retry' },
  edit: { type: 'edit' },
  completed: { type: 'completed', status: 'SUCCESS', message: 'Paid' },
  reset: { type: 'reset' },
  resumed: { type: 'resumed', state: { kind: 'ussd', request, instructions: ussd, order } },
  timed: { type: 'timed', order: { ...order, expiresAt: '2025-03-01T10:30:00.000Z', expiresInMs: 60_000 } },
};

/** The (state, event) pairs that move the flow; every other pair must be ignored. */
const moves: Record<FlowEvent['type'], FlowState['kind'][]> = {
  submit: ['form'],
  initiated: ['submitting'],
  failed: ['submitting'],
  retry: ['error'],
  edit: ['error'],
  completed: ['ussd', 'transfer'],
  reset: ['submitting', 'ussd', 'transfer', 'complete', 'error'],
  resumed: ['form'],
  timed: ['transfer'],
};

describe('flow', () => {
  it('starts at the form', () => {
    assert.deepEqual(initialState, { kind: 'form' });
  });

  it('goes form → submitting on submit, keeping the request', () => {
    assert.deepEqual(transition(states.form, events.submit), { kind: 'submitting', request });
  });

  it("goes submitting → ussd on a USSD initiation, keeping the request it was sent with and the server's order", () => {
    assert.deepEqual(transition(states.submitting, { type: 'initiated', instructions: ussd, order }), {
      kind: 'ussd',
      request,
      instructions: ussd,
      order,
    });
  });

  it('goes submitting → transfer on a TRANSFER initiation, keeping the request it was sent with', () => {
    assert.deepEqual(transition(states.submitting, { type: 'initiated', instructions: transfer, order: undefined }), {
      kind: 'transfer',
      request,
      instructions: transfer,
      order: undefined,
    });
  });

  it('goes submitting → error on a failure, keeping the request for a retry', () => {
    assert.deepEqual(transition(states.submitting, { type: 'failed', failure: final }), {
      kind: 'error',
      request,
      failure: final,
    });
  });

  it('goes error → submitting on retry when the failure is retryable, with the same request', () => {
    assert.deepEqual(transition(states.error, events.retry), { kind: 'submitting', request });
  });

  it('ignores retry when the failure is not retryable', () => {
    const state: FlowState = { kind: 'error', request, failure: final };
    assert.equal(transition(state, events.retry), state);
  });

  it('goes error → form on edit', () => {
    assert.deepEqual(transition(states.error, events.edit), { kind: 'form' });
    assert.deepEqual(transition({ kind: 'error', request, failure: final }, events.edit), { kind: 'form' });
  });

  for (const kind of ['ussd', 'transfer'] as const) {
    for (const status of ['SUCCESS', 'FAILED'] as const) {
      it(`goes ${kind} → complete on ${status}, keeping the request, the instructions, the order and the message`, () => {
        const state = states[kind] as Extract<FlowState, { kind: 'ussd' | 'transfer' }>;
        assert.deepEqual(transition(state, { type: 'completed', status, message: 'From the bank' }), {
          kind: 'complete',
          request,
          instructions: state.instructions,
          order: state.order,
          status,
          message: 'From the bank',
        });
      });
    }
  }

  for (const kind of moves.reset) {
    it(`goes ${kind} → form on reset`, () => {
      assert.deepEqual(transition(states[kind], events.reset), { kind: 'form' });
    });
  }

  describe('ignores an event that does not apply, returning the same state object', () => {
    for (const [type, event] of Object.entries(events) as [FlowEvent['type'], FlowEvent][]) {
      for (const [kind, state] of Object.entries(states) as [FlowState['kind'], FlowState][]) {
        if (moves[type].includes(kind)) continue;
        it(`${type} in ${kind}`, () => {
          assert.equal(transition(state, event), state);
        });
      }
    }
  });

  it('makes a double submit harmless: the second submit is ignored', () => {
    const once = transition(initialState, events.submit);
    assert.equal(transition(once, { type: 'submit', request: { ...request, fullName: 'Someone Else' } }), once);
  });

  it('returns a new state object for every move, never mutating the old one', () => {
    for (const [type, kinds] of Object.entries(moves) as [FlowEvent['type'], FlowState['kind'][]][]) {
      for (const kind of kinds) {
        const before = structuredClone(states[kind]);
        const after = transition(states[kind], events[type]);
        assert.notEqual(after, states[kind], `${type} in ${kind}`);
        assert.deepEqual(states[kind], before, `${type} in ${kind} left the old state alone`);
      }
    }
  });

  describe('paymentReferenceOf', () => {
    it('is the gateway’s reference once there are instructions', () => {
      assert.equal(paymentReferenceOf(states.ussd), 'ORD-1');
      assert.equal(paymentReferenceOf(states.transfer), 'ORD-2');
      assert.equal(paymentReferenceOf(states.complete), 'ORD-1');
    });

    it('is undefined before', () => {
      for (const kind of ['form', 'submitting', 'error'] as const) {
        assert.equal(paymentReferenceOf(states[kind]), undefined, kind);
      }
    });
  });

  it('goes form → the kept screen on resumed (issue 26), and nowhere else', () => {
    const kept: FlowState = { kind: 'transfer', request, instructions: transfer, order };
    assert.equal(transition(states.form, { type: 'resumed', state: kept }), kept);
    assert.equal(transition(states.ussd, { type: 'resumed', state: kept }), states.ussd);
  });

  it("takes a resumed transfer's order read again against the server's clock on timed", () => {
    const timed = transition(states.transfer, events.timed);
    assert.deepEqual(timed, { ...states.transfer, order: (events.timed as { order: Order }).order });
  });
});

describe('countdown.ts: orderAt', () => {
  it("reads a kept transfer account's time left against the server's now, never below 0", () => {
    const expiring = {
      paymentReference: 'ORD-2',
      amount: '7250',
      currency: 'NGN',
      expiresAt: '2025-03-01T10:30:00.000Z',
      expiresInMs: 1,
    };
    assert.equal(orderAt(expiring, '2025-03-01T10:12:30.000Z')?.expiresInMs, 17.5 * 60_000);
    assert.equal(orderAt(expiring, '2025-03-01T11:00:00.000Z')?.expiresInMs, 0);
    const noExpiry = { paymentReference: 'ORD-1', amount: '7250', currency: 'NGN' };
    assert.equal(orderAt(noExpiry, '2025-03-01T11:00:00.000Z'), noExpiry);
  });
});
