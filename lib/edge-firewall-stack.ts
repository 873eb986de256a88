import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';

/** Requests one client address may send in 5 minutes before the firewall blocks it (20 a second). */
export const FIREWALL_REQUESTS_PER_FIVE_MINUTES = 6000;

export interface EdgeFirewallStackProps extends StackProps {
  stage: string;
  /** Requests per client address per 5 minutes (WAF's rate-based rule; 10 or more). */
  requestsPerFiveMinutes?: number;
}

/**
 * The web application firewall in front of the API's CloudFront distribution (the review stream
 * included). CloudFront reads web ACLs only from us-east-1, so this is its own stack there; its
 * `WebAclArn` output is given to the service stacks as `-c webAclArn=...` (docs/operations.md).
 * Rules: AWS's common rule set (bodies above 8 KB are counted, not blocked: file registrations and
 * review questions may be larger) and known bad inputs, and a rate limit per client address that
 * sits above what the service's own per-key limits allow, so it stops floods, not customers.
 */
export class EdgeFirewallStack extends Stack {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: EdgeFirewallStackProps) {
    super(scope, id, props);
    const metric = (name: string) => ({
      cloudWatchMetricsEnabled: true,
      sampledRequestsEnabled: true,
      metricName: `project-source-${props.stage}-${name}`,
    });
    const managed = (priority: number, name: string, excludedRules: string[] = []) => ({
      name,
      priority,
      overrideAction: { none: {} },
      statement: {
        managedRuleGroupStatement: {
          vendorName: 'AWS',
          name,
          ruleActionOverrides: excludedRules.map((rule) => ({ name: rule, actionToUse: { count: {} } })),
        },
      },
      visibilityConfig: metric(name),
    });
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name: `project-source-${props.stage}-edge`,
      description: 'Project source API: managed rule sets and a rate limit per client address',
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: metric('edge'),
      rules: [
        {
          name: 'RequestsPerAddress',
          priority: 0,
          action: { block: {} },
          statement: {
            rateBasedStatement: {
              limit: props.requestsPerFiveMinutes ?? FIREWALL_REQUESTS_PER_FIVE_MINUTES,
              aggregateKeyType: 'IP',
            },
          },
          visibilityConfig: metric('requests-per-address'),
        },
        managed(1, 'AWSManagedRulesCommonRuleSet', ['SizeRestrictions_BODY']),
        managed(2, 'AWSManagedRulesKnownBadInputsRuleSet'),
      ],
    });
    new CfnOutput(this, 'WebAclArn', {
      value: this.webAcl.attrArn,
      description: 'Give it to the service stacks: npx cdk deploy --all -c webAclArn=<this>',
    });
  }
}
