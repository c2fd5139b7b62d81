import { useQuery } from '@tanstack/react-query';
import {
  type Action,
  type App,
  api,
  type Context,
  type Dataset,
  type Evaluation,
  type Evaluator,
  type ListEnvelope,
  type Model,
  type Provider,
  type Skill,
  type SkillType,
} from '../api';
import { keys } from './keys';

// The whole-workspace lists that pickers and lookups read (an App select, the Actions' names): one
// hook each, so every page shares one cached answer and one key to invalidate.

/** The most a picker lists; the service caps a page at this many. */
const pickerLimit = 1000;

/** `enabled: false` until a picker is shown that needs the list. */
type ListOptions = { enabled?: boolean };

function useWholeList<Row>(key: readonly unknown[], path: string, options: ListOptions = {}) {
  return useQuery({
    queryKey: [...key, 'whole'],
    queryFn: () => api<ListEnvelope<Row>>('GET', `${path}?limit=${pickerLimit}`),
    enabled: options.enabled ?? true,
  });
}

export const useApps = () => useWholeList<App>(keys.apps.all, '/v1/apps');
export const useAllActions = () => useWholeList<Action>(keys.actions.all, '/v1/actions');
export const useAllContexts = (options?: ListOptions) =>
  useWholeList<Context>(keys.contexts.all, '/v1/contexts', options);
export const useAllSkills = (options?: ListOptions) =>
  useWholeList<Skill>(keys.skills.all, '/v1/skills', options);
export const useAllDatasets = (options?: ListOptions) =>
  useWholeList<Dataset>(keys.datasets.all, '/v1/datasets', options);
export const useAllEvaluators = (options?: ListOptions) =>
  useWholeList<Evaluator>(keys.evaluators.all, '/v1/evaluators', options);
export const useAllEvaluations = (options?: ListOptions) =>
  useWholeList<Evaluation>(keys.evaluations.all, '/v1/evaluations', options);
export const useProviders = () => useWholeList<Provider>(keys.providers.all, '/v1/providers');

/** The Skill types the service offers, with their settings. */
export function useSkillTypes() {
  return useQuery({
    queryKey: keys.skills.types,
    queryFn: () => api<ListEnvelope<SkillType>>('GET', '/v1/skills/types'),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** The workspace's model records (a bare array, as the official SDK reads it). */
export function useModels() {
  return useQuery({ queryKey: keys.models.all, queryFn: () => api<Model[]>('GET', '/v1/models') });
}
