/**
 * The Custom Elements Manifest that `npm run build` writes, which IDEs, Storybook and framework
 * type generators read: it must describe the public API DESIGN.md fixes. Run after the build.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

type Named = { name: string; type?: { text: string } };
type Declaration = Named & {
  tagName?: string;
  attributes?: Named[];
  events?: Named[];
  cssParts?: Named[];
  cssProperties?: Named[];
  slots?: Named[];
  members?: (Named & { kind: string; privacy?: string })[];
};

const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
const manifest = JSON.parse(readFileSync(new URL(`../../${packageJson.customElements}`, import.meta.url), 'utf8'));
const element: Declaration = manifest.modules
  .flatMap((module: { declarations?: Declaration[] }) => module.declarations ?? [])
  .find((declaration: Declaration) => declaration.tagName === 'pay-widget');
const names = (list: Named[] | undefined) => (list ?? []).map((item) => item.name).sort();

describe('custom-elements.json', () => {
  it('declares <pay-widget>', () => {
    assert.ok(element, 'no declaration with tagName pay-widget');
  });

  it('lists every attribute DESIGN.md names', () => {
    assert.deepEqual(names(element.attributes), [
      'amount',
      'color-scheme',
      'country',
      'currency',
      'disabled',
      'email',
      'full-name',
      'locale',
      'mobile-number',
      'payment-reference',
      'payment-type',
      'payment-types',
      'resume',
      'session-url',
      'status-url',
      'timeout',
    ]);
  });

  it('lists the nine events with their typed details', () => {
    const events = Object.fromEntries((element.events ?? []).map((event) => [event.name, event.type?.text]));
    assert.deepEqual(events, {
      'pay-ready': 'CustomEvent<PayReadyDetail>',
      'pay-type-change': 'CustomEvent<PayTypeChangeDetail>',
      'pay-submit': 'CustomEvent<PaySubmitDetail>',
      'pay-initiated': 'CustomEvent<PayInitiatedDetail>',
      'pay-copy': 'CustomEvent<PayCopyDetail>',
      'pay-complete': 'CustomEvent<PayCompleteDetail>',
      'pay-error': 'CustomEvent<PayErrorDetail>',
      'pay-reset': 'CustomEvent<PayResetDetail>',
      'pay-resumed': 'CustomEvent<PayResumedDetail>',
    });
  });

  it('lists the parts, slots and public methods and properties', () => {
    assert.deepEqual(names(element.cssParts), [
      'account-number',
      'copy-button',
      'dial-code',
      'error',
      'field',
      'form',
      'input',
      'label',
      'result',
      'status',
      'submit',
      'type-option',
    ]);
    assert.deepEqual(names(element.slots), ['footer', 'header']);
    const publicMembers = (element.members ?? []).filter((member) => !member.privacy || member.privacy === 'public');
    for (const name of ['banks', 'messages', 'initiate', 'submit', 'reset', 'sessionUrl']) {
      assert.ok(
        publicMembers.some((member) => member.name === name),
        `no public ${name}`,
      );
    }
  });

  it('lists only --pay-widget-* custom properties', () => {
    const properties = names(element.cssProperties);
    assert.ok(properties.length >= 10);
    assert.ok(
      properties.every((name) => name.startsWith('--pay-widget-')),
      properties.join(' '),
    );
  });
});
