import net from 'node:net';
import { freePortBlock } from './processes';

describe('freePortBlock', () => {
  it('finds consecutive free ports below the ephemeral range, which can then all be bound', async () => {
    const base = await freePortBlock(6);
    expect(base).toBeGreaterThanOrEqual(20_000);
    expect(base + 5).toBeLessThan(32_768);
    const servers = await Promise.all(
      Array.from(
        { length: 6 },
        (_, k) =>
          new Promise<net.Server>((resolve, reject) => {
            const srv = net.createServer();
            srv.once('error', reject);
            srv.listen(base + k, '127.0.0.1', () => resolve(srv));
          }),
      ),
    );
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  });

  it('steps over a block with a taken port', async () => {
    const taken = await freePortBlock(3);
    let other = await freePortBlock(3);
    while (Math.abs(other - taken) < 3) other = await freePortBlock(3);
    const holder = net.createServer().listen(taken + 1, '127.0.0.1');
    await new Promise((r) => holder.once('listening', r));
    try {
      const picks = [taken, other];
      expect(await freePortBlock(3, () => picks.shift() ?? other)).toBe(other);
      expect(picks).toEqual([]);
      await expect(freePortBlock(3, () => taken, 3)).rejects.toThrow('no 3 consecutive free ports');
    } finally {
      await new Promise((r) => holder.close(r));
    }
  });
});
