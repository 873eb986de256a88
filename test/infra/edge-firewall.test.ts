import { App, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { EdgeFirewallStack, FIREWALL_REQUESTS_PER_FIVE_MINUTES } from '../../lib/edge-firewall-stack.ts';

/** The edge firewall stack (us-east-1), synthesized with the cdk-nag AwsSolutions pack. */
describe('edge firewall', () => {
  let template: Template;

  beforeAll(() => {
    const app = new App();
    const stack = new EdgeFirewallStack(app, 'EdgeFirewall', {
      env: { region: 'us-east-1' },
      stage: 'test',
    });
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    app.synth(); // throws on an unacknowledged cdk-nag finding
    template = Template.fromStack(stack);
  });

  it('is a CloudFront web ACL with a rate limit per address and the managed rule sets', () => {
    template.resourceCountIs('AWS::WAFv2::WebACL', 1);
    template.hasResourceProperties('AWS::WAFv2::WebACL', {
      Scope: 'CLOUDFRONT',
      DefaultAction: { Allow: {} },
      Rules: [
        Match.objectLike({
          Name: 'RequestsPerAddress',
          Action: { Block: {} },
          Statement: {
            RateBasedStatement: { Limit: FIREWALL_REQUESTS_PER_FIVE_MINUTES, AggregateKeyType: 'IP' },
          },
        }),
        Match.objectLike({
          Statement: {
            ManagedRuleGroupStatement: {
              VendorName: 'AWS',
              Name: 'AWSManagedRulesCommonRuleSet',
              // File registrations and questions may exceed the set's 8 KB body rule: counted, not blocked.
              RuleActionOverrides: [{ Name: 'SizeRestrictions_BODY', ActionToUse: { Count: {} } }],
            },
          },
        }),
        Match.objectLike({
          Statement: {
            ManagedRuleGroupStatement: { VendorName: 'AWS', Name: 'AWSManagedRulesKnownBadInputsRuleSet' },
          },
        }),
      ],
    });
    expect(Object.keys(template.findOutputs('WebAclArn'))).toEqual(['WebAclArn']);
  });
});
