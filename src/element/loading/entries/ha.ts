// Entry: the Hausa strings; beside the script tag, dist/pay-widget.ha.js.
export { messages } from '../../messages/ha.js';
