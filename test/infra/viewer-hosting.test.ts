import { App, Stack, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Distribution } from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { ViewerHosting } from '../../lib/viewer-hosting.ts';

/** The viewer's hosting on a distribution like the API's, synthesized with the cdk-nag AwsSolutions pack. */
/** A stack with the viewer on a distribution like the API's; throws on an unacknowledged cdk-nag finding. */
function synthesized(env?: { account: string; region: string }): Template {
  const app = new App();
  const stack = new Stack(app, 'Viewer', env ? { env } : {});
  const distribution = new Distribution(stack, 'Api', {
    defaultBehavior: { origin: new HttpOrigin('api.example.com') },
  });
  // Findings of this stand-in distribution, not of the construct under test (ApiEdge acknowledges its own).
  Validations.of(distribution).acknowledge(
    { id: 'AwsSolutions-CFR1', reason: 'test stand-in' },
    { id: 'AwsSolutions-CFR2', reason: 'test stand-in' },
    { id: 'AwsSolutions-CFR3', reason: 'test stand-in' },
    { id: 'AwsSolutions-CFR4', reason: 'test stand-in' },
  );
  new ViewerHosting(stack, 'Viewer', { distribution, stage: 'test' });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  app.synth();
  return Template.fromStack(stack);
}

describe('viewer hosting', () => {
  let template: Template;

  beforeAll(() => {
    template = synthesized();
  });

  it('passes cdk-nag in a stack with a concrete account and region too (as `cdk synth` and deploys make it)', () => {
    // Act
    const concrete = synthesized({ account: '123456789012', region: 'eu-west-1' });
    // Assess: the synth did not throw, and the deployment handler's grants name that region's asset bucket.
    expect(JSON.stringify(concrete.findResources('AWS::IAM::Policy'))).toContain(
      'cdk-hnb659fds-assets-123456789012-eu-west-1',
    );
  });

  it('serves /viewer and /viewer/* from a private bucket through the API distribution (same origin, no CORS)', () => {
    const [distribution] = Object.values(template.findResources('AWS::CloudFront::Distribution'));
    const behaviors = distribution?.Properties.DistributionConfig.CacheBehaviors as { PathPattern: string }[];
    expect(behaviors.map((behavior) => behavior.PathPattern)).toEqual(['/viewer', '/viewer/*']);
    template.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      LoggingConfiguration: { LogFilePrefix: 'viewer/' },
    });
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Principal: { Service: 'cloudfront.amazonaws.com' }, Action: 's3:GetObject' }),
        ]),
      },
    });
  });

  it('deploys the built viewer under viewer/ and invalidates it', () => {
    template.hasResourceProperties('Custom::CDKBucketDeployment', {
      DestinationBucketKeyPrefix: 'viewer/',
      DistributionPaths: ['/viewer', '/viewer/*'],
    });
  });

  it('sends a content security policy that allows only this origin', () => {
    template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: {
        SecurityHeadersConfig: Match.objectLike({
          ContentSecurityPolicy: Match.objectLike({
            ContentSecurityPolicy: Match.stringLikeRegexp("connect-src 'self'"),
          }),
        }),
      },
    });
  });
});
