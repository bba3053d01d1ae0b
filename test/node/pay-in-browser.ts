// A customer paying on an example's page in headless Chromium: the element upgrades, the customer
// pays by USSD and sees the dial code, the page's pay-initiated listener shows the sandbox's button;
// after a reload (the customer back from the dialer) the same code shows and the page's pay-resumed
// listener shows the button again; pressing it reaches onPaid through the webhook, and the widget
// says the payment was received.
import assert from 'node:assert/strict';
import { launchChromium } from './consumer-app.js';
import type { StartedServer } from './started-server.js';

const paidLines = (output: string) => [...output.matchAll(/^paid (pw-\w+) 5000\.00 NGN$/gm)].map((match) => match[1]!);

/** Pays once on `server`'s page at `path`; returns the reference onPaid printed. */
export async function payInTheBrowser(
  server: Pick<StartedServer, 'origin' | 'output' | 'printed'>,
  path = '/',
): Promise<string> {
  const chromium = await launchChromium();
  try {
    const page = await chromium.browser.newPage();
    const errors: string[] = [];
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    await page.goto(`${server.origin}${path}`);
    const shown = async () =>
      page.$eval('pay-widget', (widget) => widget.shadowRoot?.textContent?.replace(/\s+/g, ' '));
    const explain = async (error: Error) => {
      throw new Error(
        `${error.message}; the widget shows: ${await shown()}; console errors: ${errors.join(' | ')}; the server printed:\n${server.output()}`,
      );
    };
    // `visible` looks on every frame: the default for pierce selectors misses changes inside a shadow root.
    await (await page.waitForSelector('pierce/input[name="paymentType"][value="USSD"]', { visible: true }))!.click();
    await page.type('pierce/#fullName', 'Ada Obi');
    await page.type('pierce/#email', 'ada@example.com');
    await page.type('pierce/#mobileNumber', '08012345678');
    await page.select('pierce/#bankCode', '058');
    await page.click('pierce/button[part~="submit"]');
    const dialCode = async () =>
      (await page.waitForSelector('pierce/[part~="dial-code"]', { visible: true }).catch(explain))!.evaluate(
        (element) => element.textContent ?? '',
      );
    const code = await dialCode();
    assert.match(code, /\*000\*058\*/);
    const paidButton = () => page.waitForSelector('xpath///button[text()="The customer paid"]', { visible: true });
    await paidButton();
    // The customer goes to the dialer and comes back to a reloaded tab: the same code, and the page's pay-resumed
    // listener shows the button again.
    await page.reload();
    assert.equal(await dialCode(), code);
    const paidBefore = paidLines(server.output()).length;
    await (await paidButton().catch(explain))!.click();
    // onPaid printed one more line than before: earlier payments on this server printed theirs.
    await server.printed(new RegExp(`(paid pw-\\w+ 5000\\.00 NGN[\\s\\S]*){${paidBefore + 1}}`));
    await page
      .waitForFunction(
        () => /Payment received/.test(document.querySelector('pay-widget')?.shadowRoot?.textContent ?? ''),
        { timeout: 30_000 },
      )
      .catch(explain);
    return paidLines(server.output()).at(-1)!;
  } finally {
    await chromium.close();
  }
}
