/*
 * What the console reads of the server's code: the lists of values that fields of the API take
 * (roles, statuses, evaluator types, search modes), so that its pickers offer exactly what the
 * server accepts. The server's schemas build their enums from the same lists. The console's types
 * come from the route map generated from the OpenAPI document (packages/client/src/api/api-types.ts).
 */
export { type KeyRole, keyRoles, type MemberRole, memberRoles } from './core/roles.js';
export {
  type EvaluationItemStatus,
  type EvaluatorTypeName,
  evaluationItemStatuses,
  evaluatorTypeNames,
  type SearchMode,
  searchModes,
  type WebhookEventType,
  webhookEventTypes,
} from './core/wire-values.js';
