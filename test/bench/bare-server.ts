/**
 * The load generator's floor for `bench:service`: a bare `node:http` server in a process of its own that
 * answers every request with the same body as the measured route, and nothing else (no routing, no token,
 * no SQL, no log). The same paced load against it shows what the generator, Node's HTTP and the machine
 * cost by themselves, beside the service's p99.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const SERVER = `
const body = process.env.BARE_BODY;
const server = require('node:http').createServer((request, response) => {
  response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  response.end(body);
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

export async function startBareServer(body: string): Promise<{ url: string; pid: number; stop(): void }> {
  const child = spawn(process.execPath, ['-e', SERVER], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, BARE_BODY: body },
  });
  const [port] = await new Promise<string[]>((done, fail) => {
    createInterface({ input: child.stdout }).once('line', (line) => done([line]));
    child.once('exit', (code) => fail(new Error(`the bare server exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, pid: child.pid as number, stop: () => child.kill() };
}
