// CORS, when the widget's page is on another origin (`--origin`): the preflight and the answers
// carry that origin, and nothing for another one.
import { answered, type MerchantClient, type Reply } from '../merchant.js';
import { newKey, ussdRequest } from '../requests.js';
import { SkipCheck, type Check, type CheckReport } from '../types.js';

const OTHER_ORIGIN = 'https://not-your-shop.example';

function preflight(merchant: MerchantClient, origin: string): Promise<Reply> {
  return merchant.send(merchant.urls.sessionUrl, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type,idempotency-key',
    },
  });
}

const listed = (header: string | null, name: string) =>
  header !== null && header.split(',').some((item) => ['*', name].includes(item.trim().toLowerCase()));

function expectAllowed(reply: Reply, origin: string, what: string, report: CheckReport): boolean {
  const allowed = reply.headers.get('access-control-allow-origin');
  if (allowed === origin) return true;
  if (allowed === null)
    report.fail(
      `${what} from ${origin} got ${answered(reply)} with Access-Control-Allow-Origin absent: list ${origin} in the handlers' allowedOrigins`,
    );
  else
    report.fail(
      `${what} from ${origin} got ${answered(reply)} with Access-Control-Allow-Origin ${JSON.stringify(allowed)}; send exactly ${origin} (the handlers' allowedOrigins)`,
    );
  return false;
}

export const corsCheck: Check = {
  name: 'cors',
  title: "CORS: the page's origin is allowed, another is not",
  async run({ merchant, origin }, report) {
    if (!origin) throw new SkipCheck('no --origin');
    const allowed = await preflight(merchant, origin);
    if (expectAllowed(allowed, origin, 'the session preflight', report)) {
      if (allowed.status < 200 || allowed.status > 299)
        report.fail(`the session preflight got HTTP ${allowed.status}; answer 204`);
      const headers = allowed.headers.get('access-control-allow-headers');
      for (const name of ['content-type', 'idempotency-key']) {
        if (!listed(headers, name)) report.fail(`the session preflight's Access-Control-Allow-Headers lacks ${name}`);
      }
      if (!listed(allowed.headers.get('access-control-allow-methods'), 'post'))
        report.fail("the session preflight's Access-Control-Allow-Methods lacks POST");
    }
    const post = await merchant.session(ussdRequest(), { key: newKey(), headers: { origin } });
    expectAllowed(post, origin, 'the session POST', report);
    if (merchant.urls.statusUrl) {
      expectAllowed(
        await merchant.status({ paymentReference: 'unknown-reference' }, { origin }),
        origin,
        'the status GET',
        report,
      );
    }
    const other = (await preflight(merchant, OTHER_ORIGIN)).headers.get('access-control-allow-origin');
    if (other !== null && other !== 'null') {
      report.fail(
        `a preflight from ${OTHER_ORIGIN} got Access-Control-Allow-Origin ${other}: allow only your page's origin`,
      );
    }
  },
};
