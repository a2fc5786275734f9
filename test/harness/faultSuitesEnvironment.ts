/**
 * Narrows the integration launcher to the fault matrix (every fault x every surface, the provider's
 * column included) and the reduced chat soak; applied before the launcher reads the environment.
 */
process.env.INFERENCE_TEST_GREP ||= 'Fault matrix|Chat soak';

export {};
