import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { answerEnd, getRequest, LeanConnection } from '../../bench/lean-connection';

const bytes = (text: string) => Buffer.from(text, 'latin1');

describe('answerEnd', () => {
  it('waits for the whole body a Content-Length names', () => {
    const head = 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n';
    expect(answerEnd(bytes(head))).toBe(-1);
    expect(answerEnd(bytes(`${head}abc`))).toBe(-1);
    expect(answerEnd(bytes(`${head}abcde`))).toBe(head.length + 5);
    expect(answerEnd(bytes('HTTP/1.1 200 OK\r\ncontent-length:5'))).toBe(-1);
  });

  it('reads a chunked body to its last chunk', () => {
    const head = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n';
    expect(answerEnd(bytes(`${head}2\r\n[]\r\n`))).toBe(-1);
    const whole = `${head}2\r\n[]\r\n0\r\n\r\n`;
    expect(answerEnd(bytes(whole))).toBe(whole.length);
  });

  it('ends an answer without a body at its head', () => {
    const head = 'HTTP/1.1 304 Not Modified\r\nETag: "1"\r\n\r\n';
    expect(answerEnd(bytes(head))).toBe(head.length);
  });
});

let server: net.Server | undefined;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

/** A real socket server that answers every request in three writes a few ms apart, as a slow peer does. */
async function slowPeer(): Promise<{ url: URL; requests: string[] }> {
  const requests: string[] = [];
  server = net.createServer((socket) => {
    socket.on('data', (chunk) => {
      requests.push(chunk.toString('latin1'));
      const n = requests.length;
      const pieces = [`HTTP/1.1 20${n} OK\r\nContent-`, `Length: 2\r\n\r\n[`, ']'];
      pieces.forEach((piece, i) => setTimeout(() => socket.write(piece), i * 5));
    });
  });
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  return { url: new URL(`http://127.0.0.1:${(server!.address() as AddressInfo).port}/a?b=1`), requests };
}

describe('LeanConnection', () => {
  it('sends each GET with its headers and gives each answer status once it is whole', async () => {
    const { url, requests } = await slowPeer();
    const connection = new LeanConnection(url, () => {});
    const request = getRequest(url, { Authorization: 'Bearer t' });
    const ask = () => new Promise<number | null>((done) => connection.send(request, done));
    expect(await ask()).toBe(201);
    expect(await ask()).toBe(202);
    connection.destroy();
    expect(requests).toHaveLength(2);
    expect(requests[0]).toBe(
      `GET /a?b=1 HTTP/1.1\r\nHost: ${url.host}\r\nConnection: keep-alive\r\nAuthorization: Bearer t\r\n\r\n`,
    );
  });

  it('gives null to a request whose connection closed before its answer', async () => {
    server = net.createServer((socket) => socket.on('data', () => socket.destroy()));
    await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    let closed = 0;
    const connection = new LeanConnection(url, () => closed++);
    const status = await new Promise<number | null>((done) => connection.send(getRequest(url, {}), done));
    expect(status).toBeNull();
    expect(closed).toBe(1);
    expect(connection.closed).toBe(true);
  });
});
