import type { ExperimentResponse, ExperimentResultsResponse } from './responses.js';
import type { Experiment, ExperimentArm, ExperimentResults } from './service.js';

export function presentExperiment(experiment: Experiment): ExperimentResponse {
  return {
    guid: experiment.id,
    name: experiment.name,
    app_guid: experiment.appId,
    action_primary_guid: experiment.primaryActionId,
    action_secondary_guid: experiment.secondaryActionId,
    split: experiment.split,
    status: experiment.status,
    created_at: experiment.createdAt.toISOString(),
    updated_at: experiment.updatedAt.toISOString(),
  };
}

function presentArm(arm: ExperimentArm) {
  return {
    variant: arm.variant,
    action: arm.actionId,
    runs: arm.runs,
    feedback: arm.feedback,
    ...(arm.positiveRating && {
      positive_rating: {
        value: arm.positiveRating.value,
        ...arm.positiveRating.proportion,
      },
    }),
  };
}

export function presentExperimentResults(results: ExperimentResults): ExperimentResultsResponse {
  const [primary, secondary] = results.arms;
  return {
    experiment: presentExperiment(results.experiment),
    arms: [presentArm(primary), presentArm(secondary)],
  };
}
