import type { TestApi } from '../../../src/extension';

export interface Started { origin: string; token: string }

/** Runs the real command, then reads what it started (the token only through the test API). */
export async function startThroughCommand(controller: TestApi['localEndpoint'], run: () => Thenable<unknown>): Promise<Started> {
  await run();
  const state = controller.state;
  const token = controller.tokenForTests;
  if (!state || !token) throw new Error('the local endpoint did not start');
  return { origin: state.origin, token };
}
