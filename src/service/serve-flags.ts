import { parseArgs } from 'node:util';
import type { ServiceConfig } from './config';

export type ServeFlags =
  | { ok: true; port: number | undefined; data: string | undefined; config: ServiceConfig }
  | { ok: false; detalle: string };

/**
 * `npm run service -- [--port <p>] [--data <dir>] [--<other-flag> <value>...]`: every flag other than
 * port and data becomes a config key in camelCase (`--engine-command x` → `engineCommand: "x"`); a flag
 * with no value after it is `true`.
 */
export function readServeFlags(argv: string[]): ServeFlags {
  const { tokens } = parseArgs({ args: argv, strict: false, allowPositionals: true, tokens: true });
  const values: Record<string, string | boolean> = {};
  tokens.forEach((token, index) => {
    if (token.kind !== 'option') return;
    // parseArgs reads an undeclared `--some-flag v` as a boolean and a stray `v`: pair them again.
    const next = tokens[index + 1];
    values[token.name] = token.value ?? (next?.kind === 'positional' ? next.value : true);
  });
  const { port, data, ...rest } = values;
  const portNumber = typeof port === 'string' ? Number(port) : undefined;
  if (port !== undefined && !(Number.isInteger(portNumber) && portNumber! >= 0 && portNumber! <= 65535))
    return { ok: false, detalle: '--port takes a whole number from 0 to 65535 (0: any free port).' };
  const config: ServiceConfig = {};
  for (const [key, value] of Object.entries(rest))
    config[key.replace(/-([a-z])/g, (_, ch: string) => ch.toUpperCase())] = value;
  return { ok: true, port: portNumber, data: typeof data === 'string' ? data : undefined, config };
}
