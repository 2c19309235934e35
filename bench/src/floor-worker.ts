// One "service" of the floor (bench/src/floor.ts): a raw BullMQ worker on one queue that hands
// each job on to the next queue of its route, carrying the payload unchanged. Nothing else: no
// checkpoint, event, trace or parse beyond BullMQ's own. Run directly by Node (type stripping),
// so it imports only packages, never the workspace's path aliases.
import { Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';

interface HopData {
  chain: string;
  route: string[];
  hop: number;
  payload: unknown;
}

const url = process.env.REDIS_URL;
const prefix = process.env.FLOOR_PREFIX;
const consumes = process.env.FLOOR_QUEUE;
const concurrency = Number(process.env.FLOOR_CONCURRENCY ?? '8');
if (!url || !prefix || !consumes) throw new Error('REDIS_URL, FLOOR_PREFIX and FLOOR_QUEUE are required');

const connection = new Redis(url, { maxRetriesPerRequest: null });
const queues = new Map<string, Queue>();
const queue = (name: string): Queue => {
  let q = queues.get(name);
  if (!q) {
    q = new Queue(name, { connection, prefix });
    queues.set(name, q);
  }
  return q;
};

const worker = new Worker<HopData>(
  consumes,
  async (job: Job<HopData>) => {
    const { chain, route, hop } = job.data;
    const next = hop + 1;
    if (next < route.length) {
      await queue(route[next]).add(
        'hop',
        { ...job.data, hop: next },
        { jobId: `${chain}-${next}`, removeOnComplete: true, removeOnFail: true },
      );
    }
    return null;
  },
  { connection: new Redis(url, { maxRetriesPerRequest: null }), prefix, concurrency },
);

const stop = () => {
  void Promise.all([worker.close(), ...[...queues.values()].map((q) => q.close())]).finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
