// `<pay-widget>` in Vue templates checked by vue-tsc (Vue's GlobalComponents). Enable it once,
// anywhere in the app: `import type {} from 'pay-widget/vue';`. The template compiler must still
// be told the tag is a custom element (`compilerOptions.isCustomElement`, see the README).
//
// The shape follows Vue's guide for typing custom elements: the element's instance type, with the
// properties Vue may set as `$props` and the events as `$emit`, so `@pay-initiated` is typed.
import type { EmitFn, HTMLAttributes, PublicProps } from 'vue';
import type { PayEventMap } from './element/events.js';
import type { PayWidgetProperties } from './element/framework-types.js';
import type { PayWidget } from './element/pay-widget.js';

type PayWidgetEmits = { [K in keyof PayEventMap]: (event: PayEventMap[K]) => void };

export type PayWidgetVueComponent = new () => PayWidget & {
  $props: HTMLAttributes & PayWidgetProperties & PublicProps;
  $emit: EmitFn<PayWidgetEmits>;
};

declare module 'vue' {
  interface GlobalComponents {
    'pay-widget': PayWidgetVueComponent;
  }
}
