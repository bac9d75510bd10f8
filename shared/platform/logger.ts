import pino, { type Logger } from 'pino';
import { getConfig } from './config';

/** Paths whose values never reach a log line: API keys, passwords, session cookies, CSRF tokens, payment secrets. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
  'headers.cookie',
  'cookie',
  'csrfToken',
  '*.csrfToken',
  'sessionId',
  '*.sessionId',
  'passwordHash',
  '*.passwordHash',
  'headers.authorization',
  'authorization',
  'apiKey',
  'key',
  'plaintext',
  'password',
  'secret',
  'token',
  '*.apiKey',
  '*.key',
  '*.plaintext',
  '*.password',
  '*.secret',
  '*.token',
  'paymentMethod',
  '*.paymentMethod',
];

let root: Logger | undefined;
let toStderr = false;

export function logger(): Logger {
  root ??= pino(
    {
      level: getConfig().LOG_LEVEL,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      base: { pid: process.pid },
    },
    toStderr ? pino.destination(2) : undefined,
  );
  return root;
}

/** For command-line tools whose stdout is their output (`--json`): logs go to stderr. Call before logging. */
export function logToStderr(): void {
  toStderr = true;
  // A logger made already (a module that logged while it loaded) wrote to stdout: the next one is made for stderr.
  root = undefined;
}

export function childLogger(bindings: Record<string, unknown>): Logger {
  return logger().child(bindings);
}
