import { BedrockRuntimeClient, ConverseStreamCommand } from '@aws-sdk/client-bedrock-runtime';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BedrockAnswerer } from '../../functions/adapters/answerers/bedrock-answerer.ts';
import { answerTurn, type ExecutionState } from '../../functions/core/reviews/execute.ts';
import { askQuestion, createReview } from '../../functions/core/reviews/reviews.ts';
import { artifactObjects, projectStore, reviewStore } from '../../functions/shared/wiring/adapters.ts';
import { reviewWiring } from '../../functions/shared/wiring/review.ts';
import { LocalStepFunctions, localStateMachineArn, PAYLOAD_LIMIT_BYTES } from '../../local/step-functions.ts';
import { projectManualPdf } from '../fixtures/pdfs.ts';
import {
  api,
  createOrg,
  createProject,
  startIngest,
  type TestOrg,
  uniqueName,
  waitForJobEnd,
  waitForProject,
} from './helpers.ts';

const bedrock = mockClient(BedrockRuntimeClient);
const TOOL_TURNS = 7;
const CALLS_PER_TURN = 3;

/** A ConverseStream reply asking for `review_sources` three times (six sources each), or answering. */
function modelReply(turn: number, uris: string[]) {
  const events: Record<string, unknown>[] =
    turn < TOOL_TURNS
      ? [
          ...Array.from({ length: CALLS_PER_TURN }, (_, call) => [
            {
              contentBlockStart: {
                contentBlockIndex: call,
                start: { toolUse: { toolUseId: `tu_${turn}_${call}`, name: 'review_sources' } },
              },
            },
            {
              contentBlockDelta: {
                contentBlockIndex: call,
                delta: {
                  toolUse: {
                    input: JSON.stringify({
                      sourceCatalogUris: uris
                        .slice((call * 6) % uris.length)
                        .concat(uris)
                        .slice(0, 6),
                    }),
                  },
                },
              },
            },
          ]).flat(),
          { messageStop: { stopReason: 'tool_use' } },
        ]
      : [
          {
            contentBlockDelta: {
              contentBlockIndex: 0,
              delta: { text: 'Every item is provided as specified.' },
            },
          },
          { messageStop: { stopReason: 'end_turn' } },
        ];
  return {
    stream: (async function* () {
      yield* events;
    })() as never,
  };
}

/** A ConverseStream reply of the given events. */
const replyOf = (events: Record<string, unknown>[]) => ({
  stream: (async function* () {
    yield* events;
  })() as never,
});

describe('reviews through the review state machine, the model mocked at the SDK client', () => {
  let org: TestOrg;
  let projectId: string;
  let uris: string[];

  beforeAll(async () => {
    org = await createOrg(100_000);
    projectId = (await createProject(org.apiKey, uniqueName('Long review'))).body.project.id;
    await waitForProject(org.apiKey, projectId);
    const jobId = await startIngest(org.apiKey, projectId, [
      { fileName: 'manual.pdf', bytes: await projectManualPdf(8, 4), classification: 'specifications' },
    ]);
    await waitForJobEnd(org.apiKey, jobId);
    const found = await api(`/api/open/v1/projects/${projectId}/source-search`, {
      method: 'POST',
      key: org.apiKey,
      body: {
        query: 'provide item as specified for work result',
        entityTypes: ['specification'],
        maxHits: 50,
      },
    });
    uris = [
      ...new Set<string>(found.body.hits.map((hit: { sourceCatalogUri: string }) => hit.sourceCatalogUri)),
    ];
  });

  afterAll(() => bedrock.restore());

  /** Queues an execution and runs it through the review state machine, the turn on the Bedrock answerer. */
  const runExecution = async (question: string, key: string) => {
    const deps = { projects: projectStore(), reviews: reviewStore() };
    const { review } = await createReview(deps, {
      orgId: org.orgId,
      projectId,
      idempotencyKey: key,
      name: key,
    });
    const { execution } = await askQuestion(
      { ...deps, starter: { start: async () => undefined }, answerer: 'bedrock' },
      { orgId: org.orgId, projectId, reviewId: review.id, idempotencyKey: key, ask: { question } },
    );
    const states: string[] = [];
    const machine = new LocalStepFunctions({
      ReviewTurnFunctionArn: async (input) => {
        states.push(JSON.stringify(input));
        const answerer = new BedrockAnswerer(new BedrockRuntimeClient({}), 'amazon.nova-pro-v1:0');
        return answerTurn(
          Object.defineProperty(Object.create(reviewWiring()), 'answerer', { value: answerer }),
          input as ExecutionState,
        );
      },
    });
    const run = machine.startExecution(
      localStateMachineArn('review-execution'),
      execution.id,
      JSON.stringify({ orgId: org.orgId, executionId: execution.id }),
    );
    await run.done;
    return { run, execution, states };
  };

  it('runs read_source when the model asks for it: tool.started, source.reviewed, tool.completed', async () => {
    // Prepare
    const uri = uris[0] ?? '';
    let turn = 0;
    bedrock.on(ConverseStreamCommand).callsFake(async () =>
      turn++ === 0
        ? replyOf([
            {
              contentBlockStart: {
                contentBlockIndex: 0,
                start: { toolUse: { toolUseId: 'tu_read', name: 'read_source' } },
              },
            },
            {
              contentBlockDelta: {
                contentBlockIndex: 0,
                delta: { toolUse: { input: JSON.stringify({ sourceCatalogUri: uri }) } },
              },
            },
            { messageStop: { stopReason: 'tool_use' } },
          ])
        : replyOf([
            {
              contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'The section provides the items.' } },
            },
            { messageStop: { stopReason: 'end_turn' } },
          ]),
    );

    // Act
    const { run, execution } = await runExecution('What does the first section provide?', 'read-source');
    const events = (await reviewStore().events(execution.id, -1)).map((event) => ({
      type: event.type,
      payload: event.payload,
    }));

    // Assess
    expect(run.status, run.cause).toBe('SUCCEEDED');
    expect(events).toEqual(
      expect.arrayContaining([
        {
          type: 'tool.started',
          payload: expect.objectContaining({ name: 'read_source', status: 'running' }),
        },
        { type: 'source.reviewed', payload: expect.objectContaining({ sourceCatalogUri: uri }) },
        {
          type: 'tool.completed',
          payload: expect.objectContaining({ name: 'read_source', status: 'completed', sourceCount: 1 }),
        },
      ]),
    );
    expect(events.at(-1)?.type).toBe('response.completed');
  });

  it('keeps the conversation out of the state: a conversation past 256 KB ends succeeded', async () => {
    // Prepare: the model (mocked at the SDK client) reads 18 sources a turn for seven turns (the eighth answers).
    let turn = 0;
    bedrock.on(ConverseStreamCommand).callsFake(async () => modelReply(turn++, uris));

    // Act
    const { run, execution, states } = await runExecution('What does every section provide?', 'long-review');
    const last = JSON.parse(states.at(-1) ?? '{}') as ExecutionState;
    const conversation = await artifactObjects().getJson<unknown>(last.conversationKey ?? '');
    const polled = await api(execution.url, { key: org.apiKey });

    // Assess
    expect(run.status, run.cause).toBe('SUCCEEDED');
    expect(polled.body.execution.status).toBe('succeeded');
    expect(turn).toBe(TOOL_TURNS + 1);
    expect(Buffer.byteLength(JSON.stringify(conversation))).toBeGreaterThan(PAYLOAD_LIMIT_BYTES);
    expect(Math.max(...states.map((state) => Buffer.byteLength(state)))).toBeLessThan(2_000);
  });
});
