import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FetchLike } from '../../../src/core/common/result';
import { createApiClient } from '../../../src/core/api/api-client';
import { staticTokenSource } from '../../../src/core/auth/access-token-source';
import { toDeskResult } from '../../../src/core/host/plumbing/call-results';
import { serverExtensionsReader } from '../../../src/core/host/plumbing/server-extensions';
import type { WithApi } from '../../../src/core/host/plumbing/with-api';
import { signIn, startTestService, type TestService } from '../../support/local-service';

// The host's reader of the server's extensions against the real local service over HTTP: screens asking
// together share one read of /openapi.yaml (each read parses ~270 KB on the host's thread), the answer is kept
// for that server, and a failed read is not kept.

let service: TestService;
let token: string;
beforeAll(async () => {
  service = await startTestService();
  token = (await signIn(service)).access_token;
}, 60_000);
afterAll(() => service.cleanup());

function reader(fetch: FetchLike) {
  const api = createApiClient({
    baseUrl: service.url,
    auth: staticTokenSource(token),
    fetch,
    maxAttempts: 1,
  });
  const withApi: WithApi = async (run) => toDeskResult(await run(api));
  return serverExtensionsReader(withApi);
}

const isDescription = (input: Parameters<FetchLike>[0]) =>
  String(input instanceof Request ? input.url : input).endsWith('/openapi.yaml');

it('eight screens asking at once read the description once, and later asks read nothing', async () => {
  let reads = 0;
  const read = reader((input, init) => {
    if (isDescription(input)) reads += 1;
    return fetch(input, init);
  });
  const answers = await Promise.all(Array.from({ length: 8 }, () => read()));
  for (const answer of answers) {
    expect(answer.ok).toBe(true);
    if (answer.ok) expect(answer.value).toContain('createAgent');
  }
  expect(reads).toBe(1);
  expect((await read()).ok).toBe(true);
  expect(reads).toBe(1);
}, 30_000);

it('a read that failed is not kept: the next ask reads again', async () => {
  let reads = 0;
  const read = reader((input, init) => {
    if (!isDescription(input)) return fetch(input, init);
    reads += 1;
    return reads === 1 ? Promise.reject(new TypeError('fetch failed')) : fetch(input, init);
  });
  const [first, second] = await Promise.all([read(), read()]);
  expect(first.ok).toBe(false);
  expect(second.ok).toBe(false);
  const third = await read();
  expect(third.ok).toBe(true);
  expect(reads).toBe(2);
}, 30_000);
