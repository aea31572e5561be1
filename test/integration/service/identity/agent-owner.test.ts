/**
 * An agent's person as a turn's start asks for it (`agents.ownerOf`, kept in memory once read), over the real
 * agent store on a real database (the embedded file, and PostgreSQL in the `service-postgres` pass). Checked:
 * it is the agent's person; an agent not there (yet) is null and that answer is not kept; a removed agent's
 * entry goes with it.
 */
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../../../src/service/clock';
import { prepare } from '../../../../src/service/db/statement';
import { createAgentStore } from '../../../../src/service/identity/agents';
import { createTokenCache } from '../../../../src/service/identity/token-cache';
import { storeWithPeople } from '../../../support/test-store';

describe('an agent’s person, kept once read', () => {
  it('is the agent’s person; an agent not there is null until it is; a removed agent’s goes with it', async () => {
    const db = await storeWithPeople(['p1', 'p2']);
    const agents = createAgentStore(db, systemClock, createTokenCache(systemClock));

    const first = await agents.create('p1', { name: 'First', engine: 'engine-b', protocol: 'acp' });
    const second = await agents.create('p1', { name: 'Second', engine: 'engine-b', protocol: 'acp' });
    const theirs = await agents.create('p2', { name: 'Theirs', engine: 'engine-b', protocol: 'acp' });
    expect(await agents.ownerOf(first.id)).toBe('p1');
    expect(await agents.ownerOf(second.id)).toBe('p1');
    expect(await agents.ownerOf(theirs.id)).toBe('p2');

    // Asked before it exists (another process may be creating it): null, and not kept as null.
    expect(await agents.ownerOf('agent-made-beside')).toBeNull();
    await prepare(
      db,
      "INSERT INTO agents (id, person_id, name, engine, origin, protocol, created_at) VALUES ('agent-made-beside', 'p2', 'Beside', 'engine-b', 'gs', 'acp', 2)",
    ).run();
    expect(await agents.ownerOf('agent-made-beside')).toBe('p2');

    expect(await agents.remove('p1', second.id)).toBe('removed');
    expect(await agents.ownerOf(second.id)).toBeNull();
    expect(await agents.ownerOf(first.id)).toBe('p1');
  });
});
