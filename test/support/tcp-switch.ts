import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A plain TCP forwarder on a fixed 127.0.0.1 port, for "the server went away": `down()` cuts every
 * open connection (a stream in the middle of a reply included) and refuses new ones, as a stopped
 * server does; `up()` takes connections again on the same port. Bytes pass unchanged.
 */
export interface TcpSwitch {
  url: string;
  down(): Promise<void>;
  up(): Promise<void>;
}

export async function startTcpSwitch(target: string): Promise<TcpSwitch> {
  const upstream = new URL(target);
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  };
  const up = async () => {
    if (server?.listening) return;
    server = createServer((client) => {
      const service = connect(Number(upstream.port), upstream.hostname);
      track(client);
      track(service);
      client.pipe(service).pipe(client);
    });
    await new Promise<void>((ok) => server!.listen(port, '127.0.0.1', ok));
    port = (server.address() as { port: number }).port;
  };
  const down = async () => {
    if (!server?.listening) return;
    const closed = new Promise<void>((ok) => server!.close(() => ok()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  await up();
  return { url: `http://127.0.0.1:${port}${upstream.pathname.replace(/\/$/, '')}`, up, down };
}
