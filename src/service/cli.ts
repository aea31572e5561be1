import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { systemClock } from './clock';
import { databaseUrlOf, isPostgresUrl, openDatabase } from './db/database';
import { assertStoreSound, DamagedStoreError } from './db/store-check';
import { createIdentity } from './identity';
import { readConfigFile } from './config';
import { inviteLifetimeDays } from './identity/invites';
import { isEmail } from './identity/persons';
import { ServiceConfigError, startService } from './index';
import { readServing } from './serving';
import { makePrivateDirSync, usePrivateUmask } from './security/private-files';
import { batchedLog } from './log-writer';
import { readServeFlags } from './serve-flags';

/** What `--help` prints; the README's "Run it on a server" says more. */
const USAGE = `Usage: npm run service -- [--port <p>] [--data <dir>] [--<setting> <value> ...]
  Runs the local v2 service (on 127.0.0.1 unless configured otherwise) on --port, else config.json's
  port, else any free port, and prints its address; its data in --data (./data).
  Any other flag sets the config key of the same name in camelCase: --public-url <url> sets publicUrl.

Administration, on the store of --data (or --database <postgres url>), printing JSON:
  user add --email <e-mail> --password <password>
  invite add --email <e-mail> [--days <n>] [--public-url <url>]
  client add --name <name> --redirect-uri <uri>... --scopes "<scopes>" [--confidential] [--first-party]
  check                  checks the embedded store (service.db) and changes nothing
`;

/**
 * `npm run service -- [--port <p>] [--data <dir>] [--<other-flag> <value>...]` runs the service;
 * `user add`, `invite add` and `client add` administer the database in `--data` and print JSON.
 * Flags other than port/data become config keys in camelCase (`--public-url x` → `publicUrl: "x"`).
 */
async function main(argv: string[]): Promise<number> {
  // Asked for help, print it: a start would take --help for a setting and begin serving.
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE);
    return 0;
  }
  const positionals = argv.filter(
    (arg, index) => !arg.startsWith('--') && !argv[index - 1]?.startsWith('--'),
  );
  const command = positionals.slice(0, 2).join(' ');
  if (command === 'user add') return userAdd(argv.slice(2));
  if (command === 'client add') return clientAdd(argv.slice(2));
  if (command === 'invite add') return inviteAdd(argv.slice(2));
  if (positionals[0] === 'check') return checkCommand(argv.slice(1));
  if (positionals.length > 0) return fail('usage', `Unknown command "${positionals.join(' ')}".`);
  return serveCommand(argv);
}

/** `check [--data <dir>]`: the check a start runs on the embedded store, alone; it changes nothing. */
async function checkCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: storeOptions });
  const { dataDir, databaseUrl } = await storeOf(values);
  if (isPostgresUrl(databaseUrl))
    return fail('usage', 'check looks at the embedded store (service.db); this service uses PostgreSQL.');
  const file = join(dataDir, 'service.db');
  if (!existsSync(file)) return fail('usage', `There is no store at ${file} (the first start makes one).`);
  try {
    assertStoreSound(file);
  } catch (error) {
    if (error instanceof DamagedStoreError) return fail('store_damaged', error.message);
    throw error;
  }
  console.log(JSON.stringify({ ok: true, file, checked: 'header, size and quick_check' }));
  return 0;
}

async function serveCommand(argv: string[]): Promise<number> {
  const flags = readServeFlags(argv);
  if (!flags.ok) return fail('usage', flags.detalle);
  const output = batchedLog();
  let service;
  try {
    service = await startService({
      port: flags.port,
      dataDir: resolve(flags.data ?? 'data'),
      log: output.log,
      config: flags.config,
    });
  } catch (error) {
    output.flush();
    if (error instanceof ServiceConfigError) return fail('config_invalid', error.message);
    if (error instanceof DamagedStoreError) return fail('store_damaged', error.message);
    throw error;
  }
  // Before the listening line, which supervisors and tests wait for.
  if (service.origin !== service.url) output.log(`answering as ${service.origin}`);
  output.log(`listening on ${service.url}`);
  output.flush();
  process.once('exit', output.flush);
  const stop = () => {
    void service.close().then(() => {
      output.flush();
      process.exit(0);
    });
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return new Promise<number>(() => {});
}

type StoreValues = { data?: string | undefined; database?: string | undefined };

/**
 * The admin commands work on the store the service uses: `--database` as the service takes it, else
 * config.json's `database`, else DATABASE_URL, else the file.
 */
async function storeOf(values: StoreValues): Promise<{ dataDir: string; databaseUrl: string | undefined }> {
  const dataDir = resolve(values.data ?? 'data');
  const config = await readConfigFile(dataDir);
  return {
    dataDir,
    databaseUrl: databaseUrlOf(values.database !== undefined ? { database: values.database } : config),
  };
}

async function openIdentity(values: StoreValues) {
  const { dataDir, databaseUrl } = await storeOf(values);
  makePrivateDirSync(dataDir);
  const db = await openDatabase(dataDir, { databaseUrl });
  return { db, identity: createIdentity(db, systemClock) };
}

/** The options every admin command takes: where the service keeps its data and its store. */
const storeOptions = { data: { type: 'string' }, database: { type: 'string' } } as const;

async function userAdd(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { email: { type: 'string' }, password: { type: 'string' }, ...storeOptions },
  });
  if (!values.email || !values.password) return fail('usage', 'user add needs --email and --password.');
  const { db, identity } = await openIdentity(values);
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
    await db.destroy();
  }
}

/** `invite add --email <e> [--days <n>] [--public-url <u>]`: a one-time link to create that person's account. */
async function inviteAdd(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      email: { type: 'string' },
      days: { type: 'string' },
      'public-url': { type: 'string' },
      ...storeOptions,
    },
  });
  if (!values.email || !isEmail(values.email.trim()))
    return fail('usage', 'invite add needs --email with an e-mail address.');
  const days = inviteLifetimeDays(values.days);
  if (days === null)
    return fail(
      'usage',
      `--days is a whole number of days from 1 to 365; ${JSON.stringify(values.days)} is not.`,
    );
  const dataDir = resolve(values.data ?? 'data');
  const config = {
    ...(await readConfigFile(dataDir)),
    ...(values['public-url'] ? { publicUrl: values['public-url'] } : {}),
  };
  let origin: string | null;
  try {
    origin = readServing(config).publicOrigin;
  } catch (error) {
    return fail('config_invalid', (error as Error).message);
  }
  if (!origin)
    return fail(
      'usage',
      "invite add needs the server's public URL: set publicUrl in config.json or pass --public-url.",
    );
  const { db, identity } = await openIdentity({ data: dataDir, database: values.database });
  try {
    if (await identity.persons.findByEmail(values.email))
      return fail('email_taken', 'A person with that e-mail already exists.');
    const invite = await identity.invites.create(values.email, days);
    const url = `${origin}/invite?code=${encodeURIComponent(invite.code)}`;
    console.log(
      JSON.stringify({ email: invite.email, url, expires_at: new Date(invite.expiresAt).toISOString() }),
    );
    return 0;
  } finally {
    await db.destroy();
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
      ...storeOptions,
    },
  });
  const redirectUris = values['redirect-uri'] ?? [];
  if (!values.name || redirectUris.length === 0 || values.scopes === undefined) {
    return fail('usage', 'client add needs --name, at least one --redirect-uri and --scopes.');
  }
  const bad = redirectUris.find((uri) => !URL.canParse(uri));
  if (bad) return fail('invalid_redirect_uri', `"${bad}" is not an absolute URI.`);
  const { db, identity } = await openIdentity(values);
  try {
    const created = await identity.clients.create({
      name: values.name,
      redirectUris,
      scopes: values.scopes,
      confidential: values.confidential ?? false,
      firstParty: values['first-party'] ?? false,
    });
    console.log(JSON.stringify(created));
    return 0;
  } finally {
    await db.destroy();
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
