import { describe, expect, it } from 'vitest';
import {
  publicError,
  publicEvent,
  publicPayload,
  UnpublishableEventError,
} from '../../../functions/core/reviews/public-events.ts';

const envelope = (type: string, payload: unknown) =>
  ({
    version: 1,
    executionId: 'exe_00000000000000000000000001',
    sequence: 7,
    createdAt: '2026-11-23T00:00:00.000Z',
    type,
    payload,
  }) as never;

describe('the public-data boundary of review events', () => {
  it('drops every field its type does not declare', () => {
    // Act
    const tool = publicPayload('tool.completed', {
      name: 'search_sources',
      status: 'completed',
      hitCount: 3,
      lambdaRequestId: 'c0ffee',
      executionArn: 'arn:aws:states:us-east-1:123456789012:execution:review-execution:exe_1',
      internal: { modelId: 'anthropic.claude-3-5-haiku-20241022-v1:0', tokens: 812 },
    });
    const event = publicEvent(
      envelope('response.started', { responseTargetMs: 20000, sessionId: 'sess-1', taskToken: 'AAAA' }),
    );
    // Assess
    expect(tool).toEqual({ name: 'search_sources', status: 'completed', hitCount: 3 });
    expect(event.payload).toEqual({ responseTargetMs: 20000 });
  });

  it('scrubs ARNs, service URLs, signed-URL parameters, keys, tokens and model ids from every string', () => {
    // Act
    const delta = publicPayload('response.text.delta', {
      delta: [
        'See arn:aws:lambda:us-east-1:123456789012:function:psa-prod-ReviewTurn',
        'at https://abc123.lambda-url.us-east-1.on.aws/stream and https://states.us-east-1.amazonaws.com/',
        'https://bucket.s3.amazonaws.com/key.png?X-Amz-Signature=deadbeef&X-Amz-Credential=AKIAABCDEFGHIJKLMNOP',
        'Authorization: Bearer psk_key1_supersecret, model anthropic.claude-3-5-sonnet-20241022-v2:0,',
        'access key AKIAABCDEFGHIJKLMNOP.',
      ].join(' '),
    });
    // Assess
    const text = String(delta.delta);
    for (const secret of [
      'arn:aws',
      'lambda-url',
      'amazonaws.com',
      'X-Amz-Signature',
      'psk_key1',
      'supersecret',
      'anthropic.claude',
      'AKIAABCDEFGHIJKLMNOP',
    ])
      expect(text, secret).not.toContain(secret);
    expect(text).toContain('See [internal]');
  });

  it('keeps only public error codes, never the internal detail', () => {
    // Act
    const unknown = publicPayload('response.error', {
      code: 'ValidationException',
      message:
        'Malformed input request: #/messages/3: extraneous key [cachePoint] at arn:aws:bedrock:us-east-1::foundation-model/x',
    });
    const thrown = publicError(new Error('connect ECONNREFUSED 10.0.3.7:443'));
    const known = publicError({
      code: 'source_index_not_ready',
      message: 'LanceDB table passages not found at s3://psa-index/orgs/o/',
    });
    // Assess
    expect(unknown).toEqual({
      code: 'review_execution_failed',
      message: 'The answer could not be completed. Ask the question again.',
      retryable: true,
    });
    expect(thrown.code).toBe('review_execution_failed');
    expect(known).toEqual({
      code: 'source_index_not_ready',
      message: 'The project index is being built; ask again in a minute.',
      retryable: true,
    });
  });

  it('refuses a payload that does not fit its type, and artifact URLs that are not the service’s own', () => {
    expect(() => publicPayload('response.text.delta', { text: 'no delta field' })).toThrow(
      UnpublishableEventError,
    );
    expect(() => publicPayload('tool.started', { name: 'run_shell', status: 'running' })).toThrow(
      UnpublishableEventError,
    );
    expect(() =>
      publicPayload('artifact.manifest', {
        sourceCatalogUri: 'service://projects/prj_00000000000000000000000001/regions/reg_1',
        artifact: {
          type: 'region_crop',
          url: 'https://psa-artifacts.s3.amazonaws.com/orgs/o/crop.png?X-Amz-Signature=1',
          path: 'p',
          readWith: 'service_show_artifact_file',
        },
      }),
    ).toThrow(UnpublishableEventError);
  });
});
