import { createBroker } from 'aedes';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

/** A real MQTT broker (aedes) on an ephemeral port of 127.0.0.1, for the dry run's rows. */
export interface TestBroker {
  /** `tcp://127.0.0.1:<port>`: the spelling veloFlux streams and sinks use. */
  url: string;
  close(): Promise<void>;
}

export async function startMqttBroker(): Promise<TestBroker> {
  const broker = createBroker();
  const server = createServer(broker.handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return {
    url: `tcp://127.0.0.1:${port}`,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
