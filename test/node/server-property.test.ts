import fc from 'fast-check';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorBodySchema } from '../../src/contract/schemas.js';
import { makeHandler, newKey, postWithoutKey, TRANSFER_REQUEST, USSD_REQUEST } from './server-fixtures.js';

const RUNS = 10_000;

/** Values a careless or hostile client puts in a field. */
const anyValue = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 2 }),
);

/** Values a field takes, valid or not, or nothing (the field left out). */
const FIELD_VALUES = {
  paymentType: ['USSD', 'TRANSFER', 'ussd', 'CARD'],
  fullName: [USSD_REQUEST.fullName, 'A', '  Ngozi  Eze ', 'Ada\u202eObi'],
  email: [USSD_REQUEST.email, 'ADA@EXAMPLE.NG', 'ada@', '@x.ng'],
  mobileNumber: [USSD_REQUEST.mobileNumber, TRANSFER_REQUEST.mobileNumber, '123', '+234 (803) 000-0000'],
  bankCode: ['058', '044', '1', 'abc'],
  amount: ['1500', '1500.50', '0', '-1', '1e3', ''],
  currency: ['NGN', 'ngn', 'US'],
  country: ['NG', 'ng', 'NGA'],
  paymentReference: ['order-1', 'INV/2024/0042', 'a b', 'x'.repeat(200)],
} as const;

const mutation = fc.oneof(
  ...Object.entries(FIELD_VALUES).map(([name, values]) =>
    fc.tuple(
      fc.constant(name),
      fc.oneof({ weight: 3, arbitrary: fc.constantFrom<unknown>(...values) }, anyValue, fc.constant(undefined)),
    ),
  ),
);

/** A valid USSD or TRANSFER request with up to three fields changed, or JSON of any shape, or text that is not JSON. */
const body = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(
        fc.constantFrom<Record<string, unknown>>(USSD_REQUEST, TRANSFER_REQUEST),
        fc.array(mutation, { maxLength: 3 }),
      )
      .map(([base, changes]) => JSON.stringify({ ...base, ...Object.fromEntries(changes) })),
  },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
);

const key = fc.oneof(
  { weight: 4, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }).filter((text) => /^[\x20-\x7e]*$/.test(text)) },
);

describe('createSessionHandler: property', () => {
  it(`never answers 5xx to ${RUNS} generated bodies, never calls the gateway for a 4xx, and every error is in the contract's shape`, async () => {
    const { handler, calls } = makeHandler({ requireIdempotencyKey: true });
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(body, key, async (text, givenKey) => {
        const before = calls.length;
        const response = await handler(postWithoutKey(text, { 'idempotency-key': givenKey ?? newKey() }));
        const answer = await response.text();
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        assert.ok(response.status < 500, `HTTP ${response.status} for ${text}: ${answer}`);
        if (response.status >= 400) {
          assert.equal(calls.length, before, `a gateway call for a ${response.status}`);
          const parsed = errorBodySchema.safeParse(JSON.parse(answer));
          assert.ok(parsed.success, answer);
          assert.ok(parsed.data.error.message.length > 0);
        } else {
          assert.equal(response.status, 200);
          assert.equal(calls.length, before + 1);
        }
      }),
      { numRuns: RUNS },
    );
    // The generator reaches both sides: valid payments and refusals.
    assert.ok((statuses.get(200) ?? 0) > 100, JSON.stringify([...statuses]));
    assert.ok((statuses.get(400) ?? 0) > 1_000, JSON.stringify([...statuses]));
  });
});
