// A widget on one origin whose session endpoint is on another that does not allow it: the browser
// blocks the request (the page sees only a TypeError), the customer gets the usual connection
// message, and the developer one console.warn per page naming allowedOrigins. A same-origin
// network failure is not a CORS problem and gives no such hint.
import { expect } from '@open-wc/testing';
import { button, fillTransfer, nextEvent, restoreAll, stubFetch, submitUntil, text, widget } from './helpers.js';

const CONNECTION_MESSAGE = 'We could not reach the payment service. Check your connection and try again.';

/** The test server under its other name: same port, another origin, no CORS headers. */
const otherOrigin = `http://${location.hostname === 'localhost' ? '127.0.0.1' : 'localhost'}:${location.port}`;

let warnings: unknown[][] = [];
const realWarn = console.warn;

describe('the CORS hint', () => {
  beforeEach(() => {
    warnings = [];
    console.warn = (...args: unknown[]) => void warnings.push(args);
  });
  afterEach(() => {
    console.warn = realWarn;
    restoreAll();
  });

  it('is not given for a same-origin network failure', async () => {
    stubFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    const el = await widget({ 'session-url': '/pay/session' });
    await fillTransfer(el);
    const { detail } = await submitUntil(el, 'pay-error');
    expect(detail.code).to.equal('network');
    expect(warnings).to.deep.equal([]);
  });

  it('is one console.warn naming allowedOrigins when the browser blocks a cross-origin session request, once per page', async () => {
    const el = await widget({ 'session-url': `${otherOrigin}/pay/session` });
    await fillTransfer(el);
    const { detail } = await submitUntil(el, 'pay-error');

    expect(detail.code).to.equal('network');
    expect(text(el)).to.contain(CONNECTION_MESSAGE);
    expect(warnings).to.have.length(1);
    const warning = String(warnings[0]![0]);
    expect(warning).to.contain('allowedOrigins');
    expect(warning).to.contain(otherOrigin);
    expect(warning).to.contain(location.origin);

    const again = nextEvent(el, 'pay-error');
    button(el, 'Try again')!.click();
    expect((await again).detail.code).to.equal('network');
    await el.updateComplete;
    expect(text(el)).to.contain(CONNECTION_MESSAGE);
    expect(warnings, 'once per page').to.have.length(1);
  });
});
