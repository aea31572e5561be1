import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

/** What Node's parser could not take, as the status Node itself would give, with the spec's error body. */
function answerFor(code: string | undefined): {
  status: number;
  reason: string;
  error: string;
  detalle: string;
} {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return {
      status: 431,
      reason: 'Request Header Fields Too Large',
      error: 'cabeceras_demasiado_grandes',
      detalle: 'The request line and headers are over 16 KB; send a shorter address or fewer headers.',
    };
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return {
      status: 408,
      reason: 'Request Timeout',
      error: 'tiempo_agotado',
      detalle: 'The request took too long to arrive.',
    };
  }
  return {
    status: 400,
    reason: 'Bad Request',
    error: 'body_invalido',
    detalle: 'The request is not valid HTTP/1.1.',
  };
}

/**
 * Requests Node's HTTP parser refuses (a header block over the limit, a malformed request line, conflicting
 * framing) never reach the app; Node would answer them with a bare status. They get the same status with the
 * spec's `{error, detalle}` body and the connection closed, like every other refusal of the service.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const pending = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || pending?.headersSent) {
      socket.destroy();
      return;
    }
    const answer = answerFor(error.code);
    const body = JSON.stringify({ error: answer.error, detalle: answer.detalle });
    socket.end(
      `HTTP/1.1 ${answer.status} ${answer.reason}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
