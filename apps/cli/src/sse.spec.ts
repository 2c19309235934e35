import { SseParser, type SseMessage } from './sse';

function parse(chunks: string[]): { messages: SseMessage[]; lastId: string | undefined } {
  const messages: SseMessage[] = [];
  const parser = new SseParser((m) => messages.push(m));
  for (const c of chunks) parser.feed(c);
  return { messages, lastId: parser.lastEventId };
}

describe('SseParser', () => {
  it('dispatches id, event and data at each blank line', () => {
    const { messages, lastId } = parse([
      'id: 1-0\nevent: node_start\ndata: {"a":1}\n\n',
      ': a comment\nid: 1-1\nevent: end\ndata: {"status":"waiting"}\n\n',
    ]);
    expect(messages).toEqual([
      { id: '1-0', event: 'node_start', data: '{"a":1}' },
      { id: '1-1', event: 'end', data: '{"status":"waiting"}' },
    ]);
    expect(lastId).toBe('1-1');
  });

  it('joins multi-line data, defaults the type to message, and survives any chunking and line ending', () => {
    const stream = 'data: first\r\ndata: second\r\n\r\nevent: x\rdata:no-space\r\r';
    const whole = parse([stream]).messages;
    expect(whole).toEqual([
      { id: undefined, event: 'message', data: 'first\nsecond' },
      { id: undefined, event: 'x', data: 'no-space' },
    ]);
    for (let size = 1; size <= 5; size++) {
      const chunks = stream.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g'))!;
      expect(parse(chunks).messages).toEqual(whole);
    }
  });

  it('holds an event until its blank line arrives', () => {
    const { messages } = parse(['event: draft_delta\ndata: {"delta":"SEL', 'ECT "}\n']);
    expect(messages).toEqual([]);
  });
});
