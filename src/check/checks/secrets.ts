// Secrets: no answer, header or error the back end sent during the whole run carries the secret
// key, the public key or a token; and the gateway's own error text does not reach the customer.
import type { Reply } from '../merchant.js';
import { newKey, ussdRequest } from '../requests.js';
import type { Check, CheckContext, CheckReport } from '../types.js';

/** Where a value may hide in text: as itself, URL-encoded, or in base64. */
function forms(value: string): string[] {
  return [value, encodeURIComponent(value), Buffer.from(value).toString('base64')];
}

function carries(reply: Reply, value: string): boolean {
  const headers = [...reply.headers].map(([name, text]) => `${name}: ${text}`).join('\n');
  return forms(value).some((form) => reply.text.includes(form) || headers.includes(form));
}

export const secretsCheck: Check = {
  name: 'secrets',
  title: 'secrets: no answer carries a key or a token; gateway errors stay on the server',
  async run(context, report) {
    await gatewayErrorStaysOnServer(context, report);
    for (const secret of context.gateway.secrets()) {
      const leak = context.merchant.transcript().find((reply) => carries(reply, secret.value));
      if (leak)
        report.fail(
          `an answer (HTTP ${leak.status}) carries ${secret.label}: keep keys and tokens out of answers, headers and error messages`,
        );
    }
  },
};

async function gatewayErrorStaysOnServer(context: CheckContext, report: CheckReport): Promise<void> {
  const internal = `Upstream fault ${crypto.randomUUID().slice(0, 8)} in processor node gw-3`;
  context.gateway.failNextInitiation(internal);
  const reply = await context.merchant.session(ussdRequest(), { key: newKey() });
  if (reply.text.includes(internal) || reply.text.includes(JSON.stringify(internal).slice(1, -1))) {
    report.fail(
      'the gateway\'s own error text reached the customer verbatim: answer with your own message ("The payment could not be started. Try again.")',
    );
  }
  if (reply.status >= 200 && reply.status < 300)
    report.fail(`a gateway error (HTTP 500) was answered HTTP ${reply.status}; answer 502 with retryable: true`);
}
