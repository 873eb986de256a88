import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { errorResponse } from '../../shared/http/api-handler.ts';
import { MethodNotAllowedError, RouteNotFoundError } from '../../shared/http/errors.ts';
import { matchPath } from '../../shared/route-matching.ts';

/** The API's `$default` route: what no route matched is a 405 (path known, method not) or a 404. */
export async function handler(
  event: APIGatewayProxyEventV2,
  context: Context,
): Promise<APIGatewayProxyStructuredResultV2> {
  const requestId = event.requestContext?.requestId || context.awsRequestId;
  const methods = matchPath(event.rawPath ?? '/').map((match) => match.route.method);
  const allowed = [...new Set(methods.flatMap((method) => (method === 'GET' ? ['GET', 'HEAD'] : [method])))];
  const error = allowed.length > 0 ? new MethodNotAllowedError(allowed) : new RouteNotFoundError();
  return errorResponse(error, requestId);
}
