/**
 * A Server-Sent Events parser as the HTML standard defines it (§9.2.6): lines end in CR, LF or CRLF
 * (a CR at the end of one chunk and an LF at the start of the next are one line end), `data` lines
 * join with LF, one space after the colon is dropped, comments are skipped, the last event id holds
 * until an `id` line changes it, and an event without data is not dispatched. It is fed bytes in
 * whatever pieces the socket gives, and returns every event each piece completed — all of them, so a
 * read that carries several events loses none.
 */
export type ServerSentEvent = {
  /** The `event:` name; `message` when none was given. */
  event: string;
  data: string;
  /** The last event id seen so far in the stream (what a reconnect sends as `Last-Event-ID`). */
  id: string | undefined;
  /** A `retry:` the event carried, in milliseconds. */
  retry?: number;
};

export class ServerSentEventParser {
  private readonly decoder = new TextDecoder();
  private buffer = '';
  private afterCarriageReturn = false;
  private firstChunk = true;
  private data: string[] = [];
  private eventName = '';
  private retry: number | undefined;
  lastEventId: string | undefined;

  constructor(lastEventId?: string) {
    this.lastEventId = lastEventId;
  }

  /** The events completed by this piece of the stream, in order. */
  push(chunk: Uint8Array | string): ServerSentEvent[] {
    let text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    if (this.firstChunk && text.length > 0) {
      this.firstChunk = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    // An LF right after a CR that ended the previous piece belongs to that line end.
    if (this.afterCarriageReturn && text.startsWith('\n')) text = text.slice(1);
    this.afterCarriageReturn = false;
    this.buffer += text;
    const events: ServerSentEvent[] = [];
    let start = 0;
    for (let index = 0; index < this.buffer.length; index += 1) {
      const character = this.buffer.charCodeAt(index);
      if (character !== 10 && character !== 13) continue;
      const event = this.line(this.buffer.slice(start, index));
      if (event) events.push(event);
      if (character === 13) {
        if (index + 1 === this.buffer.length) this.afterCarriageReturn = true;
        else if (this.buffer.charCodeAt(index + 1) === 10) index += 1;
      }
      start = index + 1;
    }
    this.buffer = this.buffer.slice(start);
    return events;
  }

  private line(line: string): ServerSentEvent | undefined {
    if (line.length === 0) return this.dispatch();
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.eventName = value;
    else if (field === 'id' && !value.includes('\0')) this.lastEventId = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.retry = Number(value);
    return undefined;
  }

  private dispatch(): ServerSentEvent | undefined {
    const data = this.data;
    const eventName = this.eventName;
    const retry = this.retry;
    this.data = [];
    this.eventName = '';
    this.retry = undefined;
    if (data.length === 0) return undefined;
    return {
      event: eventName || 'message',
      data: data.join('\n'),
      id: this.lastEventId,
      ...(retry !== undefined && { retry }),
    };
  }
}
