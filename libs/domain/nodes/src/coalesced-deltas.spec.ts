import { CoalescedDeltas } from './coalesced-deltas';

/** A write that stays in flight until released, recording what it was given. */
function controlledSend() {
  const sent: string[] = [];
  const releases: (() => void)[] = [];
  const send = (text: string) =>
    new Promise<void>((resolve) => {
      sent.push(text);
      releases.push(resolve);
    });
  const releaseNext = async () => {
    releases.shift()?.();
    // Let the pump see the write resolve and start the next one.
    await new Promise((r) => setImmediate(r));
  };
  return { sent, send, releaseNext };
}

describe('CoalescedDeltas', () => {
  it('writes the first delta at once and the ones arriving meanwhile as one write, in order', async () => {
    const { sent, send, releaseNext } = controlledSend();
    const deltas = new CoalescedDeltas(send);
    deltas.push('SELECT ');
    expect(sent).toEqual(['SELECT ']);
    deltas.push('a, ');
    deltas.push('b ');
    deltas.push('FROM s');
    expect(sent).toEqual(['SELECT ']);
    await releaseNext();
    expect(sent).toEqual(['SELECT ', 'a, b FROM s']);
    await releaseNext();
    await deltas.flush();
    expect(sent.join('')).toBe('SELECT a, b FROM s');
  });

  it('writes each delta on its own when none arrives during a write (a slow stream stays live)', async () => {
    const { sent, send, releaseNext } = controlledSend();
    const deltas = new CoalescedDeltas(send);
    for (const d of ['SELECT ', '1 ', 'FROM t']) {
      deltas.push(d);
      await releaseNext();
    }
    await deltas.flush();
    expect(sent).toEqual(['SELECT ', '1 ', 'FROM t']);
  });

  it('flush rejects with the first failed write, and a later delta starts a new write', async () => {
    let calls = 0;
    const deltas = new CoalescedDeltas(async () => {
      calls += 1;
      if (calls === 1) throw new Error('redis down');
    });
    deltas.push('a');
    await new Promise((r) => setImmediate(r));
    deltas.push('b');
    await expect(deltas.flush()).rejects.toThrow('redis down');
    expect(calls).toBe(2);
  });

  it('flush with nothing pushed resolves, and empty deltas are not written', async () => {
    const sent: string[] = [];
    const deltas = new CoalescedDeltas(async (t) => void sent.push(t));
    deltas.push('');
    await deltas.flush();
    expect(sent).toEqual([]);
  });
});
