import { redact } from './redact';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** The one logging shape core uses. Whatever it writes has been through `redact()`. */
export interface Logger {
  debug(message: string, details?: unknown): void;
  info(message: string, details?: unknown): void;
  warn(message: string, details?: unknown): void;
  error(message: string, details?: unknown): void;
}

/** Where finished, already redacted lines go (console, a file, a test's array). */
export type LogSink = (level: LogLevel, line: string) => void;

export function createLogger(sink: LogSink, scope?: string): Logger {
  const write = (level: LogLevel, message: string, details?: unknown): void => {
    const prefix = scope ? `[${scope}] ` : '';
    const tail = details === undefined ? '' : ` ${redact(details)}`;
    sink(level, redact(`${prefix}${message}`) + tail);
  };
  return {
    debug: (m, d) => write('debug', m, d),
    info: (m, d) => write('info', m, d),
    warn: (m, d) => write('warn', m, d),
    error: (m, d) => write('error', m, d),
  };
}

export const consoleSink: LogSink = (level, line) => {
  (level === 'debug' ? console.debug : console[level])(line);
};

/** A logger that drops everything: the default where no logger is given. */
export const silentLogger: Logger = createLogger(() => {});
