// The sandbox's `storage` option: its payments outlive the sandbox, so one started before a restart
// (the demo's) is known, paid and queried after it, with the same instructions.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  createSandboxGateway,
  SANDBOX_ACCESS_TOKEN,
  SANDBOX_PUBLIC_KEY,
  type SandboxPayment,
} from '../../src/sandbox/index.js';
import { createGateway } from '../../src/server/internal.js';

function gatewayOn(sandbox: ReturnType<typeof createSandboxGateway>) {
  return createGateway({
    baseUrl: 'https://sandbox.invalid',
    publicKey: SANDBOX_PUBLIC_KEY,
    accessToken: SANDBOX_ACCESS_TOKEN,
    fetch: sandbox.fetch,
  });
}

const BODY = {
  publicKey: SANDBOX_PUBLIC_KEY,
  amount: '2500.00',
  fullName: 'Ada Obi',
  mobileNumber: '08030000000',
  email: 'ada@example.ng',
  currency: 'NGN',
  country: 'NG',
  callbackUrl: 'https://shop.test/cb',
  redirectUrl: 'https://shop.test/done',
  paymentType: 'TRANSFER',
} as const;

describe('createSandboxGateway({ storage })', () => {
  it('loads the payments saved by the sandbox before it, and saves each change', async () => {
    let saved: string | undefined;
    const storage = {
      load: () => (saved === undefined ? undefined : (JSON.parse(saved) as SandboxPayment[])),
      save: (payments: readonly SandboxPayment[]) => void (saved = JSON.stringify(payments)),
    };
    const first = createSandboxGateway({ storage });
    const started = await gatewayOn(first).initiate({ ...BODY, paymentReference: 'kept-1' });
    assert.equal(started.kind, 'success');
    assert.equal(JSON.parse(saved!).length, 1, 'saved on initiation');

    const second = createSandboxGateway({ storage });
    assert.equal(second.lookup('kept-1')?.status, 'PENDING', 'known after the restart');
    assert.equal(second.setStatus('kept-1', 'SUCCESS'), true);
    const queried = await gatewayOn(second).query('kept-1');
    assert.equal(queried.kind === 'answer' && queried.state, 'SUCCESS');
    assert.equal(createSandboxGateway({ storage }).lookup('kept-1')?.status, 'SUCCESS', 'the settlement was saved too');

    const another = await gatewayOn(second).initiate({ ...BODY, paymentReference: 'kept-2' });
    const account = (outcome: Awaited<ReturnType<ReturnType<typeof gatewayOn>['initiate']>>) =>
      outcome.kind === 'success' ? JSON.stringify(outcome.envelope.data.payments) : '';
    assert.notEqual(account(another), account(started), 'new numbers after the restart');
  });
});
