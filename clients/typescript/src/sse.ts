/**
 * A Server-Sent Events parser (the WHATWG event stream format): text in as it arrives, complete
 * events out. Lines end in CRLF, LF or CR; `data` lines join with LF; a field's value loses one
 * leading space; `id` sets the last event id (kept across events that carry none); `retry` sets
 * the reconnection time; lines starting with a colon are comments (heartbeats). No browser
 * EventSource needed: it runs on Node 20's fetch.
 */

/** One dispatched event. */
export interface SseEvent {
  /** `message` when the stream names none. */
  event: string;
  data: string;
  /** The id this event carried (null: none, the last id stays what it was). */
  id: string | null;
}

export interface SseOutput {
  events: SseEvent[];
  comments: string[];
  /** The last `retry:` value seen in this text (ms), if any. */
  retry?: number;
}

export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private event = '';
  private id: string | null = null;
  private sawData = false;

  /** The events completed by this text (a line cut at the end waits for the next). */
  push(text: string): SseOutput {
    this.buffer += text;
    const out: SseOutput = { events: [], comments: [] };
    const lineEnd = /\r\n|\r|\n/g;
    let start = 0;
    for (let m = lineEnd.exec(this.buffer); m; m = lineEnd.exec(this.buffer)) {
      // A CR at the very end may be the first half of a CRLF: wait for the next chunk.
      if (m[0] === '\r' && m.index === this.buffer.length - 1) break;
      this.line(this.buffer.slice(start, m.index), out);
      start = m.index + m[0].length;
    }
    this.buffer = this.buffer.slice(start);
    return out;
  }

  private line(line: string, out: SseOutput): void {
    if (line === '') {
      if (this.sawData) out.events.push({ event: this.event || 'message', data: this.data.join('\n'), id: this.id });
      this.data = [];
      this.event = '';
      this.id = null;
      this.sawData = false;
      return;
    }
    if (line.startsWith(':')) {
      out.comments.push(line.slice(1).trim());
      return;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'data':
        this.data.push(value);
        this.sawData = true;
        break;
      case 'event':
        this.event = value;
        break;
      case 'id':
        if (!value.includes('\0')) this.id = value;
        break;
      case 'retry':
        if (/^[0-9]+$/.test(value)) out.retry = Number(value);
        break;
      default:
      // unknown fields are ignored
    }
  }
}
