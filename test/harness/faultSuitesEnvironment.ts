/**
 * Opts the integration launcher into the fault matrix, which is not yet passing and so is kept out of
 * `npm test` (see test/integration/index.ts), and runs it with the reduced chat soak; applied before
 * the launcher reads the environment.
 */
process.env.INFERENCE_FAULT_SUITES = '1';
process.env.INFERENCE_TEST_GREP ||= 'Fault matrix|Chat soak';

export {};
