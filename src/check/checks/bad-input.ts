// Bad input: a sample of malformed requests to each endpoint never gets a 5xx (a crash, a stack
// trace, a 500 the gateway or the widget would retry).
import { answered, type MerchantClient, type Reply } from '../merchant.js';
import { newKey } from '../requests.js';
import type { Check, CheckReport } from '../types.js';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

/** Malformed session bodies: not JSON, not an object, wrong types, oversized, deeply nested. */
const SESSION_BODIES: readonly { what: string; raw: string; contentType?: string }[] = [
  { what: 'truncated JSON', raw: '{"paymentType": "USSD", "fullName": ' },
  { what: 'an empty body', raw: '' },
  { what: 'a JSON array', raw: '[]' },
  { what: 'JSON null', raw: 'null' },
  { what: 'a JSON string', raw: '"USSD"' },
  {
    what: 'fields of the wrong types',
    raw: '{"paymentType":1,"fullName":{},"email":[],"mobileNumber":true,"bankCode":null,"amount":{"$gt":0}}',
  },
  { what: 'a 200 KB field', raw: JSON.stringify({ paymentType: 'USSD', fullName: 'A'.repeat(200_000) }) },
  { what: 'JSON nested 5,000 deep', raw: nested(5_000) },
  { what: 'text/plain', raw: '{"paymentType":"USSD"}', contentType: 'text/plain' },
];

const WEBHOOK_BODIES: readonly string[] = [
  '{"notificationItems": [',
  '',
  '[]',
  '{"notificationItems":"x"}',
  '{"notificationItems":[{"notificationRequestItem":{"data":{"reference":{"$ne":""}}}}]}',
  '{"notificationItems":[{"notificationRequestItem":null}]}',
];

const STATUS_QUERIES: readonly Record<string, string>[] = [
  {},
  { paymentReference: '' },
  { paymentReference: 'x'.repeat(5_000) },
  { paymentReference: '../../etc/passwd', statusToken: '' },
];

function expectNo5xx(reply: Reply, what: string, report: CheckReport): void {
  if (reply.status >= 500) report.fail(`${what} got ${answered(reply)}: answer malformed input with a 4xx`);
}

export const badInputCheck: Check = {
  name: 'bad-input',
  title: 'bad input: malformed requests never get a 5xx',
  async run({ merchant }, report) {
    for (const { what, raw, contentType } of SESSION_BODIES) {
      const reply = await merchant.session(undefined, { key: newKey(), raw, ...(contentType ? { contentType } : {}) });
      expectNo5xx(reply, `a session request with ${what}`, report);
    }
    await webhookAndStatus(merchant, report);
  },
};

async function webhookAndStatus(merchant: MerchantClient, report: CheckReport): Promise<void> {
  if (merchant.urls.webhookUrl) {
    for (const body of WEBHOOK_BODIES)
      expectNo5xx(
        await merchant.webhook(body, `bad-${newKey()}`),
        `a notification ${JSON.stringify(body.slice(0, 40))}`,
        report,
      );
  }
  if (merchant.urls.statusUrl) {
    for (const query of STATUS_QUERIES)
      expectNo5xx(await merchant.status(query), `a status request with ${JSON.stringify(query).slice(0, 60)}`, report);
  }
}
