// The ledger page's one stylesheet, served by the page itself (`?styles`) so that its CSP can stay
// `style-src 'self'`: readable on a phone from 320 px (the table becomes one block per payment), and
// nothing that needs JavaScript.
export const LEDGER_STYLES = `
body { font: 16px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 64rem; padding: 0 0.75rem 2rem; }
h1 { font-size: 1.5rem; overflow-wrap: anywhere; }
form[role='search'] { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: end; }
input, select, button { font: inherit; max-width: 100%; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: 0.3rem 0.5rem; border-bottom: 1px solid #ccc; overflow-wrap: anywhere; }
dt { font-weight: 600; }
dd { margin: 0 0 0.5rem; overflow-wrap: anywhere; }
form[method='post'] { margin: 0.5rem 0; }
@media (max-width: 40rem) {
  thead { display: none; }
  tr { display: block; border-bottom: 1px solid #ccc; padding: 0.5rem 0; }
  td { display: block; border: 0; padding: 0.1rem 0; }
}
`;
