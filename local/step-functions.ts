import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { ExecutionAbortedError, ExecutionTimeoutError, StateMachine } from 'aws-local-stepfunctions';
import { ENDED_EXECUTIONS_TARGET } from '../functions/shared/event-rules.ts';
import { STATE_MACHINES } from '../functions/shared/state-machines.ts';
import { freePort, LOCAL_ACCOUNT, LOCAL_REGION } from './emulators/util.ts';
import { invokeHandler, REPO_ROOT } from './lambda.ts';
import { TaskPool } from './task-pool.ts';

type TaskHandler = (input: unknown) => Promise<unknown>;

/** `LOCAL_TASK_TIMINGS=1` prints each task's wall time to stderr: where a job's time goes. */
const TASK_TIMINGS = process.env.LOCAL_TASK_TIMINGS === '1';

function timed(name: string, run: TaskHandler): TaskHandler {
  return async (input) => {
    const started = performance.now();
    try {
      return await run(input);
    } finally {
      process.stderr.write(
        `task ${name} ${(performance.now() - started).toFixed(0)} ms (from ${started.toFixed(0)} to ${performance.now().toFixed(0)})\n`,
      );
    }
  };
}

interface Execution {
  executionArn: string;
  stateMachineArn: string;
  name: string;
  input: string;
  status: 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT' | 'ABORTED';
  output?: string;
  error?: string;
  cause?: string;
  startDate: number;
  stopDate?: number;
  done: Promise<void>;
  abort: () => void;
}

export function localStateMachineArn(id: string): string {
  return `arn:aws:states:${LOCAL_REGION}:${LOCAL_ACCOUNT}:stateMachine:${id}`;
}

function localFunctionArn(placeholder: string): string {
  return `arn:aws:lambda:${LOCAL_REGION}:${LOCAL_ACCOUNT}:function:${placeholder}`;
}

interface AslState {
  Type: string;
  Resource?: string;
  Iterator?: { States: Record<string, AslState> };
  ItemProcessor?: { States: Record<string, AslState> };
  Branches?: { States: Record<string, AslState> }[];
}

/** Step Functions' limit on a state's input or output, in UTF-8 bytes. */
export const PAYLOAD_LIMIT_BYTES = 256 * 1024;

/**
 * A task whose input or result passes the payload limit fails as it does on AWS, with
 * `States.DataLimitExceeded` (there no Catch sees it and the execution fails at once; here the
 * state machine's catcher runs, so the execution fails all the same and the failure is visible).
 */
function payloadLimited(placeholder: string, run: TaskHandler): TaskHandler {
  const check = (what: string, value: unknown) => {
    const bytes = Buffer.byteLength(JSON.stringify(value ?? null));
    if (bytes > PAYLOAD_LIMIT_BYTES)
      throw Object.assign(
        new Error(`${placeholder} ${what} is ${bytes} bytes, over the ${PAYLOAD_LIMIT_BYTES}-byte limit`),
        { name: 'States.DataLimitExceeded' },
      );
  };
  return async (input) => {
    check('input', input);
    const output = await run(input);
    check('output', output);
    return output;
  };
}

/** Task overrides are keyed by state name (nested Map/Parallel states included). */
function taskHandlers(
  states: Record<string, AslState>,
  byArn: Map<string, TaskHandler>,
  into: Record<string, TaskHandler>,
) {
  for (const [name, state] of Object.entries(states)) {
    if (state.Type === 'Task' && state.Resource) {
      const handler = byArn.get(state.Resource);
      if (!handler) throw new Error(`State ${name} uses ${state.Resource}, which has no local handler`);
      into[name] = handler;
    }
    const nested = state.ItemProcessor ?? state.Iterator;
    if (nested) taskHandlers(nested.States, byArn, into);
    for (const branch of state.Branches ?? []) taskHandlers(branch.States, byArn, into);
  }
  return into;
}

/**
 * A local Step Functions service: the SDK's StartExecution/DescribeExecution calls (JSON protocol)
 * run the SAME ASL files as AWS, with `aws-local-stepfunctions`, their Lambda tasks mapped to the
 * same handler modules.
 */
export class LocalStepFunctions {
  private readonly machines = new Map<
    string,
    { machine: StateMachine; handlers: Record<string, TaskHandler> }
  >();
  readonly executions = new Map<string, Execution>();
  private server: Server | undefined;
  private readonly pool = new TaskPool();
  endpoint = '';

  constructor(overrides: Record<string, TaskHandler> = {}) {
    for (const definition of STATE_MACHINES) {
      let text = readFileSync(resolve(REPO_ROOT, definition.file), 'utf8');
      const byArn = new Map<string, TaskHandler>();
      for (const [placeholder, task] of Object.entries(definition.tasks)) {
        text = text.replaceAll(`\${${placeholder}}`, localFunctionArn(placeholder));
        const run: TaskHandler =
          overrides[placeholder] ??
          ((input) =>
            task.isolated
              ? this.pool.run(task.handler, input, task.timeoutSeconds * 1000)
              : invokeHandler(task.handler, input, task.timeoutSeconds * 1000));
        const limited = payloadLimited(placeholder, run);
        byArn.set(localFunctionArn(placeholder), TASK_TIMINGS ? timed(placeholder, limited) : limited);
      }
      const asl = JSON.parse(text) as { States: Record<string, AslState> };
      const machine = new StateMachine(asl as never, {
        validationOptions: { checkPaths: true, checkArn: true },
      });
      this.machines.set(localStateMachineArn(definition.name), {
        machine,
        handlers: taskHandlers(asl.States, byArn, {}),
      });
    }
  }

  startExecution(stateMachineArn: string, name: string, input: string): Execution {
    const entry = this.machines.get(stateMachineArn);
    if (!entry)
      throw Object.assign(new Error(`State machine ${stateMachineArn} does not exist`), {
        type: 'StateMachineDoesNotExist',
      });
    const executionArn = `${stateMachineArn.replace(':stateMachine:', ':execution:')}:${name}`;
    const existing = this.executions.get(executionArn);
    if (existing) {
      if (existing.input === input) return existing;
      throw Object.assign(new Error(`Execution ${name} already exists`), { type: 'ExecutionAlreadyExists' });
    }
    const execution: Execution = {
      executionArn,
      stateMachineArn,
      name,
      input,
      status: 'RUNNING',
      startDate: Date.now() / 1000,
      done: Promise.resolve(),
      abort: () => undefined,
    };
    const run = entry.machine.run(JSON.parse(input), {
      overrides: { taskResourceLocalHandlers: entry.handlers as never },
    });
    execution.abort = run.abort;
    execution.done = run.result
      .then(
        (output) => {
          execution.status = 'SUCCEEDED';
          execution.output = JSON.stringify(output);
        },
        (error: Error & { cause?: unknown }) => {
          // ExecutionError wraps the state's own error (a Fail state's Error/Cause, or the task's).
          const cause = error.cause instanceof Error ? error.cause : error;
          execution.status =
            error instanceof ExecutionAbortedError
              ? 'ABORTED'
              : error instanceof ExecutionTimeoutError
                ? 'TIMED_OUT'
                : 'FAILED';
          execution.error = cause.name;
          execution.cause = cause.message;
        },
      )
      .finally(() => {
        execution.stopDate = Date.now() / 1000;
      })
      .then(() => this.reportEnd(execution));
    this.executions.set(executionArn, execution);
    return execution;
  }

  /** StopExecution: the execution ends ABORTED (its catchers do not run, as on AWS). */
  stopExecution(executionArn: string): Execution | undefined {
    const execution = this.executions.get(executionArn);
    if (execution?.status === 'RUNNING') execution.abort();
    return execution;
  }

  /**
   * What EventBridge does on AWS: an execution that ended FAILED, TIMED_OUT or ABORTED is handed to
   * the rule's target (the same handler, with the same event shape). A target that fails is
   * logged, as a dead-lettered event would be.
   */
  private async reportEnd(execution: Execution): Promise<void> {
    const statuses: readonly string[] = ENDED_EXECUTIONS_TARGET.statuses;
    if (!statuses.includes(execution.status)) return;
    const event = {
      version: '0',
      source: 'aws.states',
      'detail-type': 'Step Functions Execution Status Change',
      account: LOCAL_ACCOUNT,
      region: LOCAL_REGION,
      time: new Date().toISOString(),
      resources: [execution.executionArn],
      detail: {
        executionArn: execution.executionArn,
        stateMachineArn: execution.stateMachineArn,
        name: execution.name,
        status: execution.status,
        startDate: Math.round(execution.startDate * 1000),
        stopDate: Math.round((execution.stopDate ?? Date.now() / 1000) * 1000),
        input: execution.input,
        inputDetails: { included: true },
        error: execution.error ?? null,
        cause: execution.cause ?? null,
      },
    };
    await invokeHandler(
      ENDED_EXECUTIONS_TARGET.handler,
      event,
      ENDED_EXECUTIONS_TARGET.timeoutSeconds * 1000,
    ).catch((error: Error) =>
      console.error(`The ended-execution target failed for ${execution.executionArn}: ${error.message}`),
    );
  }

  async listen(): Promise<string> {
    const port = await freePort();
    this.server = createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((done) => this.server?.listen(port, '127.0.0.1', done));
    this.endpoint = `http://127.0.0.1:${port}`;
    return this.endpoint;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const target = String(request.headers['x-amz-target'] ?? '').replace('AWSStepFunctions.', '');
    const reply = (status: number, body: unknown, errorType?: string) => {
      response.writeHead(status, {
        'content-type': 'application/x-amz-json-1.0',
        ...(errorType ? { 'x-amzn-errortype': errorType } : {}),
      });
      response.end(JSON.stringify(body));
    };
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, string>;
      if (target === 'StartExecution') {
        const execution = this.startExecution(
          String(body.stateMachineArn),
          body.name ?? crypto.randomUUID(),
          body.input ?? '{}',
        );
        reply(200, { executionArn: execution.executionArn, startDate: execution.startDate });
      } else if (target === 'StopExecution') {
        const execution = this.stopExecution(String(body.executionArn));
        if (!execution)
          return reply(
            400,
            { __type: 'ExecutionDoesNotExist', message: 'No such execution' },
            'ExecutionDoesNotExist',
          );
        reply(200, { stopDate: Date.now() / 1000 });
      } else if (target === 'DescribeExecution') {
        const execution = this.executions.get(String(body.executionArn));
        if (!execution)
          return reply(
            400,
            { __type: 'ExecutionDoesNotExist', message: 'No such execution' },
            'ExecutionDoesNotExist',
          );
        const { done: _done, abort: _abort, ...visible } = execution;
        reply(200, visible);
      } else {
        reply(
          400,
          { __type: 'UnknownOperationException', message: `${target} is not emulated locally` },
          'UnknownOperationException',
        );
      }
    } catch (error) {
      const type = (error as { type?: string }).type ?? 'InvalidParameterValue';
      reply(400, { __type: type, message: (error as Error).message }, type);
    }
  }

  /** Resolves when every execution started so far has ended. */
  async drain(): Promise<void> {
    await Promise.all([...this.executions.values()].map((execution) => execution.done));
  }

  async close(): Promise<void> {
    await this.pool.close();
    await new Promise<void>((done) => (this.server ? this.server.close(() => done()) : done()));
  }
}
