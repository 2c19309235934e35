/** One Server-Sent Event as the gateway sends it (`id`, `event`, `data`). */
export interface SseMessage {
  id: string | undefined;
  event: string;
  data: string;
}

/**
 * A small incremental parser for `text/event-stream` (WHATWG HTML §9.2): feed it chunks as they
 * arrive, it calls `onMessage` once per dispatched event. Comments and `retry` are ignored.
 */
export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private event = '';
  private id: string | undefined;
  private lastId: string | undefined;
  private sawCr = false;

  constructor(private readonly onMessage: (m: SseMessage) => void) {}

  feed(chunk: string): void {
    let text = chunk;
    // A CRLF split across two chunks: the LF was already taken as part of the line end.
    if (this.sawCr && text.startsWith('\n')) text = text.slice(1);
    this.sawCr = false;
    this.buffer += text;
    let start = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const c = this.buffer[i];
      if (c !== '\n' && c !== '\r') continue;
      this.line(this.buffer.slice(start, i));
      if (c === '\r') {
        if (i + 1 < this.buffer.length) {
          if (this.buffer[i + 1] === '\n') i++;
        } else {
          this.sawCr = true;
        }
      }
      start = i + 1;
    }
    this.buffer = this.buffer.slice(start);
  }

  /** The id of the last event dispatched, for `Last-Event-ID` on reconnect. */
  get lastEventId(): string | undefined {
    return this.lastId;
  }

  private line(line: string): void {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'data':
        this.data.push(value);
        break;
      case 'event':
        this.event = value;
        break;
      case 'id':
        if (!value.includes('\0')) this.id = value;
        break;
      default:
        break;
    }
  }

  private dispatch(): void {
    if (this.id !== undefined) this.lastId = this.id;
    if (this.data.length) {
      this.onMessage({ id: this.lastId, event: this.event || 'message', data: this.data.join('\n') });
    }
    this.data = [];
    this.event = '';
  }
}
