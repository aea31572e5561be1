import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { systemClock } from './clock';
import { openDatabase } from './db/database';
import { createIdentity } from './identity';
import { startService } from './index';
import { makePrivateDirSync, usePrivateUmask } from './security/private-files';
import { readServeFlags } from './serve-flags';

/**
 * `npm run service -- [--port <p>] [--data <dir>] [--<other-flag> <value>...]` runs the service;
 * `user add` and `client add` administer the database in `--data` and print JSON.
 * Flags other than port/data become config keys in camelCase (`--engine-command x` → `engineCommand: "x"`).
 */
async function main(argv: string[]): Promise<number> {
  const positionals = argv.filter(
    (arg, index) => !arg.startsWith('--') && !argv[index - 1]?.startsWith('--'),
  );
  const command = positionals.slice(0, 2).join(' ');
  if (command === 'user add') return userAdd(argv.slice(2));
  if (command === 'client add') return clientAdd(argv.slice(2));
  if (positionals.length > 0) return fail('usage', `Unknown command "${positionals.join(' ')}".`);
  return serveCommand(argv);
}

async function serveCommand(argv: string[]): Promise<number> {
  const flags = readServeFlags(argv);
  if (!flags.ok) return fail('usage', flags.detalle);
  const service = await startService({
    port: flags.port,
    dataDir: resolve(flags.data ?? 'data'),
    log: (line) => console.log(line),
    config: flags.config,
  });
  console.log(`listening on ${service.url}`);
  const stop = () => {
    void service.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return new Promise<number>(() => {});
}

function openIdentity(data: unknown) {
  const dataDir = resolve(typeof data === 'string' ? data : 'data');
  makePrivateDirSync(dataDir);
  const db = openDatabase(dataDir);
  return { db, identity: createIdentity(db, systemClock) };
}

async function userAdd(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { email: { type: 'string' }, password: { type: 'string' }, data: { type: 'string' } },
  });
  if (!values.email || !values.password) return fail('usage', 'user add needs --email and --password.');
  const { db, identity } = openIdentity(values.data);
  try {
    const result = await identity.persons.create(values.email, values.password);
    if (!result.ok) {
      return fail(
        result.code,
        result.code === 'email_taken'
          ? 'A person with that e-mail already exists.'
          : 'Give a valid e-mail and a password of at least 8 characters.',
      );
    }
    console.log(JSON.stringify(result.person));
    return 0;
  } finally {
    db.close();
  }
}

async function clientAdd(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      name: { type: 'string' },
      'redirect-uri': { type: 'string', multiple: true },
      scopes: { type: 'string' },
      confidential: { type: 'boolean' },
      'first-party': { type: 'boolean' },
      data: { type: 'string' },
    },
  });
  const redirectUris = values['redirect-uri'] ?? [];
  if (!values.name || redirectUris.length === 0 || values.scopes === undefined) {
    return fail('usage', 'client add needs --name, at least one --redirect-uri and --scopes.');
  }
  const bad = redirectUris.find((uri) => !URL.canParse(uri));
  if (bad) return fail('invalid_redirect_uri', `"${bad}" is not an absolute URI.`);
  const { db, identity } = openIdentity(values.data);
  try {
    const created = identity.clients.create({
      name: values.name,
      redirectUris,
      scopes: values.scopes,
      confidential: values.confidential ?? false,
      firstParty: values['first-party'] ?? false,
    });
    console.log(JSON.stringify(created));
    return 0;
  } finally {
    db.close();
  }
}

function fail(error: string, detalle: string): number {
  console.error(JSON.stringify({ error, detalle }));
  return 1;
}

usePrivateUmask();
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(JSON.stringify({ error: 'failed', detalle: (error as Error).message }));
    process.exit(1);
  },
);
