import { availableParallelism } from 'node:os';
import { SHARE_ENV, Worker } from 'node:worker_threads';
import { tuneV8ForPdfJs } from '../functions/engine/io/v8-tuning.ts';
import { functionEnvironments } from './lambda.ts';

/**
 * Task threads load the handlers through Node's own type stripping (the code is erasable TypeScript:
 * `erasableSyntaxOnly` in tsconfig), not through tsx, whose transforms and source maps made the extraction
 * tasks ~40 % slower; tsx only where Node cannot strip types.
 */
const TASK_WORKER_EXEC_ARGV = [
  ...((process.features as { typescript?: unknown }).typescript ? [] : ['--import', 'tsx']),
  // `LOCAL_TASK_PROFILE=dir`: each task thread writes a V8 CPU profile there when it ends.
  ...(process.env.LOCAL_TASK_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.LOCAL_TASK_PROFILE}`]
    : []),
];

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/**
 * Worker threads for CPU-heavy state-machine tasks (PDF extraction), so the local API server's event
 * loop stays free while a job processes — as on AWS, where each task is its own Lambda.
 */
export class TaskPool {
  private readonly workers: { worker: Worker; busy: boolean }[] = [];
  private readonly queue: {
    message: { handler: string; event: unknown; timeoutMs: number };
    pending: Pending;
  }[] = [];
  private readonly pending = new Map<number, Pending & { slot: { worker: Worker; busy: boolean } }>();
  private nextId = 1;

  private readonly size: number;

  constructor(size = Math.max(1, availableParallelism())) {
    this.size = size;
    // The task threads run the extraction engine, which may not change V8's flags from a worker thread.
    tuneV8ForPdfJs();
  }

  private spawn(): { worker: Worker; busy: boolean } {
    const worker = new Worker(new URL('./task-worker.ts', import.meta.url), {
      execArgv: TASK_WORKER_EXEC_ARGV,
      env: SHARE_ENV,
      // Each task runs in its function's own environment there too.
      workerData: functionEnvironments(),
    });
    const slot = { worker, busy: false };
    worker.on(
      'message',
      (message: {
        id: number;
        result?: unknown;
        error?: { name: string; message: string; stack?: string };
      }) => {
        const entry = this.pending.get(message.id);
        if (!entry) return;
        this.pending.delete(message.id);
        slot.busy = false;
        if (message.error)
          entry.reject(
            Object.assign(new Error(message.error.message), {
              name: message.error.name,
              stack: message.error.stack,
            }),
          );
        else entry.resolve(message.result);
        this.drain();
      },
    );
    worker.on('error', (error) => {
      for (const [id, entry] of this.pending) {
        if (entry.slot === slot) {
          this.pending.delete(id);
          entry.reject(error);
        }
      }
      this.workers.splice(this.workers.indexOf(slot), 1);
      this.drain();
    });
    worker.unref();
    this.workers.push(slot);
    return slot;
  }

  run(handler: string, event: unknown, timeoutMs: number): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.queue.push({ message: { handler, event, timeoutMs }, pending: { resolve, reject } });
      this.drain();
    });
  }

  private drain(): void {
    while (this.queue.length > 0) {
      let slot = this.workers.find((candidate) => !candidate.busy);
      if (!slot && this.workers.length < this.size) slot = this.spawn();
      if (!slot) return;
      const next = this.queue.shift();
      if (!next) return;
      const id = this.nextId++;
      slot.busy = true;
      this.pending.set(id, { ...next.pending, slot });
      slot.worker.postMessage({ id, ...next.message });
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((slot) => slot.worker.terminate()));
    this.workers.length = 0;
  }
}
