import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/core/log/logger';
import { createMemorySecretStore } from '../../../src/core/auth/memory-secret-store';
import type { SecretStore } from '../../../src/core/auth/secret-store';
import { createHost, type DeskHost, type HostOptions } from '../../../src/core/host';
import { startService, type RunningService } from '../../../src/service/index';
import type { ConversationUpdate, SessionState } from '../../../src/shared/bridge';
import { DEFAULT_EMAIL, refreshGrant } from '../../support/local-service';
import { hasTurnEnded } from '../../support/conversation-updates';
import { personBrowser as browserSigningIn } from '../../support/person-browser';

// The host against the real local service on 127.0.0.1 (started by the host as "this computer"),
// real loopback listeners and real files. The only stand-in is the person's browser: a cookie-keeping
// HTTP client that walks the service's sign-in pages and then calls the loopback callback, as a browser would.

let dir: string;
let secrets: SecretStore;
let logLines: string[];
const hosts: DeskHost[] = [];
const running: Pick<RunningService, 'url' | 'context'>[] = [];

type Browser = (url: string) => Promise<void>;

/** The person's browser, signing in to the service the host started last. */
const personBrowser = (): Browser => browserSigningIn(() => running.at(-1)!);

async function openHost(openBrowser: Browser, extra: Partial<HostOptions> = {}): Promise<DeskHost> {
  const host = await createHost({
    dataDir: dir,
    secrets,
    openBrowser,
    startEmbeddedService: async ({ dataDir }) => {
      const service = await startService({ dataDir, port: 0 });
      running.push(service);
      return service;
    },
    os: {
      platform: { os: 'linux', shell: 'browser', modifierKey: 'Ctrl' },
      notify: () => {},
      openExternal: () => {},
    },
    logger: createLogger((_level, line) => logLines.push(line), 'host'),
    ...extra,
  });
  hosts.push(host);
  return host;
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentdesk-host-'));
  secrets = createMemorySecretStore();
  logLines = [];
});

afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close();
  running.length = 0;
  await rm(dir, { recursive: true, force: true });
});

describe('host on "this computer"', () => {
  it('starts the local service, signs in through the browser, calls the API and remembers the sign-in', async () => {
    const host = await openHost(personBrowser());
    const changes: SessionState[] = [];
    host.onSessionChange((s) => changes.push(s));
    expect(changes[0]).toMatchObject({ status: 'signed-out', profile: null });

    const added = await host.addLocalProfile();
    expect(added.ok && added.value).toMatchObject({ kind: 'local', clientId: 'agentdesk-desktop' });
    expect(added.ok && added.value.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await host.listAgents()).toMatchObject({ ok: false, error: { code: 'signed_out' } });

    const signedIn = await host.signIn();
    expect(signedIn).toMatchObject({
      ok: true,
      value: { status: 'signed-in', user: { email: DEFAULT_EMAIL } },
    });
    expect(changes.some((s) => s.status === 'signing-in' && s.signIn?.phase === 'waiting-for-browser')).toBe(
      true,
    );
    expect(changes.find((s) => s.signIn?.authorizeUrl)?.signIn?.authorizeUrl).toContain(
      'code_challenge_method=S256',
    );

    const agents = await host.listAgents();
    expect(agents.ok).toBe(true);
    if (!agents.ok) return;
    const agentId = agents.value.agents[0]!.id;
    const created = await host.createConversation(agentId);
    expect(created.ok).toBe(true);
    if (!created.ok) return;
    const conversation = await host.getConversation(agentId, created.value.id, { limit: 10 });
    expect(conversation).toMatchObject({ ok: true, value: { messages: [] } });
    expect(await host.renameConversation(agentId, created.value.id, 'Plans')).toEqual({
      ok: true,
      value: undefined,
    });
    const shared = await host.share(agentId, created.value.id);
    expect(shared.ok && shared.value.publicUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/s\//);
    const page = await fetch(shared.ok ? shared.value.publicUrl! : '');
    expect(page.status).toBe(200);
    expect((await host.unshare(agentId, created.value.id)).ok && true).toBe(true);

    // A new run of the app: the profile and the sign-in come back; the service gets a new port.
    await host.close();
    hosts.splice(hosts.indexOf(host), 1);
    const again = await openHost(personBrowser());
    const session = await again.getSession();
    expect(session).toMatchObject({ ok: true, value: { status: 'signed-in', profile: { id: 'local' } } });
    expect((await again.listConversations(agentId)).ok).toBe(true);
  });

  it('refuses bad arguments with plain sentences before calling the service', async () => {
    const host = await openHost(personBrowser());
    await host.addLocalProfile();
    await host.signIn();
    expect(await host.listConversations('')).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument' },
    });
    const bad = await host.createSchedule('a', 's', { prompt: '' } as never);
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
    expect(await host.openExternal('file:///etc/passwd')).toMatchObject({ ok: false });
    expect(await host.answerPermission('a', 's', { id: '', optionId: 'x' })).toMatchObject({ ok: false });
  });

  it('signs out, revoking the tokens', async () => {
    const host = await openHost(personBrowser());
    await host.addLocalProfile();
    await host.signIn();
    const saved = JSON.parse((await secrets.get('tokens:local'))!) as { refreshToken: string };
    const out = await host.signOut();
    expect(out).toMatchObject({ ok: true, value: { status: 'signed-out' } });
    expect(out.ok && out.value.signedOutReason).toBeUndefined();
    expect(await secrets.get('tokens:local')).toBeUndefined();
    expect((await refreshGrant(running[0]! as never, saved.refreshToken)).status).toBe(400);
    expect(await host.listAgents()).toMatchObject({ ok: false, error: { code: 'signed_out' } });
  });

  it('ends in a clean signed-out state with a reason when a rotated refresh token was reused', async () => {
    let now = Date.now();
    const host = await openHost(personBrowser(), { now: () => now });
    await host.addLocalProfile();
    await host.signIn();
    const saved = JSON.parse((await secrets.get('tokens:local'))!) as { refreshToken: string };
    // Someone else uses the refresh token twice: the service revokes the whole family.
    await refreshGrant(running[0]! as never, saved.refreshToken);
    await refreshGrant(running[0]! as never, saved.refreshToken);
    now += 2 * 60 * 60 * 1000; // the access token has expired: the next call must refresh
    const changes: SessionState[] = [];
    host.onSessionChange((s) => changes.push(s));
    const result = await host.listAgents();
    expect(result).toMatchObject({ ok: false, error: { code: 'signed_out' } });
    const session = await host.getSession();
    expect(session).toMatchObject({
      ok: true,
      value: { status: 'signed-out', signedOutReason: { code: 'session_expired' } },
    });
    expect(changes.at(-1)?.signedOutReason?.message).toMatch(/sign in again/i);
  });

  it('reports a refused sign-in, a cancel and a timeout in plain words, and ignores a stray callback', async () => {
    const refuse: Browser = async (url) => {
      const authorize = new URL(url);
      const redirect = authorize.searchParams.get('redirect_uri')!;
      await fetch(
        `${redirect}?${new URLSearchParams({ error: 'access_denied', state: authorize.searchParams.get('state')! })}`,
      );
    };
    const host = await openHost(refuse);
    await host.addLocalProfile();
    const refused = await host.signIn();
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'sign_in_refused', message: 'You declined access.' },
    });
    expect((await host.getSession()).ok && (await host.getSession())).toMatchObject({
      value: { status: 'signed-out', signedOutReason: { code: 'sign_in_refused' } },
    });
    await host.close();

    // A stray callback with another state is refused and ignored: the real sign-in goes on.
    let strayStatus: number | undefined;
    const stranger: Browser = async (url) => {
      const redirect = new URL(url).searchParams.get('redirect_uri')!;
      const stray = await fetch(
        `${redirect}?${new URLSearchParams({ code: 'abc', state: 'not-the-state' })}`,
      );
      strayStatus = stray.status;
    };
    const second = await openHost(stranger);
    const stillWaiting = second.signIn();
    await expect.poll(() => strayStatus).toBe(400);
    expect((await second.getSession()).ok && (await second.getSession())).toMatchObject({
      value: { status: 'signing-in' },
    });
    await second.cancelSignIn();
    expect(await stillWaiting).toMatchObject({ ok: false, error: { code: 'sign_in_cancelled' } });
    await second.close();

    const idle: Browser = async () => {};
    const third = await openHost(idle);
    const pending = third.signIn();
    const busy = await third.signIn();
    expect(busy).toMatchObject({ ok: false, error: { code: 'sign_in_in_progress' } });
    const cancelled = await third.cancelSignIn();
    expect(cancelled).toMatchObject({ ok: true, value: { status: 'signed-out' } });
    expect(await pending).toMatchObject({ ok: false, error: { code: 'sign_in_cancelled' } });
    await third.close();

    const slow = await openHost(idle, { signInTimeoutMs: 100 });
    expect(await slow.signIn()).toMatchObject({ ok: false, error: { code: 'sign_in_timed_out' } });
  });

  it('keeps tokens out of the log of a whole run', async () => {
    const host = await openHost(personBrowser());
    await host.addLocalProfile();
    await host.signIn();
    const saved = JSON.parse((await secrets.get('tokens:local'))!) as {
      accessToken: string;
      refreshToken: string;
    };
    await host.listAgents();
    await host.signOut();
    const log = logLines.join('\n');
    expect(logLines.length).toBeGreaterThan(0);
    expect(log).not.toContain(saved.accessToken);
    expect(log).not.toContain(saved.refreshToken);
  });
});

describe('host conversation events', () => {
  it('streams a turn through onConversationEvent, with connection states, until unsubscribed', async () => {
    const host = await openHost(personBrowser());
    await host.addLocalProfile();
    await host.signIn();
    const agents = await host.listAgents();
    const agentId = agents.ok ? agents.value.agents[0]!.id : '';
    const created = await host.createConversation(agentId);
    const sessionId = created.ok ? created.value.id : '';

    const updates: ConversationUpdate[] = [];
    const stop = host.onConversationEvent(agentId, sessionId, (u) => updates.push(u));
    await expect
      .poll(() => updates.some((u) => u.kind === 'connection' && u.connection.state === 'open'))
      .toBe(true);
    const sent = await host.sendMessage(agentId, sessionId, { content: 'hello stream', firstTurn: true });
    expect(sent.ok).toBe(true);
    const turnId = sent.ok ? sent.value.turnId : '';
    await expect.poll(() => hasTurnEnded(updates, turnId), { timeout: 15_000 }).toBe(true);
    const text = updates
      .flatMap((u) => (u.kind === 'event' && u.event.event === 'chunk' ? [u.event.data.text] : []))
      .join('');
    expect(text).toContain('hello stream');
    expect(
      updates
        .filter((u) => u.kind === 'event')
        .every((u) => u.kind === 'event' && typeof u.event.id === 'string'),
    ).toBe(true);

    stop();
    const count = updates.length;
    // A second listener sees the next turn end; the first, unsubscribed, sees nothing of it.
    const later: ConversationUpdate[] = [];
    const stopLater = host.onConversationEvent(agentId, sessionId, (u) => later.push(u));
    const next = await host.sendMessage(agentId, sessionId, { content: 'after unsubscribe' });
    const nextId = next.ok ? next.value.turnId : '';
    await expect.poll(() => hasTurnEnded(later, nextId), { timeout: 15_000 }).toBe(true);
    stopLater();
    expect(updates).toHaveLength(count);
  });

  it('says plainly why a stream cannot start', async () => {
    const host = await openHost(personBrowser());
    await host.addLocalProfile();
    const updates: ConversationUpdate[] = [];
    host.onConversationEvent('agent', 'conversation', (u) => updates.push(u));
    await expect.poll(() => updates.length).toBe(1);
    expect(updates[0]).toMatchObject({
      kind: 'connection',
      connection: { state: 'closed', error: { code: 'signed_out' } },
    });

    await host.signIn();
    const missing: ConversationUpdate[] = [];
    host.onConversationEvent('no-such-agent', 'no-such-conversation', (u) => missing.push(u));
    await expect
      .poll(() => missing.find((u) => u.kind === 'connection' && u.connection.state === 'closed'))
      .toMatchObject({ connection: { error: { code: 'not_found' } } });
  });
});

describe('host profiles', () => {
  it('adds a custom server, switches back, and forgets a removed profile’s tokens', async () => {
    const host = await openHost(personBrowser());
    await host.addLocalProfile();
    await host.signIn();
    const custom = await host.addCustomProfile({
      baseUrl: 'https://agents.example.com',
      clientId: 'desk',
      loopbackPorts: [8123],
    });
    expect(custom.ok).toBe(true);
    expect(await host.getSession()).toMatchObject({
      ok: true,
      value: { status: 'signed-out', profile: { kind: 'custom' } },
    });
    const back = await host.switchProfile('local');
    expect(back).toMatchObject({ ok: true, value: { status: 'signed-in', profile: { id: 'local' } } });
    expect(await host.switchProfile('missing')).toMatchObject({
      ok: false,
      error: { code: 'unknown_profile' },
    });
    const removed = await host.removeProfile('local');
    expect(removed.ok && removed.value.profiles.map((p) => p.kind)).toEqual(['custom']);
    expect(await secrets.get('tokens:local')).toBeUndefined();
  });
});
