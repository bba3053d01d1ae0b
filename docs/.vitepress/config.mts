import { defineConfig } from 'vitepress';

// The documentation site: `npm run docs` serves it, `npm run docs:build` builds it (and fails on a
// dead link, which is why the build is part of `npm test`).
export default defineConfig({
  title: 'pay-widget',
  description:
    'A <pay-widget> custom element for USSD and bank-transfer payments, its server half and an offline sandbox gateway.',
  lang: 'en',
  cleanUrls: true,
  vue: { template: { compilerOptions: { isCustomElement: (tag) => tag === 'pay-widget' } } },
  themeConfig: {
    search: { provider: 'local' },
    outline: [2, 3],
    nav: [
      { text: 'Guide', link: '/' },
      { text: 'Go live', link: '/go-live' },
      { text: 'Troubleshooting', link: '/troubleshooting' },
    ],
    sidebar: [
      {
        text: 'In the page',
        items: [
          { text: 'The element', link: '/element' },
          { text: 'Frameworks', link: '/frameworks' },
          { text: 'The widget, live', link: '/states' },
        ],
      },
      {
        text: 'On the server',
        items: [
          { text: 'The server half', link: '/server' },
          { text: 'Recipes per runtime', link: '/recipes' },
          { text: 'Stores', link: '/stores' },
          { text: 'Getting paid', link: '/getting-paid' },
          { text: 'Your own back end', link: '/own-back-end' },
        ],
      },
      {
        text: 'Before and after going live',
        items: [
          { text: 'The sandbox and the demo', link: '/sandbox' },
          { text: 'Go-live checklist', link: '/go-live' },
          { text: 'The ledger, for a person', link: '/ledger' },
          { text: 'Troubleshooting', link: '/troubleshooting' },
          { text: 'Development', link: '/development' },
          { text: 'Architecture', link: '/architecture' },
        ],
      },
    ],
  },
});
