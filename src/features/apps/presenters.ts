import type { AppResponse } from './responses.js';
import type { App } from './service.js';

export function presentApp(app: App): AppResponse {
  return {
    guid: app.id,
    name: app.name,
    description: app.description,
    app_type: app.appType,
    created_at: app.createdAt.toISOString(),
    updated_at: app.updatedAt.toISOString(),
  };
}
