// The session endpoint's own answers (refusals, internal errors, replays), each reported to
// `onEvent` as it is made, each saying whether Try again can help (outcomes.ts).
import { errorName } from '../http/emitter.js';
import type { ErrorCode, FieldErrors, Reply } from '../http/reply.js';
import type { InternalWhere, SessionEvent } from './events.js';
import { GENERIC_FAILURE, sessionError } from './outcomes.js';

type RejectOptions = {
  fields?: FieldErrors;
  headers?: Record<string, string>;
  /** Overrides the code's usual status (an `OrderError` chooses its own 4xx). */
  status?: number;
};

/** The session endpoint's own answers, each reported to `onEvent` as it is made. */
export type SessionReplies = {
  /** A contract error for something the request or its order cannot have; a `rejected` event. */
  reject(code: ErrorCode, message: string, options?: RejectOptions): Reply;
  /** A 500 with a generic message; the error's name and message, redacted, go to `onEvent` only. */
  internal(where: InternalWhere, error: unknown): Reply;
  /** Reports an internal error that does not change the answer (a store failing after the payment). */
  report(where: InternalWhere, error: unknown): void;
  /**
   * A store (the idempotency store, the ledger) cannot be read or written, so nothing can be started
   * safely, and nothing was: 503 `server_busy` with `Retry-After`, the error to `onEvent`.
   */
  busy(where: InternalWhere, error: unknown): Reply;
  replayed(key: string, reply: Reply): Reply;
  keyReused(): Reply;
};

/** `redact` removes the secrets, and this request's customer details, from what `onEvent` sees. */
export function createSessionReplies(
  emit: (event: SessionEvent) => void,
  redact: (text: string) => string,
): SessionReplies {
  function report(where: InternalWhere, error: unknown): void {
    const name = errorName(error);
    // A token source's own error may quote the token before the redactor has ever seen it.
    const detail = where === 'token' || !(error instanceof Error) ? name : `${name}: ${error.message}`;
    emit({ type: 'internal-error', where, detail: redact(detail) });
  }

  function reject(code: ErrorCode, message: string, options: RejectOptions = {}): Reply {
    const reply = sessionError(code, message, { fields: options.fields, headers: options.headers });
    if (options.status !== undefined) reply.status = options.status;
    emit({ type: 'rejected', status: reply.status, code, ...(options.fields ? { fields: options.fields } : {}) });
    return reply;
  }

  return {
    reject,
    report,
    internal(where, error) {
      report(where, error);
      return sessionError('internal', GENERIC_FAILURE);
    },
    busy(where, error) {
      report(where, error);
      return reject('server_busy', 'Payments cannot be started right now. Please try again in a moment.', {
        headers: { 'retry-after': '5' },
      });
    },
    replayed(key, reply) {
      emit({ type: 'replayed', idempotencyKey: key, status: reply.status });
      return { status: reply.status, body: reply.body, headers: { 'idempotent-replayed': 'true' } };
    },
    keyReused() {
      return reject(
        'idempotency_key_reused',
        'This Idempotency-Key was already used with a different request. Use a new key for a new payment.',
      );
    },
  };
}
