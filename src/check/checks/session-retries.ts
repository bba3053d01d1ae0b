// The session contract under retries: concurrent duplicates of one key start one payment, and a
// retry after a gateway time-out names the payment the first attempt started.
import { answered, type MerchantClient, type Reply } from '../merchant.js';
import { errorText, type Order, type StartedPayment } from '../payment.js';
import { newKey, ussdRequest } from '../requests.js';
import type { Check, CheckReport } from '../types.js';
import { initiationsDuring } from './session.js';

const DUPLICATES = 10;

/** What a duplicate of a request still under way may answer: wait and try again. */
const BUSY = new Set([409, 425, 429, 503]);

export const sessionConcurrent: Check = {
  name: 'session-concurrent',
  title: `session: ${DUPLICATES} concurrent duplicates start one payment`,
  async run(context, report) {
    const key = newKey();
    const replies: Reply[] = [];
    const asked = await initiationsDuring(context, async () => {
      replies.push(
        ...(await Promise.all(
          Array.from({ length: DUPLICATES }, () => context.merchant.session(ussdRequest(), { key })),
        )),
      );
    });
    if (asked.length !== 1) {
      report.fail(
        `${DUPLICATES} concurrent requests with one Idempotency-Key made ${asked.length} initiation requests: claim the key atomically ` +
          '(INSERT with a unique key, SET NX, flock) before calling the gateway, and answer the others "in progress" (409)',
      );
    }
    const references = new Set(
      replies
        .filter((reply) => reply.status === 200)
        .map((reply) => (reply.json as { order?: Order })?.order?.paymentReference),
    );
    if (references.size > 1) report.fail(`the duplicates were given ${references.size} different payments`);
    const odd = replies.find((reply) => reply.status !== 200 && !BUSY.has(reply.status));
    if (odd)
      report.fail(
        `a duplicate got ${answered(odd)}${errorText(odd)}; answer it 409 (in progress, retryable) or the first answer`,
      );
  },
};

export const sessionTimeoutRetry: Check = {
  name: 'session-timeout-retry',
  title: 'session: a gateway time-out, then a retry, names the same payment',
  async run(context, report) {
    const key = newKey();
    context.gateway.dropNextInitiation();
    const first = await initiationsDuring(context, () => context.merchant.session(ussdRequest(), { key }));
    const dropped = first[0];
    if (!dropped)
      return report.fail('the first attempt never reached the gateway, so its time-out could not be rehearsed');
    let retried: StartedPayment | undefined;
    const retry = await initiationsDuring(
      context,
      async () => (retried = await retryOf(context.merchant, key, report)),
    );
    if (!retried) return;
    const reference = retried.order.paymentReference;
    if (reference !== dropped.paymentReference) {
      report.fail(
        `the retry started a second payment (${dropped.paymentReference}, then ${reference}): keep the paymentReference sent ` +
          'under an Idempotency-Key before calling the gateway, and send it again (with retry: true) on every retry of that key',
      );
    }
    const references = new Set([dropped, ...retry].map((initiation) => initiation.paymentReference));
    if (references.size > 1)
      report.fail(`the gateway was asked for ${references.size} payments for one Idempotency-Key`);
  },
};

/** The retry of a timed-out attempt, as the widget's Try again sends it: the same key and body. */
async function retryOf(
  merchant: MerchantClient,
  key: string,
  report: CheckReport,
): Promise<StartedPayment | undefined> {
  const reply = await merchant.session(ussdRequest(), { key });
  if (reply.status === 200) {
    const body = reply.json as { data?: { payments?: Record<string, unknown> }; order?: Order } | undefined;
    if (body?.order?.paymentReference) return { key, reply, order: body.order, payments: body.data?.payments ?? {} };
  }
  report.fail(
    `the retry after a gateway time-out got ${answered(reply)}${errorText(reply)}: initiate the same paymentReference again with ` +
      'retry: true (the gateway answers it with the same instructions), or query it, and answer 200 with the envelope and order',
  );
  return undefined;
}
