import { describe, expect, it } from 'vitest';
import { ownAccountUser } from '../../../src/shared/api/own-account';
import { signedInAs } from '../../../src/service/pages/signed-in-as';

describe("this computer's own account in words", () => {
  it('is named by its user on this computer, and any other account by its e-mail', () => {
    expect(ownAccountUser('ana@this-computer', true)).toBe('ana');
    expect(ownAccountUser('ana@this-computer', false)).toBeUndefined(); // a server's account, whatever its name
    expect(ownAccountUser('ana@example.com', true)).toBeUndefined();
    expect(ownAccountUser(undefined, true)).toBeUndefined();
  });

  it("is named so on the service's pages, escaped like any other name", async () => {
    expect(String(await signedInAs('ana@this-computer'))).toBe(
      'Signed in as <strong>ana</strong>, on this computer.',
    );
    expect(String(await signedInAs('<b>x</b>@example.com'))).toBe(
      'Signed in as <strong>&lt;b&gt;x&lt;/b&gt;@example.com</strong>.',
    );
  });
});
