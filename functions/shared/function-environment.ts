import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The environment of the function that is running. On Lambda each function is its own process, so
 * this is never set and configuration comes from `process.env`. The local stack runs every function
 * in one process: it runs each invocation inside that function's own environment (the variables its
 * synthesized template gives it, `local/function-environments.ts`), so that configuration, and every
 * adapter built from it (`lazy`), belongs to one function as it does on AWS, and a variable the
 * template does not give a function is missing here too.
 */
export interface FunctionEnvironment {
  /** The function's id in the stack (a route id, a task placeholder, a consumer id). */
  readonly name: string;
  readonly variables: Readonly<Record<string, string>>;
  /** What its role allows, read from the same template; the local stack checks every SDK call against it. */
  readonly grants?: readonly FunctionGrant[];
}

/** What one IAM statement of a function's role allows, on one resource of `resources.ts`. */
export interface FunctionGrant {
  resource: string;
  /** A table or one of its indexes, a bucket or its objects, or the whole resource. */
  part: 'table' | 'index' | 'bucket' | 'objects' | 'whole';
  /** The table index it names, for `part: 'index'`. */
  index?: string;
  actions: string[];
  /** `dynamodb:LeadingKeys` prefixes the statement is limited to, when it is. */
  leadingKeys?: string[];
}

const running = new AsyncLocalStorage<FunctionEnvironment>();

export function runAsFunction<T>(environment: FunctionEnvironment, run: () => T): T {
  return running.run(environment, run);
}

/** The function whose invocation is running, or undefined outside one (on Lambda, in tests and tools). */
export function currentFunction(): FunctionEnvironment | undefined {
  return running.getStore();
}
