/**
 * Dialling on each kind of device (issues 18, 26). A computer cannot dial: it shows a QR code of the
 * `tel:` link under the code, which a phone's camera opens in its dialer (read back here from the
 * code's pixels), with a one-line instruction and no dial link. iOS's Phone app will not dial a link
 * holding `*` or `#`: "Copy code" comes first, with where to paste it, and there is no link. Android
 * dials the link, `#` written `%23`.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import decodeQR from '@paulmillr/qr/decode.js';
import { english as en } from '../strings.js';
import {
  emulateDevice,
  fillUssd,
  json,
  part,
  restoreAll,
  root,
  route,
  stubFetch,
  submitUntil,
  text,
  USSD_PAYMENTS,
  ussdEnvelope,
  widget,
  type PayWidget,
} from './helpers.js';

async function ussdResult(ussdDailCode = USSD_PAYMENTS.ussdDailCode): Promise<PayWidget> {
  stubFetch(route({ session: () => json(ussdEnvelope({ ...USSD_PAYMENTS, ussdDailCode })) }));
  const el = await widget();
  await fillUssd(el);
  await submitUntil(el, 'pay-initiated');
  return el;
}

/** The USSD screen's actions, in order, as [label, primary]. */
const actions = (el: PayWidget) =>
  [...part(el, 'result')!.querySelectorAll<HTMLElement>('button, a[href]')].map((action) => [
    action.textContent!.trim(),
    action.classList.contains('primary'),
  ]);
const dialLinks = (el: PayWidget) => root(el).querySelectorAll('a[href^="tel:"]');
const qr = (el: PayWidget) => root(el).querySelector<SVGSVGElement>('svg.qr');

/**
 * What a phone's camera reads in the QR code as the page draws it: the SVG rasterized at the size
 * it is shown, then decoded.
 */
async function scan(svg: SVGSVGElement): Promise<string> {
  const { width } = svg.getBoundingClientRect();
  const side = Math.round(width * devicePixelRatio);
  const image = new Image();
  image.src = URL.createObjectURL(new Blob([new XMLSerializer().serializeToString(svg)], { type: 'image/svg+xml' }));
  await image.decode();
  const canvas = Object.assign(document.createElement('canvas'), { width: side, height: side });
  const context = canvas.getContext('2d')!;
  context.drawImage(image, 0, 0, side, side);
  return decodeQR(context.getImageData(0, 0, side, side));
}

describe('<pay-widget> dialling', function () {
  this.timeout(30_000); // axe and a screenshot on a loaded machine
  afterEach(() => restoreAll());

  describe('on a computer', () => {
    for (const device of ['windows', 'mac'] as const) {
      it(`(${device}) shows a QR code of the tel: link, # written %23, under the code, says beside it to scan it, and has no dial link`, async () => {
        emulateDevice(device);
        const el = await ussdResult();
        await waitUntil(() => qr(el)?.querySelector('path'), 'the QR code is drawn');
        expect(await scan(qr(el)!)).to.equal('tel:*737*000*4412%23');
        expect(dialLinks(el)).to.have.length(0);
        expect(
          actions(el).some(([, primary]) => primary),
          'no primary action',
        ).to.equal(false);
        const code = part(el, 'dial-code')!.closest('.value')!.getBoundingClientRect();
        const image = qr(el)!.getBoundingClientRect();
        const instruction = [...root(el).querySelectorAll('p')]
          .find((p) => p.textContent === en.scanToDial)!
          .getBoundingClientRect();
        expect(image.top - code.bottom, 'right under the code').to.be.within(0, 16);
        expect(instruction.left, 'the instruction beside it').to.be.at.least(image.right);
        expect(instruction.top).to.be.below(image.bottom);
        await expect(el).to.be.accessible();
        const box = el.getBoundingClientRect();
        await executeServerCommand('screenshot', {
          name: `dialling-${device}`,
          clip: { x: box.x + scrollX, y: box.y + scrollY, width: box.width, height: box.height },
        });
      });
    }

    it('reads back a long dial code too', async () => {
      emulateDevice('windows');
      const el = await ussdResult('*894*000*1234567890#');
      await waitUntil(() => qr(el)?.querySelector('path'), 'the QR code is drawn');
      expect(await scan(qr(el)!)).to.equal('tel:*894*000*1234567890%23');
    });
  });

  for (const device of ['iphone', 'ipad'] as const) {
    it(`on ${device === 'iphone' ? 'an iPhone' : 'an iPad that presents itself as a Mac'}, makes "Copy code" the primary action, says to paste it in the Phone app, and has no dial link or QR code`, async () => {
      emulateDevice(device);
      const el = await ussdResult();
      expect(actions(el)[0]).to.deep.equal([en.copyDialCode, true]);
      expect(text(el)).to.contain(en.pasteInPhone);
      expect(dialLinks(el)).to.have.length(0);
      expect(text(el)).not.to.contain(en.dialNow);
      expect(qr(el)).to.equal(null);
      await expect(el).to.be.accessible();
    });
  }

  it('on Android, makes the tel: link, # written %23, the primary action, with no paste line and no QR code', async () => {
    emulateDevice('android');
    const el = await ussdResult();
    expect(actions(el).slice(0, 2)).to.deep.equal([
      [en.copyDialCode, false],
      [en.dialNow, true],
    ]);
    expect(dialLinks(el)[0]!.getAttribute('href')).to.equal('tel:*737*000*4412%23');
    expect(text(el)).not.to.contain(en.pasteInPhone);
    expect(text(el)).not.to.contain(en.scanToDial);
    expect(qr(el)).to.equal(null);
  });
});
