/**
 * Issue 26, "Readable at 320 px": the transfer screen in its states (and issue 36's closed account,
 * which asks for no transfer), in every language (screens-at-320.ts); a long reference wraps only
 * between its groups, the bank stands with the account number, a details row breaks only between
 * words.
 */
import { expect } from '@open-wc/testing';
import { clock, LONG_REFERENCE, LONG_TRANSFER, MINUTE, pending, screensAt320, transfer } from './screens-at-320.js';
import { lineBreaks, part, root } from './helpers.js';

screensAt320(
  '<pay-widget> transferring on a 320 px screen',
  ['transfer', 'copy-failed', 'check-failed', 'still-waiting-long-reference', 'account-closed'],
  () => {
    describe('in English', () => {
      it('wraps the long reference only between its groups, in the details and in the still-waiting note', async () => {
        const el = await transfer('en', pending);
        clock.advance(10 * MINUTE);
        await el.updateComplete;
        const holders = [...root(el).querySelectorAll('dd, .note')].filter((node) =>
          node.textContent!.includes(LONG_REFERENCE),
        );
        expect(holders).to.have.length(2);
        for (const holder of holders) {
          const text = holder.textContent!;
          const start = text.indexOf(LONG_REFERENCE);
          for (const at of lineBreaks(holder).filter((i) => i > start && i < start + LONG_REFERENCE.length)) {
            const inReference = at - start;
            expect(
              inReference === 3 || (inReference > 3 && (inReference - 3) % 4 === 0),
              `breaks before "${LONG_REFERENCE.slice(inReference)}"`,
            ).to.equal(true);
          }
        }
      });

      it('keeps the bank name with the account number, each on one line', async () => {
        const el = await transfer('en', pending);
        const account = part(el, 'account-number')!.closest('.value')!;
        const bank = [...account.querySelectorAll('strong')].find(
          (node) => node.textContent === LONG_TRANSFER.bankName,
        );
        expect(bank, 'the bank in the account box').to.exist;
        expect(lineBreaks(bank!), 'the bank name on one line').to.deep.equal([]);
        expect(lineBreaks(part(el, 'account-number')!), 'the number on one line').to.deep.equal([]);
      });

      it('breaks a details row only between words: the account name on two lines at most', async () => {
        const el = await transfer('en', pending);
        const name = [...root(el).querySelectorAll('dd')].find((dd) => dd.textContent === LONG_TRANSFER.walletName)!;
        const breaks = lineBreaks(name);
        expect(breaks.length).to.be.at.most(2);
        for (const at of breaks)
          expect(LONG_TRANSFER.walletName[at - 1], `a break before "${LONG_TRANSFER.walletName.slice(at)}"`).to.match(
            /[\s/-]/,
          );
      });
    });
  },
);
