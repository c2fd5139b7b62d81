import { useQuery } from '@tanstack/react-query';
import { api, type ListEnvelope } from '../api';
import { keys } from './keys';

// The whole-workspace lists that pickers and lookups read (an App select, the Actions' names): one
// hook each, so every page shares one cached answer and one key to invalidate.

/** The most a picker lists; the service caps a page at this many. */
const pickerLimit = 1000;

/** `enabled: false` until a picker is shown that needs the list. */
type ListOptions = { enabled?: boolean };

function useWholeList<Row>(
  key: readonly unknown[],
  read: (query: { limit: number }) => Promise<ListEnvelope<Row>>,
  options: ListOptions = {},
) {
  return useQuery({
    queryKey: [...key, 'whole'],
    queryFn: () => read({ limit: pickerLimit }),
    enabled: options.enabled ?? true,
  });
}

export const useApps = () => useWholeList(keys.apps.all, (query) => api('GET /v1/apps', { query }));
export const useAllActions = () =>
  useWholeList(keys.actions.all, (query) => api('GET /v1/actions', { query }));
export const useAllContexts = (options?: ListOptions) =>
  useWholeList(keys.contexts.all, (query) => api('GET /v1/contexts', { query }), options);
export const useAllSkills = (options?: ListOptions) =>
  useWholeList(keys.skills.all, (query) => api('GET /v1/skills', { query }), options);
export const useAllDatasets = (options?: ListOptions) =>
  useWholeList(keys.datasets.all, (query) => api('GET /v1/datasets', { query }), options);
export const useAllEvaluators = (options?: ListOptions) =>
  useWholeList(keys.evaluators.all, (query) => api('GET /v1/evaluators', { query }), options);
export const useAllEvaluations = (options?: ListOptions) =>
  useWholeList(keys.evaluations.all, (query) => api('GET /v1/evaluations', { query }), options);
export const useProviders = () =>
  useWholeList(keys.providers.all, (query) => api('GET /v1/providers', { query }));

/** The Skill types the service offers, with their settings. */
export function useSkillTypes() {
  return useQuery({
    queryKey: keys.skills.types,
    queryFn: () => api('GET /v1/skills/types'),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** The workspace's model records (a bare array, as the official SDK reads it). */
export function useModels() {
  return useQuery({ queryKey: keys.models.all, queryFn: () => api('GET /v1/models') });
}
export const useAllSnippets = (options?: ListOptions) =>
  useWholeList(keys.snippets.all, (query) => api('GET /v1/snippets', { query }), options);
export const useAllReviewQueues = (options?: ListOptions) =>
  useWholeList(keys.reviewQueues.all, (query) => api('GET /v1/review_queues', { query }), options);
