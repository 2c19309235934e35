import type { ManagerClient } from '@nl2p/engine';

/** A dry run as a killed validator leaves it on the engine: its MQTT input stream and the pipeline reading it. */
export async function leaveDryRun(client: ManagerClient, id: string): Promise<void> {
  await client.createStream({
    name: id,
    type: 'mqtt',
    schema: { type: 'json', props: { columns: [{ name: 'temperature', data_type: 'float64' }] } },
    props: { broker_url: 'tcp://127.0.0.1:9', topic: id, qos: 0 },
    decoder: { type: 'json', props: {} },
  });
  await client.createPipeline({ id, sql: `SELECT temperature FROM ${id}`, sinks: [{ type: 'nop' }] });
}
