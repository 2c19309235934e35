import { connectAsync, type MqttClient } from 'mqtt';

/**
 * Publishes sample rows to the dry run's input topic, on the MQTT broker the engine's temporary
 * stream subscribes to. The engine offers no HTTP route into a stream (its `mock` source is fed
 * in-process, `memory` topics have no publish or delete route, `history` reads files on the
 * engine's disk), so a broker both sides reach is the one way in.
 */
export class MqttFeed {
  private constructor(private readonly client: MqttClient) {}

  /** Connects within `timeoutMs`; `tcp://` (the engine's spelling) is MQTT over TCP. */
  static async connect(brokerUrl: string, timeoutMs: number): Promise<MqttFeed> {
    const url = brokerUrl.replace(/^tcp:\/\//i, 'mqtt://');
    const client = await connectAsync(url, { connectTimeout: timeoutMs, reconnectPeriod: 0, clean: true });
    return new MqttFeed(client);
  }

  /** One JSON message per row: the engine's json decoder reads an object as one row. */
  async publish(topic: string, rows: readonly Record<string, unknown>[]): Promise<void> {
    for (const row of rows) await this.client.publishAsync(topic, JSON.stringify(row), { qos: 0 });
  }

  async close(): Promise<void> {
    // Not forced: a forced end drops QoS 0 messages still queued on the socket.
    await this.client.endAsync(false).catch(() => undefined);
  }
}
