// Entry: the Igbo strings; beside the script tag, dist/pay-widget.ig.js.
export { messages } from '../../messages/ig.js';
