/**
 * `npm run test:faults`: the integration tier narrowed to the fault matrix (every fault x every
 * surface, as `npm test` runs it) and the reduced chat soak, in the real extension host.
 */
import './faultSuitesEnvironment';
import './runIntegration';
