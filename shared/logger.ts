import pino, { type Logger } from 'pino';
import { getConfig } from './config';

/** Paths whose values never reach a log line: API keys, passwords, payment secrets. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
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

export function logger(): Logger {
  root ??= pino({
    level: getConfig().LOG_LEVEL,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    base: { pid: process.pid },
  });
  return root;
}

export function childLogger(bindings: Record<string, unknown>): Logger {
  return logger().child(bindings);
}
