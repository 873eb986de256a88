import { parentPort, workerData } from 'node:worker_threads';
import { enableCompileCache } from './compile-cache.ts';
import { installStreamingShim } from './streaming-shim.ts';

/** Runs Lambda handlers for the local task pool, one invocation at a time. */
enableCompileCache();
installStreamingShim();
const { invokeHandler, useFunctionEnvironments } = await import('./lambda.ts');
const { environments, resourceNames } = workerData as {
  environments?: Parameters<typeof useFunctionEnvironments>[0];
  resourceNames?: Record<string, string>;
};
if (environments) {
  useFunctionEnvironments(environments, resourceNames);
  // This thread's own SDK clients: checked against each function's grants too.
  const clients = await import('../functions/shared/clients.ts');
  const { enforceGrants } = await import('./grants.ts');
  enforceGrants(
    [clients.dynamo, clients.s3, clients.sqs, clients.sfn],
    (target) => resourceNames?.[target] as never,
  );
}

/** `LOCAL_TASK_TIMINGS=1`: each task's CPU time in this thread, beside the wall time the pool prints. */
const TASK_TIMINGS = process.env.LOCAL_TASK_TIMINGS === '1';

parentPort?.on('message', (message: { id: number; handler: string; event: unknown; timeoutMs: number }) => {
  const cpuBefore = process.threadCpuUsage();
  const done = invokeHandler(message.handler, message.event, message.timeoutMs);
  if (TASK_TIMINGS)
    void done
      .catch(() => undefined)
      .then(() => {
        const cpu = process.threadCpuUsage(cpuBefore);
        process.stderr.write(`cpu ${message.handler} ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms\n`);
      });
  done.then(
    (result) => parentPort?.postMessage({ id: message.id, result }),
    (error: Error) =>
      parentPort?.postMessage({
        id: message.id,
        error: { name: error.name, message: error.message, stack: error.stack },
      }),
  );
});
