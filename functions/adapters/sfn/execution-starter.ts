import { ExecutionAlreadyExists, type SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';

/**
 * Starts one execution of a state machine per resource: the execution is named after the resource
 * (a project, a job), so a retried start is a no-op rather than a second run.
 */
export class StepFunctionsStarter {
  private readonly client: SFNClient;
  private readonly stateMachineArn: string;

  constructor(client: SFNClient, stateMachineArn: string) {
    this.client = client;
    this.stateMachineArn = stateMachineArn;
  }

  async start(executionName: string, input: Record<string, unknown>): Promise<void> {
    try {
      await this.client.send(
        new StartExecutionCommand({
          stateMachineArn: this.stateMachineArn,
          name: executionName,
          input: JSON.stringify(input),
        }),
      );
    } catch (error) {
      if (error instanceof ExecutionAlreadyExists) return;
      throw error;
    }
  }
}
