import { parentPort } from 'node:worker_threads';
import { installStreamingShim } from './streaming-shim.ts';

/** Runs Lambda handlers for the local task pool, one invocation at a time. */
installStreamingShim();
const { invokeHandler } = await import('./lambda.ts');

parentPort?.on('message', (message: { id: number; handler: string; event: unknown; timeoutMs: number }) => {
  invokeHandler(message.handler, message.event, message.timeoutMs).then(
    (result) => parentPort?.postMessage({ id: message.id, result }),
    (error: Error) =>
      parentPort?.postMessage({
        id: message.id,
        error: { name: error.name, message: error.message, stack: error.stack },
      }),
  );
});
