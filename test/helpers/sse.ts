/** A message's JSON data, as far as the tests read it. */
export interface SseData {
  [field: string]: unknown;
  eventId?: string;
  kind?: string;
  reason?: string;
  code?: string;
  requestId?: string;
  data?: { [field: string]: unknown; home?: number; recommendationId?: string };
}

/** One parsed Server-Sent Events message (comments kept apart). */
export interface SseMessage {
  id: string | null;
  event: string;
  data: SseData;
}

/** A refusal's JSON body (or its text as `raw`). */
export interface RefusalBody {
  [field: string]: unknown;
  code?: string;
}

/**
 * A Server-Sent Events client over fetch: the response's status and headers, the messages parsed
 * as they arrive, the comments (heartbeats), and `next(n)` waiting for n more messages.
 */
export interface SseClient {
  status: number;
  headers: Headers;
  /** The JSON body of a refusal (non-200). */
  body: RefusalBody;
  messages: SseMessage[];
  comments: string[];
  ended: Promise<void>;
  isEnded(): boolean;
  /** Resolves once `count` messages have arrived in all (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<SseMessage[]>;
  close(): void;
}

export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
  const controller = new AbortController();
  const res = await fetch(url, { headers: { Accept: 'text/event-stream', ...headers }, signal: controller.signal });
  const messages: SseMessage[] = [];
  const comments: string[] = [];
  let ended = false;
  let wake: () => void = () => undefined;
  let body: RefusalBody = {};
  let done: Promise<void>;
  if (res.status !== 200 || !res.body) {
    const text = await res.text();
    try {
      body = JSON.parse(text);
    } catch {
      body = { raw: text };
    }
    ended = true;
    done = Promise.resolve();
  } else {
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    done = (async () => {
      let buf = '';
      try {
        for (;;) {
          const { value, done: over } = await reader.read();
          if (over) break;
          buf += decoder.decode(value, { stream: true });
          let cut: number;
          while ((cut = buf.indexOf('\n\n')) >= 0) {
            const block = buf.slice(0, cut);
            buf = buf.slice(cut + 2);
            let id: string | null = null;
            let event = 'message';
            const data: string[] = [];
            let any = false;
            for (const line of block.split('\n')) {
              if (line.startsWith(':')) comments.push(line.slice(1).trim());
              else if (line.startsWith('id: ')) ((id = line.slice(4)), (any = true));
              else if (line.startsWith('event: ')) ((event = line.slice(7)), (any = true));
              else if (line.startsWith('data: ')) (data.push(line.slice(6)), (any = true));
            }
            if (any && data.length) messages.push({ id, event, data: JSON.parse(data.join('\n')) });
            wake();
          }
        }
      } catch {
        // aborted
      } finally {
        ended = true;
        wake();
      }
    })();
  }
  return {
    status: res.status,
    headers: res.headers,
    body,
    messages,
    comments,
    ended: done,
    isEnded: () => ended,
    async waitFor(count, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < count) {
        if (ended) throw new Error(`stream ended with ${messages.length} of ${count} messages: ${JSON.stringify(messages)}`);
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`${messages.length} of ${count} messages after ${timeoutMs} ms: ${JSON.stringify(messages)}`);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, Math.min(left, 50));
          wake = () => (clearTimeout(t), resolve());
        });
      }
      return messages.slice(0, count);
    },
    close: () => controller.abort(),
  };
}
