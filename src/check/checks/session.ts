// The session contract, one request at a time: a valid request, invalid fields, the required
// `Idempotency-Key`, a replay, and a key reused with another body.
import { answered, type Reply } from '../merchant.js';
import { errorText, sessionAnswerProblems, startPayment } from '../payment.js';
import { INVALID_REQUESTS, newKey, transferRequest, ussdRequest } from '../requests.js';
import type { Check, CheckContext } from '../types.js';

/** The initiation requests the gateway receives while `step` runs. */
export async function initiationsDuring(context: CheckContext, step: () => Promise<unknown>) {
  const before = context.gateway.initiations().length;
  await step();
  return context.gateway.initiations().slice(before);
}

const is4xx = (status: number) => status >= 400 && status < 500;

export const sessionValid: Check = {
  name: 'session-valid',
  title: 'session: a valid request gets the spec envelope and order',
  async run(context, report) {
    for (const body of [ussdRequest(), transferRequest()]) {
      const started = await startPayment(context.merchant, report, body);
      if (!started) continue;
      const reference = started.order.paymentReference;
      const seen = context.gateway
        .initiations()
        .filter((initiation) => initiation.paymentReference === reference).length;
      if (!seen)
        report.fail(
          `the sandbox never saw payment ${reference}: point the back end's gateway base URL at the check's sandbox`,
        );
      // A new key's first request asks for a reference once; more means an earlier attempt had it.
      else if (seen > 1 && body.paymentType === 'USSD') report.note(sharedReference(reference));
    }
  },
};

const sharedReference = (reference: string) =>
  `a new payment attempt (a new Idempotency-Key) was given payment ${reference}, which an earlier attempt had started: your order ` +
  "gives every attempt for one cart one paymentReference, so the check's attempts are all that one payment (see --reference in pay-widget check --help)";

export const sessionInvalidFields: Check = {
  name: 'session-invalid-fields',
  title: 'session: invalid fields get a 4xx with fields, and the gateway is not called',
  async run(context, report) {
    for (const { what, body } of INVALID_REQUESTS) {
      let reply: Reply | undefined;
      const asked = await initiationsDuring(
        context,
        async () => (reply = await context.merchant.session(body, { key: newKey() })),
      );
      if (!reply) continue;
      const fields = (reply.json as { error?: { fields?: unknown } } | undefined)?.error?.fields;
      if (!is4xx(reply.status))
        report.fail(
          `${what}: got ${answered(reply)}; answer 4xx { status: "ERROR", error: { code, message, fields } }`,
        );
      else if (typeof fields !== 'object' || fields === null || Object.keys(fields).length === 0) {
        report.fail(
          `${what}: HTTP ${reply.status} without error.fields naming the field, so the widget cannot point at it`,
        );
      }
      if (asked.length) report.fail(`${what}: the gateway was asked anyway; validate before calling it`);
    }
  },
};

export const sessionKeyRequired: Check = {
  name: 'session-key-required',
  title: 'session: Idempotency-Key is required',
  async run(context, report) {
    let status = 0;
    const asked = await initiationsDuring(
      context,
      async () => ({ status } = await context.merchant.session(ussdRequest(), { key: null })),
    );
    if (!is4xx(status))
      report.fail(
        `a request without Idempotency-Key got ${status ? `HTTP ${status}` : 'no answer'}; refuse it with a 4xx, or a retry can start a second payment`,
      );
    if (asked.length) report.fail('a request without Idempotency-Key reached the gateway');
  },
};

export const sessionReplay: Check = {
  name: 'session-replay',
  title: 'session: the same key replayed gets the same answer, one initiation',
  async run(context, report) {
    const first = await startPayment(context.merchant, report);
    if (!first) return;
    let replay = first.reply;
    const asked = await initiationsDuring(
      context,
      async () => (replay = await context.merchant.session(ussdRequest(), { key: first.key })),
    );
    const problems = sessionAnswerProblems(replay, 'USSD');
    if (problems.length) return report.fail(`the replay of a key: ${problems[0]}; answer what the first request got`);
    const again = replay.json as { data: { payments: unknown }; order: { paymentReference: string } };
    if (again.order.paymentReference !== first.order.paymentReference) {
      report.fail(
        `the replay named payment ${again.order.paymentReference}, the first ${first.order.paymentReference}: a retry must name the same payment`,
      );
    } else if (JSON.stringify(again.data.payments) !== JSON.stringify(first.payments)) {
      report.fail(
        'the replay got other instructions (data.payments) than the first request: answer what you stored for the key',
      );
    }
    if (asked.length)
      report.fail(
        `the replay asked the gateway again (${asked.length} initiation request(s)): answer it from what you stored for the key`,
      );
  },
};

export const sessionOtherBody: Check = {
  name: 'session-other-body',
  title: 'session: the same key with another body is refused',
  async run(context, report) {
    const first = await startPayment(context.merchant, report);
    if (!first) return;
    let reply = first.reply;
    const other = ussdRequest({ email: 'someone.else@example.com', bankCode: '011' });
    const asked = await initiationsDuring(
      context,
      async () => (reply = await context.merchant.session(other, { key: first.key })),
    );
    if (!is4xx(reply.status)) {
      report.fail(
        `a key reused with another body got ${answered(reply)}${errorText(reply)}; refuse it with a 4xx (409 or 422): keep a fingerprint of the request with the key`,
      );
    }
    if (asked.length) report.fail('a key reused with another body reached the gateway');
  },
};
