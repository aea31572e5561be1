import type { FetchLike } from '../../../../src/core/common/result';

export interface RecordedCall {
  method: string;
  url: URL;
  authorization: string | undefined;
  lastEventId: string | undefined;
  body: string | undefined;
  status: number | 'network-error';
}

/** Real fetch with a log of every call, so tests can count refreshes and compare resent bodies. */
export function recordingFetch(): FetchLike & { calls: RecordedCall[]; count(path: string): number } {
  const calls: RecordedCall[] = [];
  const wrapped = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers);
    const call: RecordedCall = {
      method: init?.method ?? 'GET',
      url: new URL(input instanceof Request ? input.url : input),
      authorization: headers.get('authorization') ?? undefined,
      lastEventId: headers.get('last-event-id') ?? undefined,
      body:
        typeof init?.body === 'string'
          ? init.body
          : init?.body instanceof URLSearchParams
            ? init.body.toString()
            : undefined,
      status: 'network-error',
    };
    calls.push(call);
    const response = await fetch(input, init);
    call.status = response.status;
    return response;
  };
  return Object.assign(wrapped, {
    calls,
    count: (path: string) => calls.filter((call) => call.url.pathname === path).length,
  });
}
