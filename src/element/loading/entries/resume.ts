// Entry: what shows a kept attempt again after a reload (resume.ts, with kept-attempt.ts's reading
// of it), which a payment in one page load never needs: ../../recall-kept.ts loads it, with what runs
// after a submit, only when the page's widget kept an attempt. It reads the kept session answer as a
// session answer is read (client.ts), so it carries its own copy of that reader. Beside the script
// tag it is dist/pay-widget.resume.js.
export { resumeKept } from '../../resume.js';
