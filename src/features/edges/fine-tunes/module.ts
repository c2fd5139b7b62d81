import { featureModule } from '../../feature-module.js';
import { fineTuneRoutes } from './routes.js';

/** The official SDK's fine-tune routes, each answered `501 not_supported`: Lectern trains no models. */
export function createFineTunesModule() {
  return featureModule({ services: {}, routes: { v1: [fineTuneRoutes()] } });
}
