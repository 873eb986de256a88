import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Context } from 'aws-lambda';
import { type FunctionEnvironment, runAsFunction } from '../functions/shared/function-environment.ts';

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

// biome-ignore lint/suspicious/noExplicitAny: handlers have many event types; the caller knows which.
export type LambdaHandler = (event: any, context: Context) => Promise<any>;

const loaded = new Map<string, Promise<LambdaHandler>>();

/** Each function's own environment, by handler module (set by the local stack from the synthesized template). */
let environments: Record<string, FunctionEnvironment> | undefined;
/** Local physical name -> resource name, for the grant checks of task threads. */
let resourceNames: Record<string, string> | undefined;

export function useFunctionEnvironments(
  byHandler: Record<string, FunctionEnvironment>,
  names?: Record<string, string>,
): void {
  environments = byHandler;
  resourceNames = names;
}

export function functionEnvironments(): {
  environments?: Record<string, FunctionEnvironment>;
  resourceNames?: Record<string, string>;
} {
  return { environments, resourceNames };
}

/**
 * Runs `run` as the function of this handler module, with its environment only. Without environments
 * (a tool that invokes one handler), in the process's.
 */
export function asFunction<T>(file: string, run: () => T): T {
  if (!environments) return run();
  const environment = environments[file];
  if (!environment) throw new Error(`No function of the stack runs ${file}`);
  return runAsFunction(environment, run);
}

/** Imports a handler module (once) exactly as Lambda would: its exported `handler`. */
export function loadHandler(file: string): Promise<LambdaHandler> {
  let handler = loaded.get(file);
  if (!handler) {
    handler = import(pathToFileURL(resolve(REPO_ROOT, file)).href).then(
      (module: { handler?: LambdaHandler }) => {
        if (typeof module.handler !== 'function') throw new Error(`${file} does not export a handler`);
        return module.handler;
      },
    );
    loaded.set(file, handler);
  }
  return handler;
}

export function lambdaContext(functionName: string, timeoutMs = 30_000): Context {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

export function functionNameOf(file: string): string {
  return file.split('/').pop()?.replace(/\.ts$/, '') ?? file;
}

export function invokeHandler(file: string, event: unknown, timeoutMs?: number): Promise<unknown> {
  return asFunction(file, async () => {
    const handler = await loadHandler(file);
    return handler(event, lambdaContext(functionNameOf(file), timeoutMs));
  });
}
