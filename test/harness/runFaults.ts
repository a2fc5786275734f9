/**
 * `npm run test:faults`: the full fault matrix (every fault x every surface; `npm test` runs a reduced
 * one) with the reduced chat soak, in the real extension host.
 */
import './faultSuitesEnvironment';
import './runIntegration';
