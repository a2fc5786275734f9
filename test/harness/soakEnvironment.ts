/** Settings of `npm run soak`, applied before the integration launcher reads them (see runSoak.ts). */
process.env.INFERENCE_SOAK_REQUESTS ||= '1000';
process.env.INFERENCE_TEST_GREP = 'Chat soak';
process.env.INFERENCE_TEST_WINDOW_MINUTES ||= '30';

export {};
