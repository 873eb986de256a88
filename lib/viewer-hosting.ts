import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Annotations, Aws, Duration, Stack, Validations } from 'aws-cdk-lib';
import {
  AllowedMethods,
  CachePolicy,
  type Distribution,
  Function as EdgeFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { BlockPublicAccess, Bucket, BucketEncryption } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { flattenCfnReference } from 'cdk-nag/lib/utils/flatten-cfn-reference.js';
import { Construct } from 'constructs';
import { auxiliaryNames, VIEWER_ACCESS_LOG_PREFIX } from './resource-names.ts';
import { VIEWER_CONTENT_SECURITY_POLICY, VIEWER_DIST } from './viewer-site.ts';

export const VIEWER_PATH_PATTERNS = ['/viewer', '/viewer/*'] as const;

/** `/viewer` -> `/viewer/`, and a folder path -> its index.html (S3 origins have no index documents). */
export const VIEWER_INDEX = `function handler(event) {
  var request = event.request;
  if (request.uri === '/viewer') {
    return { statusCode: 308, statusDescription: 'Permanent Redirect', headers: { location: { value: '/viewer/' } } };
  }
  if (request.uri.endsWith('/')) request.uri += 'index.html';
  return request;
}`;

/**
 * The web viewer on AWS: its static build in a private bucket, served under /viewer/* by the API's
 * own CloudFront distribution (origin access control). Viewer and API share one origin, so the
 * browser sends the bearer key to the API without CORS.
 */
export class ViewerHosting extends Construct {
  readonly bucket: Bucket;

  constructor(scope: Construct, id: string, props: { distribution: Distribution; stage: string }) {
    super(scope, id);
    if (!existsSync(join(VIEWER_DIST, 'index.html'))) {
      throw new Error(
        `The viewer is not built (${VIEWER_DIST}): run \`npm install\` or \`npm run build -w web\`.`,
      );
    }
    const accessLogs = Bucket.fromBucketName(
      this,
      'AccessLogs',
      auxiliaryNames(props.stage).accessLogsBucket,
    );
    this.bucket = new Bucket(this, 'Assets', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: VIEWER_ACCESS_LOG_PREFIX,
    });
    // CDK cannot grant log delivery on a bucket of another stack: the stateful stack grants it.
    Annotations.of(this.bucket).acknowledgeWarning(
      '@aws-cdk/aws-s3:accessLogsPolicyNotAdded',
      'The stateful stack grants log delivery under viewer/ of the access-log bucket.',
    );
    const index = new EdgeFunction(this, 'Index', {
      code: FunctionCode.fromInline(VIEWER_INDEX),
      runtime: FunctionRuntime.JS_2_0,
      comment: 'Viewer: /viewer -> /viewer/, folders -> index.html',
    });
    const headers = new ResponseHeadersPolicy(this, 'Headers', {
      comment: 'Viewer: no framing, no sniffing, scripts and connections to this origin only',
      securityHeadersBehavior: {
        contentSecurityPolicy: {
          contentSecurityPolicy: VIEWER_CONTENT_SECURITY_POLICY,
          override: true,
        },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        strictTransportSecurity: {
          accessControlMaxAge: Duration.days(365),
          includeSubdomains: true,
          override: true,
        },
      },
    });
    const origin = S3BucketOrigin.withOriginAccessControl(this.bucket);
    for (const pattern of VIEWER_PATH_PATTERNS) {
      props.distribution.addBehavior(pattern, origin, {
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
        responseHeadersPolicy: headers,
        functionAssociations: [{ function: index, eventType: FunctionEventType.VIEWER_REQUEST }],
      });
    }
    new BucketDeployment(this, 'Deploy', {
      sources: [Source.asset(VIEWER_DIST)],
      destinationBucket: this.bucket,
      destinationKeyPrefix: 'viewer/',
      distribution: props.distribution,
      distributionPaths: ['/viewer', '/viewer/*'],
    });
    const stack = Stack.of(this);
    // The deployment's handler is one singleton function per stack, built by CDK beside the stack's
    // other constructs: its findings are acknowledged there, rule by rule, with what they grant.
    const handler = stack.node.children.find((child) =>
      child.node.id.startsWith('Custom::CDKBucketDeployment'),
    );
    if (!handler) throw new Error('BucketDeployment created no handler function');
    const objects = flattenCfnReference(stack.resolve(this.bucket.arnForObjects('*')));
    // The CDK asset bucket as cdk-nag names it: the stack's account and region, literal when the
    // stack has them (a deploy, or `cdk synth` with a default region), placeholders otherwise.
    const assets = flattenCfnReference(
      stack.resolve(`arn:${Aws.PARTITION}:s3:::cdk-hnb659fds-assets-${stack.account}-${stack.region}/*`),
    );
    Validations.of(handler).acknowledge(
      {
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason: "CDK's BucketDeployment handler writes its own logs with the basic execution role.",
      },
      ...['s3:GetObject*', 's3:GetBucket*', 's3:List*', 's3:DeleteObject*', 's3:Abort*'].map((action) => ({
        id: `AwsSolutions-IAM5[Action::${action}]`,
        reason: "CDK's BucketDeployment grants: read the viewer asset, replace the viewer bucket's objects.",
      })),
      {
        id: `AwsSolutions-IAM5[Resource::${assets}]`,
        reason: 'The CDK asset bucket holds the built viewer; its object keys are content hashes.',
      },
      {
        id: `AwsSolutions-IAM5[Resource::${objects}]`,
        reason: 'Every object of the viewer bucket is replaced.',
      },
      {
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason: 'CloudFront invalidations (cloudfront:CreateInvalidation) take no resource-level permission.',
      },
      {
        id: 'AwsSolutions-L1',
        reason: "The runtime of CDK's BucketDeployment handler is chosen by aws-cdk-lib, not by this app.",
      },
    );
  }
}
