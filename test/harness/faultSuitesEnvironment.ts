/**
 * Opts the integration launcher into the full fault matrix (`npm test` runs a reduced one), run with
 * the reduced chat soak; applied before the launcher reads the environment.
 */
process.env.INFERENCE_FAULT_SUITES = '1';
process.env.INFERENCE_TEST_GREP ||= 'Fault matrix|Chat soak';

export {};
