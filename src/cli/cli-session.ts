import type { DeskHost } from '../core/host';
import type { SessionState } from '../shared/bridge';
import { ownAccountUser } from '../shared/api/own-account';
import type { CliIo } from './terminal';
import { terminalLine } from './terminal-text';

/**
 * The CLI's sign-in, in one place so `login`, `whoami`, `agents` and `chat` tell the same story. On This
 * computer the service each command starts trusts that command (no password), so a sign-in kept in memory
 * only is simply made again; elsewhere a sign-in goes through the browser.
 */
export interface CliSession {
  host: DeskHost;
  io: CliIo;
  /** False only in tests that make This computer's service ask for a password, as `npm run service` does. */
  trusted: boolean;
}

/** Where the person is: This computer's address changes with every command, so it is left out. */
function where(session: SessionState): string {
  const profile = session.profile;
  if (!profile) return 'This computer';
  return profile.kind === 'local' || !profile.baseUrl ? profile.name : `${profile.name} (${profile.baseUrl})`;
}

/** Who is signed in: this computer's own account by its user's name, not the address only the service uses. */
const who = (session: SessionState): string =>
  ownAccountUser(session.user?.email, !session.profile || session.profile.kind === 'local') ??
  session.user?.email ??
  session.user?.id ??
  'you';

/** This computer with a service that trusts this command: signing in needs nothing from the person. */
function passwordless(cli: CliSession, session: SessionState): boolean {
  return cli.trusted && (!session.profile || session.profile.kind === 'local');
}

/** Said once, where it matters: with no keychain a sign-in lasts for this one command. */
function memoryOnlyNote(cli: CliSession, session: SessionState): void {
  if (session.secretStore.kind !== 'memory') return;
  cli.io.err(
    passwordless(cli, session)
      ? 'Note: no keychain is available here, so a sign-in lasts for one command only. On This computer that costs nothing: every command signs you in again at once, without a password.\n'
      : 'Note: no keychain is available here, so a sign-in lasts for one command only. Every command that needs the server signs in again through your browser.\n',
  );
}

async function signIn(cli: CliSession): Promise<SessionState | undefined> {
  const { host, io } = cli;
  const current = await host.getSession();
  if (current.ok && !current.value.profile) await host.addLocalProfile();
  const result = await host.signIn();
  if (!result.ok) {
    io.err(`${result.error.message}\n`);
    return undefined;
  }
  return result.value;
}

/** `agentdesk login`. */
export async function login(cli: CliSession): Promise<number> {
  const current = await cli.host.getSession();
  if (current.ok) memoryOnlyNote(cli, current.value);
  const session = await signIn(cli);
  if (!session) return 1;
  cli.io.out(`Signed in to ${terminalLine(where(session))} as ${terminalLine(who(session))}.\n`);
  return 0;
}

/**
 * For commands that need a sign-in: starts one when there is none. A passwordless one is silent (its
 * output is the command's, not a sign-in notice); a browser one says where it signed in, on stderr.
 */
export async function ensureSignedIn(cli: CliSession): Promise<boolean> {
  const current = await cli.host.getSession();
  if (!current.ok) {
    cli.io.err(`${current.error.message}\n`);
    return false;
  }
  if (current.value.status === 'signed-in') return true;
  if (current.value.signedOutReason) cli.io.err(`${current.value.signedOutReason.message}\n`);
  const quiet = passwordless(cli, current.value);
  if (!quiet) memoryOnlyNote(cli, current.value);
  const session = await signIn(cli);
  if (session && !quiet)
    cli.io.err(`Signed in to ${terminalLine(where(session))} as ${terminalLine(who(session))}.\n`);
  return session !== undefined;
}

/**
 * `agentdesk whoami`: on This computer it answers as `agents` would (signing in at once, as every command
 * does there); elsewhere it never opens a browser, and says what to run.
 */
export async function whoami(cli: CliSession): Promise<number> {
  const { host, io } = cli;
  const first = await host.getSession();
  if (!first.ok) {
    io.err(`${first.error.message}\n`);
    return 1;
  }
  if (first.value.status !== 'signed-in') {
    if (!passwordless(cli, first.value)) {
      io.out(`Not signed in to ${terminalLine(where(first.value))}. Run \`agentdesk login\` to sign in.\n`);
      if (first.value.signedOutReason) io.out(`${first.value.signedOutReason.message}\n`);
      memoryOnlyNote(cli, first.value);
      return 1;
    }
    if (!(await signIn(cli))) return 1;
  }
  let session = await host.getSession();
  // Who signed in comes from the account's agent listing.
  if (session.ok && !session.value.user) {
    await host.listAgents();
    session = await host.getSession();
  }
  if (!session.ok) return 1;
  const s = session.value;
  io.out(`Signed in to ${terminalLine(where(s))} as ${terminalLine(who(s))}.\n`);
  if (s.scopes?.length) io.out(`Scopes: ${s.scopes.join(' ')}\n`);
  if (s.secretStore.kind === 'memory') {
    io.out(
      passwordless(cli, s)
        ? 'This sign-in lasts for this command only (no keychain here); every command signs you in again at once.\n'
        : 'This sign-in lasts for this command only (no keychain here).\n',
    );
  }
  return 0;
}
