import type { ServiceOptions } from '../../../../src/service/index';
import {
  createAgentToken,
  firstAgentId,
  signIn,
  startTestService,
  type TestService,
} from '../../../support/local-service';

/** A running service with a signed-in person, their first agent and helpers to call the API over HTTP. */
export interface Harness {
  service: TestService;
  /** The OAuth access token `call` uses by default (tests may replace it after signing in again). */
  accessToken: string;
  agentId: string;
  /** `fetch` on the service with the OAuth bearer (or `token`), JSON bodies when `json` is given. */
  call(path: string, init?: RequestInit & { json?: unknown; token?: string }): Promise<Response>;
  agentToken(): Promise<string>;
  close(): Promise<void>;
}

export async function startHarness(options: Partial<ServiceOptions> = {}): Promise<Harness> {
  const service = await startTestService(options);
  const tokens = await signIn(service);
  const agentId = await firstAgentId(service, tokens.access_token);
  let agentToken: string | undefined;
  const harness: Harness = {
    service,
    accessToken: tokens.access_token,
    agentId,
    call(path, init = {}) {
      const { json, token, ...rest } = init;
      const headers = new Headers(rest.headers);
      headers.set('Authorization', `Bearer ${token ?? harness.accessToken}`);
      if (json !== undefined) headers.set('Content-Type', 'application/json');
      return fetch(`${service.url}${path}`, {
        ...rest,
        headers,
        ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
      });
    },
    async agentToken() {
      agentToken ??= await createAgentToken(service, agentId);
      return agentToken;
    },
    close: () => service.cleanup(),
  };
  return harness;
}

/** A JSON body, loosely typed for assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test assertions read arbitrary fields
export async function json(res: Response): Promise<any> {
  return res.json();
}

/** A listing reduced to the spec's fields (servers may add more, e.g. a content hash). */
export function specListing(listing: { dir: string; files: { path: string; size: number }[] }) {
  return { dir: listing.dir, files: listing.files.map((f) => ({ path: f.path, size: f.size })) };
}
