#!/usr/bin/env node
import { CliError } from './api';
import { cli } from './cli';

// `nl2pipeline … | head` closes the pipe early: that is not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
  });
}

function oneLine(err: unknown): string {
  if (err instanceof CliError) return err.message;
  const message = err instanceof Error ? err.message : String(err);
  return `unexpected error: ${message.split('\n')[0]}`;
}

cli(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env })
  .then((code) => {
    process.exitCode = code;
  })
  .catch((err: unknown) => {
    // One line, never a stack trace (NL2P_DEBUG=1 shows it).
    process.stderr.write(`nl2pipeline: ${oneLine(err)}\n`);
    if (process.env.NL2P_DEBUG && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
    process.exitCode = err instanceof CliError ? err.exitCode : 1;
  });
