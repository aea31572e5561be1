/** Who is signed in, in the person's words: this computer's own account by its user's name. */
import { describe, expect, it } from 'vitest';
import { deletePhrase, whoWords } from '../../../src/renderer/features/account/account-words';
import type { ServiceProfile } from '../../../src/shared/bridge';

const local: ServiceProfile = { id: 'local', kind: 'local', name: 'This computer', clientId: 'agentdesk' };
const server: ServiceProfile = {
  id: 'work',
  kind: 'custom',
  name: 'Work',
  baseUrl: 'https://agents.example.com',
  clientId: 'agentdesk',
};

describe('whoWords and deletePhrase', () => {
  it("name this computer's own account by its user, and ask for plain words to delete it", () => {
    expect(whoWords('ana@this-computer', local)).toBe('ana, on this computer');
    expect(deletePhrase('ana@this-computer', local)).toBe('delete my account');
  });

  it('keep an e-mail the person gave, on this computer or a server, and ask for it to delete', () => {
    expect(whoWords('ana@example.com', local)).toBe('ana@example.com');
    expect(deletePhrase('ana@example.com', local)).toBe('ana@example.com');
    // Another server's account that happens to end the same way is that server's own e-mail.
    expect(whoWords('ana@this-computer', server)).toBe('ana@this-computer');
    expect(deletePhrase('ana@this-computer', server)).toBe('ana@this-computer');
  });

  it('say nothing of an e-mail that was not shared, and still ask for plain words', () => {
    expect(whoWords(undefined, local)).toBeUndefined();
    expect(deletePhrase(undefined, server)).toBe('delete my account');
  });
});
