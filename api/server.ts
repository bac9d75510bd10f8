import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Express } from 'express';
import { contextOf } from './app';
import { frontDoor } from './hot/frontDoor';
import { ApiError, ERRORS, type ErrorCode } from './errors';

/**
 * The HTTP server around the Express app. Node's parser refuses some requests before Express
 * sees them (raw non-ASCII bytes in the request line, a request line or headers over 16 KB, a
 * malformed header, a slow client, CONNECT, an unmet Expect) and by default answers them with an
 * empty body or none at all. Here every such request is answered in the error contract's shape,
 * and the connection is closed without a reset: what the client is still sending is read and
 * dropped, so its kernel never discards our answer.
 */

/** Node's default: the request line and all headers together. */
export const MAX_HEADER_BYTES = 16 * 1024;
/** How long a refused connection may keep sending before it is cut. */
const DRAIN_MS = 2000;

/** What is known of a connection's bytes: whether the request being parsed ended its request line (before the current chunk), and whether it was refused. */
interface ConnectionState {
  seenLineEnd: boolean;
  lineEndBeforeChunk: boolean;
  answered: boolean;
}

const connections = new WeakMap<Duplex, ConnectionState>();

function stateOf(socket: Duplex): ConnectionState {
  let state = connections.get(socket);
  if (!state) {
    state = { seenLineEnd: false, lineEndBeforeChunk: false, answered: false };
    connections.set(socket, state);
  }
  return state;
}

/** Whether Node's response on this connection already sent its head (the socket's `_httpMessage`, Node's own field). */
function headersSentOn(socket: Duplex): boolean {
  const message: unknown = '_httpMessage' in socket ? socket._httpMessage : undefined;
  return typeof message === 'object' && message !== null && 'headersSent' in message && Boolean(message.headersSent);
}

const LISTEN_BACKLOG = 4096;

export function listen(app: Express, port: number, host: string): Promise<Server> {
  // A read this process can answer from memory is answered before Express (api/hot/frontDoor.ts).
  const ctx = contextOf(app);
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, ctx ? frontDoor(ctx, app) : app);
  answerWhatExpressNeverSees(server);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    // A burst of connections larger than Node's default queue (511) waits to be accepted instead of
    // being dropped and reset while the event loop is busy (the kernel caps it at somaxconn).
    server.listen({ port, host, backlog: LISTEN_BACKLOG }, () => resolve(server));
  });
}

export function answerWhatExpressNeverSees(server: Server): void {
  server.on('connection', trackRequestLine);
  // A request that parsed: the next bytes on this connection start a new request line.
  server.on('request', (req: IncomingMessage) => void (stateOf(req.socket).seenLineEnd = false));
  server.on('clientError', (err: NodeJS.ErrnoException & { bytesParsed?: number; rawPacket?: Buffer; reason?: string }, socket: Duplex) => {
    refuse(socket, parserError(err, socket));
  });
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    refuse(socket, new ApiError('METHOD_NOT_ALLOWED', 'CONNECT is not supported: this API serves GET and HEAD', {}, { Allow: 'GET, HEAD' }));
  });
  server.on('checkExpectation', (req: IncomingMessage, res) => {
    const error = new ApiError('EXPECTATION_FAILED', `Expectation "${String(req.headers.expect).slice(0, 100)}" is not supported`);
    const body = JSON.stringify(error.toBody());
    res.writeHead(error.status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), Connection: 'close' });
    res.end(body);
  });
}

/**
 * Remembers whether the request being parsed has finished its request line before the current
 * chunk, so a header overflow can be told apart: a URL too long (414) or headers too large (431).
 */
function trackRequestLine(socket: Socket): void {
  const tracked = stateOf(socket);
  tracked.seenLineEnd = false;
  socket.prependListener('data', (chunk: Buffer) => {
    tracked.lineEndBeforeChunk = tracked.seenLineEnd;
    if (!tracked.seenLineEnd && chunk.includes(10)) tracked.seenLineEnd = true;
  });
}

const TOO_LARGE = `over ${MAX_HEADER_BYTES / 1024} KB`;

function parserError(err: { code?: string; bytesParsed?: number; rawPacket?: Buffer; reason?: string }, socket: Duplex): ApiError {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW': {
      const parsed = err.rawPacket?.subarray(0, err.bytesParsed ?? err.rawPacket.length);
      const inRequestLine = !stateOf(socket).lineEndBeforeChunk && !(parsed?.includes(10) ?? false);
      return inRequestLine
        ? new ApiError('URI_TOO_LONG', `Request line ${TOO_LARGE}: send fewer or shorter query parameters`)
        : new ApiError('HEADERS_TOO_LARGE', `Request line and headers together ${TOO_LARGE}`);
    }
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError('REQUEST_TIMEOUT', 'The request was not received in time');
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new ApiError('PAYLOAD_TOO_LARGE', 'Chunk extensions too large');
    case 'HPE_INVALID_URL':
      return new ApiError('BAD_REQUEST', 'Malformed request line: the URL has a byte that must be percent-encoded (non-ASCII, space or control character)');
    default:
      return new ApiError('BAD_REQUEST', `Malformed HTTP request: ${err.reason ?? 'could not be parsed'}`);
  }
}

/** Writes the error as a whole HTTP response, then closes the connection gracefully. */
function refuse(socket: Duplex, error: ApiError): void {
  const state = stateOf(socket);
  if (state.answered) return;
  state.answered = true;
  // Part of another response already went out on this connection: a second one would corrupt it.
  if (!socket.writable || headersSentOn(socket)) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify(error.toBody());
  const headers: Record<string, string | number> = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    Connection: 'close',
    ...error.headers,
  };
  const head = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  // The parser stops reading here; what follows is read and dropped so closing sends no reset.
  socket.removeAllListeners('data');
  socket.on('data', () => undefined);
  socket.on('end', () => socket.destroy());
  socket.resume();
  socket.end(`HTTP/1.1 ${error.status} ${reasonOf(error.code)}\r\n${head}\r\n${body}`);
  setTimeout(() => socket.destroy(), DRAIN_MS).unref();
}

const reasonOf = (code: ErrorCode) => ERRORS[code].error;
