import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClock } from '../../../../src/service/index';
import { hiddenField, startTestService, type TestService } from '../../../support/local-service';
import { ProxyClient } from '../server/harness';

// An invitation link over real HTTP once its time is up: the page opened before the end cannot make the
// account after it, the link is refused in words, and no account appears. A made-up code alike.

const clock = createTestClock();
let service: TestService;
beforeAll(async () => {
  service = await startTestService({ clock });
});
afterAll(() => service?.cleanup());

// A minute's invitation (the store takes days): the form's own session outlives it.
const MINUTE_IN_DAYS = 1 / (24 * 60);

describe('an expired invitation', () => {
  it('refuses the form opened before the end, and the link, and makes no account', async () => {
    const invite = await service.context.identity.invites.create('late@example.test', MINUTE_IN_DAYS);
    const browser = new ProxyClient(service.url);
    const page = await browser.get(`/invite?code=${encodeURIComponent(invite.code)}`);
    expect(page.status).toBe(200);
    const fields = { csrf: hiddenField(page.body, 'csrf'), code: hiddenField(page.body, 'code') };

    clock.advance(60_001);
    const late = await browser.post('/invite', {
      ...fields,
      password: 'late password 1',
      password2: 'late password 1',
    });
    expect(late.status).toBe(404);
    expect(late.body).toContain('It was already used or has expired.');
    expect((await browser.get(`/invite?code=${encodeURIComponent(invite.code)}`)).status).toBe(404);
    expect(await service.context.identity.persons.findByEmail('late@example.test')).toBeFalsy();

    const forged = await browser.post('/invite', {
      ...fields,
      code: 'inv_made-up',
      password: 'x password 1',
      password2: 'x password 1',
    });
    expect(forged.status).toBe(404);
  });
});
