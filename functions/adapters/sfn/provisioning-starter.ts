import { ExecutionAlreadyExists, type SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import type { ProvisioningStarter } from '../../core/projects/ports.ts';

export class StepFunctionsProvisioningStarter implements ProvisioningStarter {
  private readonly client: SFNClient;
  private readonly stateMachineArn: string;

  constructor(client: SFNClient, stateMachineArn: string) {
    this.client = client;
    this.stateMachineArn = stateMachineArn;
  }

  async start(orgId: string, projectId: string): Promise<void> {
    try {
      await this.client.send(
        new StartExecutionCommand({
          stateMachineArn: this.stateMachineArn,
          // The execution name makes a retried start a no-op rather than a second provisioning.
          name: projectId,
          input: JSON.stringify({ orgId, projectId }),
        }),
      );
    } catch (error) {
      if (error instanceof ExecutionAlreadyExists) return;
      throw error;
    }
  }
}
