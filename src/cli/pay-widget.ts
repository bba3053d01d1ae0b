#!/usr/bin/env node
// The package's command, `npx pay-widget <command>`: `check` (a back end's conformance) and
// `ledger` (the payment ledger for a person).
import { CHECK_USAGE, checkCommand } from './check-command.js';
import { ledgerCommand } from './ledger-command.js';

const [command, ...args] = process.argv.slice(2);
const io = { out: (line: string) => console.log(line), err: (line: string) => console.error(line) };

if (command === 'check') {
  process.exitCode = await checkCommand(args, io);
} else if (command === 'ledger') {
  process.exitCode = await ledgerCommand(args, io);
} else if (command === '--help' || command === '-h' || command === 'help') {
  io.out(CHECK_USAGE);
} else {
  io.err(
    command === undefined ? CHECK_USAGE : `pay-widget: unknown command ${JSON.stringify(command)}\n\n${CHECK_USAGE}`,
  );
  process.exitCode = 2;
}
