import { LANGUAGE_MODELS } from '../tags';
import { describeFaultMatrix } from './matrix';
import { provider } from './providerSurface';
import { SURFACES } from './surfaces';

// The panel, picker, balance and image columns run in the window with a workspace folder; the
// provider's in the window that registers it (VS Code asks it for the model list there).
describeFaultMatrix('Fault matrix: every fault x every surface (real extension host, emulator back end)', SURFACES);
describeFaultMatrix(`Fault matrix: every fault x the language model provider (real extension host, emulator back end) ${LANGUAGE_MODELS}`, [provider]);
