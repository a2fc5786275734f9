/**
 * `npm run soak`: the chat soak of the integration tier at its full count (1,000 requests, or
 * INFERENCE_SOAK_REQUESTS), alone; it prints its figures. `npm test` runs the same soak reduced.
 */
import './soakEnvironment';
import './runIntegration';
