import { ExecutionAlreadyExists, type SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import type { ProcessingStarter } from '../../core/jobs/ports.ts';

export class StepFunctionsProcessingStarter implements ProcessingStarter {
  private readonly client: SFNClient;
  private readonly stateMachineArn: string;

  constructor(client: SFNClient, stateMachineArn: string) {
    this.client = client;
    this.stateMachineArn = stateMachineArn;
  }

  async start(orgId: string, jobId: string): Promise<void> {
    try {
      await this.client.send(
        new StartExecutionCommand({
          stateMachineArn: this.stateMachineArn,
          // One execution per job: completing the uploads twice never processes twice.
          name: jobId,
          input: JSON.stringify({ orgId, jobId }),
        }),
      );
    } catch (error) {
      if (error instanceof ExecutionAlreadyExists) return;
      throw error;
    }
  }
}
