import { connect } from 'node:net';

export interface RawAnswer {
  /** 0 when no status line came back. */
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The connection was reset (ECONNRESET/EPIPE) before or while the answer was read. */
  reset: boolean;
  /** No answer and no close within the time limit. */
  hung: boolean;
}

/**
 * Sends bytes exactly as given (no client library would send most of these) and reads the
 * answer until the server closes or the first response is complete. The socket stays open for
 * writing after the request, as a browser's or an HTTP library's would: a server that closes
 * with unread bytes resets it, which is what this must see.
 */
export function rawRequest(url: string, request: string | Buffer, timeoutMs = 5000): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let data = Buffer.alloc(0);
    let reset = false;
    let settled = false;
    const finish = (hung = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...parse(data), reset, hung });
    };
    const timer = setTimeout(() => finish(true), timeoutMs);
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNRESET' || err.code === 'EPIPE') reset = true;
      finish();
    });
    socket.on('data', (chunk) => {
      data = Buffer.concat([data, chunk]);
      if (complete(data)) finish();
    });
    socket.on('close', () => finish());
    socket.write(request);
  });
}

function split(data: Buffer): { head: string; body: Buffer } | undefined {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  return { head: data.subarray(0, end).toString('latin1'), body: data.subarray(end + 4) };
}

function complete(data: Buffer): boolean {
  const parts = split(data);
  if (!parts) return false;
  const length = /\r\ncontent-length: *(\d+)/i.exec(parts.head);
  return length ? parts.body.length >= Number(length[1]) : false;
}

function parse(data: Buffer): Pick<RawAnswer, 'status' | 'headers' | 'body'> {
  const parts = split(data);
  if (!parts) return { status: 0, headers: {}, body: data.toString('utf8') };
  const [statusLine, ...lines] = parts.head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  const length = Number(headers['content-length'] ?? parts.body.length);
  return { status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0), headers, body: parts.body.subarray(0, length).toString('utf8') };
}

/** A GET request line with the given target and extra header lines. */
export const get = (target: string | Buffer, headers: string[] = []) =>
  Buffer.concat([
    Buffer.from('GET '),
    Buffer.isBuffer(target) ? target : Buffer.from(target, 'latin1'),
    Buffer.from(` HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n${headers.map((h) => `${h}\r\n`).join('')}\r\n`, 'latin1'),
  ]);
