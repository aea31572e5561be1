import { connect } from 'node:net';

/**
 * Writes `text` on a fresh TCP connection to the service exactly as given (no HTTP client in between, so
 * conflicting framing headers and absolute-form targets reach the server as an attacker would send them)
 * and resolves to everything the server wrote before it closed or `waitMs` passed.
 */
export function rawExchange(baseUrl: string, text: string, waitMs = 1500): Promise<string> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let received = '';
    const timer = setTimeout(() => socket.destroy(), waitMs);
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(received);
    });
    socket.on('error', reject);
    socket.write(text, 'latin1');
  });
}

/** The status code of each HTTP response in `received`, in order. */
export function statusCodes(received: string): number[] {
  return [...received.matchAll(/^HTTP\/1\.1 (\d{3}) /gm)].map((match) => Number(match[1]));
}
