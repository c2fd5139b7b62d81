import type { AppResponse } from './responses.js';
import type { CreateAppInput, UpdateAppInput } from './schemas.js';
import type { App, AppFields } from './service.js';

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

/** A request body's fields as an App's (`app_type` is the official SDK's label). */
export function appFieldsFromWire(body: CreateAppInput): AppFields;
export function appFieldsFromWire(body: UpdateAppInput): Partial<AppFields>;
export function appFieldsFromWire(body: UpdateAppInput): Partial<AppFields> {
  return { name: body.name, description: body.description, appType: body.app_type };
}
