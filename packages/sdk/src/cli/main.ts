#!/usr/bin/env node
import { LastroError } from '../errors.js';
import { LISTEN_HELP, listen } from './listen.js';
import { UsageError } from './options.js';
import { TRIGGER_HELP, trigger } from './trigger.js';

const COMMANDS: Record<string, (args: string[]) => Promise<number>> = { listen, trigger };

const USAGE = `lastro <command> [options]   (the Lastro SDK's command line)

${LISTEN_HELP}

${TRIGGER_HELP}`;

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    console.log(USAGE);
    return command ? 0 : 2;
  }
  const run = COMMANDS[command];
  if (!run) throw new UsageError(`unknown command ${command}: it is listen or trigger`);
  return run(args);
}

main(process.argv.slice(2)).then(
  (status) => {
    process.exitCode = status;
  },
  (error: unknown) => {
    if (error instanceof UsageError) console.error(`lastro: ${error.message} (lastro --help)`);
    else if (error instanceof LastroError)
      console.error(`lastro: ${error.status} ${error.code}: ${error.message}`);
    else console.error('lastro:', error);
    process.exitCode = error instanceof UsageError ? 2 : 1;
  },
);
