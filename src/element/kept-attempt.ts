// The attempt kept in `sessionStorage` once the gateway gave its instructions, so that a reload, a
// discarded tab or an app switch can show it again (resume.ts). Any script of the page's origin can
// write there, so what is kept holds nothing of the customer and nothing of how the payment ended
// (only `status-url` says that), and is read back as a session answer is read (client.ts): the
// idempotency key, the payment type and a USSD payment's bank, the session answer reduced to the
// gateway's instructions and the server's order (its status token asks the status), and when it was
// kept on the phone's clock. Kept for this tab only, and dropped with the attempt (reset(), a new
// payment), when unreadable, when kept in the future (planted, or the phone's clock set back since) or
// once long over. Storage that throws (blocked, private browsing, a full quota) keeps nothing and
// says nothing: the widget works as before, without resume. keepAttempt() is part of what runs after a submit;
// recallAttempt(), of the file that resumes (loading/entries/resume.ts).
import { readSessionAnswer, type Initiated } from './client.js';
import { timeLeftOf } from './countdown.js';
import type { KeptRequest, StateOf } from './flow.js';
import { forgetAttempt } from './forget-attempt.js';
import { LEAST_POLLING_MS } from './status-poller.js';
import { BANK_CODE, PAYMENT_TYPES } from '../contract/rules.js';
import type { Instructions, UssdInstructions } from '../contract/schemas.js';

/** A screen the attempt shows again: the gateway's instructions, waiting for the payment. */
export type KeptScreen = StateOf<'ussd' | 'transfer'>;

/**
 * An attempt read back: the session answer's instructions and order, the request (without the customer) and the key it
 * was made with.
 */
export type KeptAttempt = Initiated & { key: string; request: KeptRequest; keptAt: number };

/** The stored form. `v`: its version; a record of another (an older widget's, another script's) is dropped. */
type KeptRecord = { v: 2; key: string; request: KeptRequest; answer: unknown; keptAt: number };

/** An idempotency key as newIdempotencyKey() makes it. */
const KEY = /^[\da-f]{32}$/;

const MINUTE = 60_000;

/** Keeps the attempt `state` shows under `name`, made with the idempotency key `key`. */
export function keepAttempt(
  name: string,
  key: string,
  { request, instructions, order }: KeptScreen,
  keptAt = Date.now(),
): void {
  const { paymentType, ussdDialCode, providerReference, ...same } = instructions as Instructions &
    Partial<UssdInstructions>;
  const left = timeLeftOf(order);
  const record: KeptRecord = {
    v: 2,
    key,
    request: { paymentType, bankCode: (request as KeptRequest).bankCode },
    // The session answer, its `payments` under the gateway's names (spec 2.3, typos included); the time left as when
    // kept.
    answer: {
      status: 'SUCCESS',
      data: { payments: { ...same, ussdDailCode: ussdDialCode, providerreference: providerReference } },
      order: left === undefined ? order : { ...order, expiresInMs: left },
    },
    keptAt,
  };
  try {
    sessionStorage.setItem(name, JSON.stringify(record));
  } catch {
    // Blocked (reading sessionStorage throws), refused or full: nothing is kept, and a reload shows the form as before.
  }
}

/** The attempt kept under `name`, unless there is none; one that is unreadable, not as kept or long over is dropped. */
export function recallAttempt(name: string, now = Date.now()): KeptAttempt | undefined {
  let attempt: KeptAttempt | undefined;
  try {
    const text = sessionStorage.getItem(name);
    if (!text) return undefined;
    attempt = readKept(JSON.parse(text), now);
  } catch {
    // Not JSON, not a session answer (readSessionAnswer throws its failure), or storage refused: dropped below.
  }
  if (!attempt) forgetAttempt(name);
  return attempt;
}

/**
 * The record read with the rules it was kept by, and the session answer's; undefined (or a throw) when it breaks one.
 */
function readKept(kept: Partial<KeptRecord> | null, now: number): KeptAttempt | undefined {
  const { key, request, answer, keptAt } = kept ?? {};
  const age = now - keptAt!;
  const { paymentType, bankCode } = request ?? ({} as Partial<KeptRequest>);
  if (
    kept?.v !== 2 ||
    typeof key !== 'string' ||
    !KEY.test(key) ||
    !(age >= 0) ||
    !PAYMENT_TYPES.includes(paymentType!)
  )
    return undefined;
  if (bankCode !== undefined && !(typeof bankCode === 'string' && BANK_CODE.test(bankCode))) return undefined;
  const { instructions, order } = readSessionAnswer(answer, paymentType!);
  // Long over: past the least time its status is polled (a USSD code has no expiry) and 30 minutes
  // past its account's expiry. Without an expiry, `undefined + …` is NaN: never more.
  if (age >= LEAST_POLLING_MS && !(age < timeLeftOf(order)! + 30 * MINUTE)) return undefined;
  return {
    key,
    request: bankCode ? { paymentType: paymentType!, bankCode } : { paymentType: paymentType! },
    instructions,
    order,
    keptAt: keptAt!,
  };
}
