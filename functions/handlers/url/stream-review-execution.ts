import { Readable } from 'node:stream';
import { keyStillValid } from '../../core/auth/api-keys.ts';
import { findStreamExecution, openStream } from '../../core/reviews/stream.ts';
import { config } from '../../shared/config.ts';
import {
  CONTENT_TYPES,
  framed,
  negotiateFormat,
  parseStreamQuery,
} from '../../shared/http/review-stream-protocol.ts';
import { streamHandler } from '../../shared/http/stream-handler.ts';
import { STREAM_ROUTE } from '../../shared/routes.ts';
import { reviewWiring } from '../../shared/wiring/review.ts';

/**
 * GET /api/open/v1/projects/{projectId}/reviews/{reviewId}/executions/{executionId}/stream, served by a
 * Lambda function URL in RESPONSE_STREAM mode (API Gateway cannot stream): replays the stored events
 * after `after`, then follows new ones (core/reviews/stream.ts).
 */
/** How long an open stream outlives the revocation of its key, at most. */
export const STREAM_AUTHORIZATION_CHECK_MS = 5_000;

export const handler = streamHandler(
  STREAM_ROUTE,
  async ({ principal, path, rawQueryString, headers, remainingMs }) => {
    const { after } = parseStreamQuery(rawQueryString);
    const format = negotiateFormat(headers.accept);
    const deps = { events: reviewWiring().eventLog };
    const execution = await findStreamExecution(deps, {
      orgId: principal.orgId,
      projectId: path.projectId ?? '',
      reviewId: path.reviewId ?? '',
      executionId: path.executionId ?? '',
    });
    return {
      statusCode: 200,
      headers: {
        'content-type': CONTENT_TYPES[format],
        'cache-control': 'no-store',
      },
      body: Readable.from(
        framed(
          await openStream(deps, execution, {
            after,
            remainingMs,
            pollMs: 250,
            maxPollMs: 1_000,
            heartbeatMs: config.REVIEW_HEARTBEAT_MS,
            reservedMs: 5_000,
            // A key revoked while its stream is open ends the stream within 5 s.
            stillAuthorized: () => keyStillValid({ keys: reviewWiring().apiKeys }, principal),
            authorizationCheckMs: STREAM_AUTHORIZATION_CHECK_MS,
          }),
          format,
        ),
      ),
    };
  },
);
