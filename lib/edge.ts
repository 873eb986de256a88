import { CfnOutput, Duration, Fn, Stack, Validations } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as EdgeFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  OriginRequestPolicy,
  PriceClass,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { FunctionUrlOrigin, HttpOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { IFunctionUrl } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { ORIGIN_VERIFY_HEADER } from '../functions/shared/http/origin-verify.ts';

/** The stream path as a CloudFront path pattern (`*` spans segments). */
export const STREAM_PATH_PATTERN = '/api/open/v1/projects/*/reviews/*/executions/*/stream';

/**
 * Origin access control signs CloudFront's requests to the function URL with SigV4 in the
 * `Authorization` header, which replaces the client's bearer key: the key is copied to
 * `x-service-authorization` first (any value a client sent there is overwritten or removed), and the
 * stream's authentication reads it from there.
 */
export const COPY_AUTHORIZATION = `function handler(event) {
  var request = event.request;
  var authorization = request.headers.authorization;
  delete request.headers['x-service-authorization'];
  if (authorization) request.headers['x-service-authorization'] = { value: authorization.value };
  return request;
}`;

/**
 * One base URL for the whole API: a CloudFront distribution whose default origin is the HTTP API and
 * whose stream path goes to the review stream's function URL (IAM-authenticated, reachable only
 * through the distribution's origin access control). Nothing is cached.
 */
export class ApiEdge extends Construct {
  readonly distribution: Distribution;

  constructor(
    scope: Construct,
    id: string,
    props: {
      api: HttpApi;
      streamUrl: IFunctionUrl;
      webAclArn?: string | undefined;
      /** The secret whose value CloudFront sends as X-Origin-Verify (the API refuses requests without it). */
      originVerifySecretName: string;
    },
  ) {
    super(scope, id);
    const apiDomain = Fn.select(2, Fn.split('/', props.api.apiEndpoint));
    const copyAuthorization = new EdgeFunction(this, 'CopyAuthorization', {
      code: FunctionCode.fromInline(COPY_AUTHORIZATION),
      runtime: FunctionRuntime.JS_2_0,
      comment: 'Keeps the bearer key of stream requests (origin access control signs Authorization)',
    });
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Project source API: the HTTP API and the review stream under one base URL',
      priceClass: PriceClass.PRICE_CLASS_100,
      ...(props.webAclArn ? { webAclId: props.webAclArn } : {}),
      defaultBehavior: {
        // The execute-api endpoint stays public (it is this origin): requests that skip the distribution,
        // and so the web ACL, lack this header and the API refuses them (403).
        origin: new HttpOrigin(apiDomain, {
          readTimeout: Duration.seconds(30),
          customHeaders: {
            [ORIGIN_VERIFY_HEADER]: `{{resolve:secretsmanager:${props.originVerifySecretName}:SecretString:::}}`,
          },
        }),
        allowedMethods: AllowedMethods.ALLOW_ALL,
        cachePolicy: CachePolicy.CACHING_DISABLED,
        originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
        viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      },
      additionalBehaviors: {
        [STREAM_PATH_PATTERN]: {
          // Streams stay open between heartbeats (10 s); the read timeout bounds silence, not length.
          origin: FunctionUrlOrigin.withOriginAccessControl(props.streamUrl, {
            readTimeout: Duration.seconds(60),
          }),
          allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
          cachePolicy: CachePolicy.CACHING_DISABLED,
          originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
          functionAssociations: [
            { function: copyAuthorization, eventType: FunctionEventType.VIEWER_REQUEST },
          ],
        },
      },
    });
    const stack = Stack.of(this);
    if (!props.webAclArn)
      Validations.of(this.distribution).acknowledge({
        id: 'AwsSolutions-CFR2',
        reason:
          'No web ACL was given (-c webAclArn, from the edge firewall stack in us-east-1): an offline synth or a development stage. Requests still authenticate with scoped keys and are rate-limited per key.',
      });
    Validations.of(this.distribution).acknowledge(
      { id: 'AwsSolutions-CFR1', reason: 'An API for customers anywhere: no geo restriction.' },
      {
        id: 'AwsSolutions-CFR3',
        reason:
          'The HTTP API writes access logs of every request; CloudFront standard logs would duplicate them.',
      },
      {
        id: 'AwsSolutions-CFR4',
        reason:
          'The default CloudFront certificate until a custom domain (and its certificate, with TLSv1.2_2021) is configured.',
      },
    );
    new CfnOutput(stack, 'ApiBaseUrl', {
      value: `https://${this.distribution.distributionDomainName}`,
      description: 'The one base URL of the API, the review stream included',
    });
  }
}
