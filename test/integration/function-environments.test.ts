import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { entities } from '../../functions/adapters/dynamodb/table.ts';
import { askQuestion } from '../../functions/core/reviews/reviews.ts';
import { dynamo } from '../../functions/shared/clients.ts';
import { runAsFunction } from '../../functions/shared/function-environment.ts';
import { logger } from '../../functions/shared/logger.ts';
import { RESOURCES } from '../../functions/shared/resources.ts';
import { ROUTES } from '../../functions/shared/routes.ts';
import { projectStore, reviewStore } from '../../functions/shared/wiring/adapters.ts';
import { type SynthesizedFunction, synthesizeFunctions } from '../../local/function-environments.ts';
import { enforceGrants, localResourceNames } from '../../local/grants.ts';
import { invokeHandler, useFunctionEnvironments } from '../../local/lambda.ts';
import { localName } from '../../local/stack.ts';
import { LocalStepFunctions, localStateMachineArn } from '../../local/step-functions.ts';
import { specificationPdf } from '../fixtures/pdfs.ts';
import {
  api,
  createOrg,
  createProject,
  startIngest,
  type TestOrg,
  waitForJobEnd,
  waitForProject,
} from './helpers.ts';

/**
 * On AWS each function has only the variables (and grants) its template gives it. The local stack runs
 * every function in one process, so it runs each invocation inside that function's own environment,
 * read from the synthesized cloud assembly: a variable the template does not give a function is
 * missing here too, and the task that needs it fails here as it would on AWS.
 */
describe('each function runs with exactly the environment of its synthesized template', () => {
  const environments = inject('functionEnvironments');
  const resourceVariables: string[] = Object.values(RESOURCES).map((resource) => resource.env);
  let functions: SynthesizedFunction[];
  let org: TestOrg;
  let projectId: string;
  let reviewId: string;
  const reviewMachine = localStateMachineArn(RESOURCES.reviewExecutionStateMachine.name);

  /** A queued execution of a question, recorded as the ask route records it, that nothing has started. */
  const queuedExecution = async (question: string) => {
    const { execution } = await askQuestion(
      {
        projects: projectStore(),
        reviews: reviewStore(),
        starter: { start: async () => undefined },
        answerer: 'extractive',
      },
      { orgId: org.orgId, projectId, reviewId, idempotencyKey: crypto.randomUUID(), ask: { question } },
    );
    return execution;
  };
  const executionOf = async (executionId: string) =>
    (
      await api(`/api/open/v1/projects/${projectId}/reviews/${reviewId}/executions/${executionId}`, {
        key: org.apiKey,
      })
    ).body.execution;

  beforeAll(async () => {
    functions = synthesizeFunctions();
    // The handlers this file invokes run in this process: with the local stack's environments and grants.
    useFunctionEnvironments(environments);
    const names = localResourceNames(localName);
    enforceGrants([dynamo], (target) => names[target]);
    org = await createOrg();
    projectId = String((await createProject(org.apiKey, 'Function environments')).body.project.id);
    await waitForProject(org.apiKey, projectId);
    const jobId = await startIngest(org.apiKey, projectId, [
      { fileName: 'spec-09-29-00.pdf', bytes: await specificationPdf() },
    ]);
    await waitForJobEnd(org.apiKey, jobId);
    reviewId = (
      await api(`/api/open/v1/projects/${projectId}/reviews`, {
        method: 'POST',
        key: org.apiKey,
        body: { name: 'Environments' },
        headers: { 'idempotency-key': 'environments' },
      })
    ).body.review.id;
  }, 300_000);

  it('gives the local stack every deployed function, each with the resources of its template and no other', () => {
    // Assess
    expect(Object.keys(environments).sort()).toEqual(functions.map((fn) => fn.handler).sort());
    for (const fn of functions) {
      const given = environments[fn.handler]?.variables ?? {};
      expect(
        Object.keys(fn.variables).filter((name) => given[name] === undefined),
        fn.id,
      ).toEqual([]);
      expect(
        resourceVariables.filter((name) => name in given),
        fn.id,
      ).toEqual(resourceVariables.filter((name) => name in fn.variables));
      // The key itself stands in for its secret, for the functions bound to the secret only.
      expect('SIGNING_KEY' in given, fn.id).toBe(RESOURCES.signingKey.env in fn.variables);
    }
  });

  it('checks every call a function makes against its synthesized role: a read route may read, count its requests, and nothing else', async () => {
    // Prepare: the getProject route (table: read), run as the stack runs it
    const getProject = functions.find((fn) => fn.id === 'getProject');
    const environment = environments[getProject?.handler ?? ''];
    if (!environment) throw new Error('no getProject function');
    const table = process.env.TABLE_NAME;
    const attempt = (call: () => Promise<unknown>) =>
      runAsFunction(environment, call).then(
        () => 'allowed',
        (error: Error) => error.name,
      );
    // Act
    const outcomes = await Promise.all([
      attempt(() =>
        dynamo.send(new GetCommand({ TableName: table, Key: entities.project.key(org.orgId, projectId) })),
      ),
      attempt(() =>
        dynamo.send(
          new UpdateCommand({
            TableName: table,
            Key: { pk: `RATE#${org.orgId}`, sk: 'grant-check' },
            UpdateExpression: 'ADD hits :one',
            ExpressionAttributeValues: { ':one': 1 },
          }),
        ),
      ),
      attempt(() =>
        dynamo.send(
          new UpdateCommand({
            TableName: table,
            Key: entities.project.key(org.orgId, projectId),
            UpdateExpression: 'SET #name = :name',
            ExpressionAttributeNames: { '#name': 'name' },
            ExpressionAttributeValues: { ':name': 'renamed' },
          }),
        ),
      ),
      attempt(() => dynamo.send(new PutCommand({ TableName: table, Item: { pk: 'X', sk: 'grant-check' } }))),
    ]);
    // Assess
    expect(outcomes).toEqual(['allowed', 'allowed', 'AccessDeniedException', 'AccessDeniedException']);
  });

  it('answers a question with each task of the review machine in its own environment', async () => {
    // Prepare
    const execution = await queuedExecution('Who pays the permit fees?');
    const machines = new LocalStepFunctions();
    // Act
    const run = machines.startExecution(
      reviewMachine,
      execution.id,
      JSON.stringify({ orgId: org.orgId, executionId: execution.id }),
    );
    await run.done;
    // Assess
    expect({ status: run.status, error: run.cause }).toEqual({ status: 'SUCCEEDED', error: undefined });
    expect(await executionOf(execution.id)).toMatchObject({ status: 'succeeded', error: null });
    await machines.close();
  });

  it('fails an execution whose turn failed with the fail task in its own environment', async () => {
    // Prepare
    const execution = await queuedExecution('Which gypsum board is specified?');
    const machines = new LocalStepFunctions({
      ReviewTurnFunctionArn: async () => {
        throw Object.assign(new Error('The model stream broke'), { name: 'ModelStreamErrorException' });
      },
    });
    // Act
    const run = machines.startExecution(
      reviewMachine,
      execution.id,
      JSON.stringify({ orgId: org.orgId, executionId: execution.id }),
    );
    await run.done;
    // Assess: the catcher's task ran (the Fail state after it ends the execution FAILED)
    expect(run.status).toBe('FAILED');
    expect(await executionOf(execution.id)).toMatchObject({
      status: 'failed',
      error: { code: 'review_execution_failed' },
    });
    await machines.close();
  });

  it('fails an execution that ended outside its catchers with the recovery target in its own environment', async () => {
    // Prepare: an execution stopped while its first task runs (ABORTED: no catcher runs)
    const execution = await queuedExecution('What is the fire rating?');
    let started: () => void = () => undefined;
    const beginning = new Promise<void>((resolve) => {
      started = resolve;
    });
    const machines = new LocalStepFunctions({
      BeginReviewExecutionFunctionArn: () => {
        started();
        return new Promise(() => undefined);
      },
    });
    const run = machines.startExecution(
      reviewMachine,
      execution.id,
      JSON.stringify({ orgId: org.orgId, executionId: execution.id }),
    );
    await beginning;
    // Act: the runner hands the ended execution to the recovery target, as EventBridge does
    machines.stopExecution(run.executionArn);
    await run.done;
    // Assess
    expect(run.status).toBe('ABORTED');
    expect(await executionOf(execution.id)).toMatchObject({
      status: 'failed',
      error: { code: expect.any(String) },
    });
    await machines.close();
  });

  it('refuses a request that skipped the distribution (the execute-api endpoint): 403 origin_required', async () => {
    // Prepare: the event API Gateway hands the route's function (run here with its template's
    // environment, which binds it to the origin secret), minus the header the distribution adds.
    const route = ROUTES.find((candidate) => candidate.id === 'listProjects');
    const event = (headers: Record<string, string>) => ({
      version: '2.0',
      routeKey: 'GET /api/open/v1/projects',
      rawPath: '/api/open/v1/projects',
      rawQueryString: '',
      headers: { authorization: `Bearer ${org.apiKey}`, ...headers },
      requestContext: {
        http: { method: 'GET', path: '/api/open/v1/projects', sourceIp: '203.0.113.9', userAgent: 'curl' },
        requestId: 'bypass',
      },
      isBase64Encoded: false,
    });

    // Act
    const direct = (await invokeHandler(route?.handler ?? '', event({}))) as {
      statusCode: number;
      body: string;
    };
    const forged = (await invokeHandler(
      route?.handler ?? '',
      event({ 'x-origin-verify': 'x'.repeat(43) }),
    )) as {
      statusCode: number;
      body: string;
    };
    const throughEdge = await api('/api/open/v1/projects', { key: org.apiKey });

    // Assess
    expect(direct.statusCode).toBe(403);
    expect(JSON.parse(direct.body).error.code).toBe('origin_required');
    expect(forged.statusCode).toBe(403);
    expect(throughEdge.status).toBe(200);
  });

  it("records a key's last use from the viewer address CloudFront forwards, not the edge's", async () => {
    // Prepare: a key never used (its last use is recorded once a minute), and what CloudFront sends the
    // route: its secret, and the viewer's address beside its own.
    const key = await org.keyWith(['jobs:read']);
    const route = ROUTES.find((candidate) => candidate.id === 'listProjects');
    const handler = route?.handler ?? '';
    const secret = environments[handler]?.variables.ORIGIN_VERIFY ?? '';
    const event = {
      version: '2.0',
      routeKey: 'GET /api/open/v1/projects',
      rawPath: '/api/open/v1/projects',
      rawQueryString: '',
      headers: {
        authorization: `Bearer ${key}`,
        'x-origin-verify': secret,
        'cloudfront-viewer-address': '198.51.100.4:51234',
      },
      requestContext: {
        http: { method: 'GET', path: '/api/open/v1/projects', sourceIp: '203.0.113.9', userAgent: 'curl' },
        requestId: 'viewer-address',
      },
      isBase64Encoded: false,
    };

    // Act
    const answered = (await invokeHandler(handler, event)) as { statusCode: number };
    const listed = await api('/api/open-api/keys?limit=100', { cookie: org.sessionToken });

    // Assess
    expect(secret.length).toBeGreaterThanOrEqual(32);
    expect(answered.statusCode).toBe(200);
    const record = listed.body.keys.find((candidate: { id: string }) => candidate.id === key.split('_')[1]);
    expect(record.lastUsedIp).toBe('198.51.100.4');
  });

  it("logs each request's viewer address CloudFront forwards (API Gateway's access log sees only the edge)", async () => {
    // Prepare: a request through the distribution, a forged one (a client's own CloudFront-Viewer-Address,
    // straight to the execute-api endpoint), and the route's log lines at INFO.
    const route = ROUTES.find((candidate) => candidate.id === 'listProjects');
    const handler = route?.handler ?? '';
    const secret = environments[handler]?.variables.ORIGIN_VERIFY ?? '';
    const event = (requestId: string, headers: Record<string, string>) => ({
      version: '2.0',
      routeKey: 'GET /api/open/v1/projects',
      rawPath: '/api/open/v1/projects',
      rawQueryString: '',
      headers: {
        authorization: `Bearer ${org.apiKey}`,
        'cloudfront-viewer-address': '198.51.100.7:443',
        ...headers,
      },
      requestContext: {
        http: { method: 'GET', path: '/api/open/v1/projects', sourceIp: '203.0.113.9', userAgent: 'curl' },
        requestId,
      },
      isBase64Encoded: false,
    });
    const lines: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    const level = logger.getLevelName();
    logger.setLogLevel('INFO');
    process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      lines.push(String(chunk));
      return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stdout.write;

    // Act
    try {
      await invokeHandler(handler, event('access-through-edge', { 'x-origin-verify': secret }));
      await invokeHandler(handler, event('access-forged', {}));
    } finally {
      process.stdout.write = write;
      logger.setLogLevel(level);
    }

    // Assess
    const accessLines = lines
      .flatMap((line) => line.split('\n'))
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line))
      .filter((record) => record.message === 'Request');
    const byRequest = Object.fromEntries(accessLines.map((record) => [record.requestId, record]));
    expect(byRequest['access-through-edge']).toMatchObject({
      status: 200,
      viewerIp: '198.51.100.7',
      edgeIp: '203.0.113.9',
    });
    // A request that did not come through CloudFront names no viewer: its header is the client's own.
    expect(byRequest['access-forged']).toMatchObject({ status: 403, edgeIp: '203.0.113.9' });
    expect(byRequest['access-forged']).not.toHaveProperty('viewerIp');
  });
});
