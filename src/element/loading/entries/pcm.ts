// Entry: the Nigerian Pidgin strings; beside the script tag, dist/pay-widget.pcm.js.
export { messages } from '../../messages/pcm.js';
