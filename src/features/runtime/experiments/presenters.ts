import type { ExperimentResponse, ExperimentResultsResponse } from './responses.js';
import type { CreateExperimentInput, UpdateExperimentInput } from './schemas.js';
import type {
  Experiment,
  ExperimentArm,
  ExperimentChanges,
  ExperimentResults,
  NewExperiment,
} from './service.js';

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

/** `POST /v1/experiments`, in the official SDK's field names, as a new experiment. */
export function newExperimentFromWire(body: CreateExperimentInput): NewExperiment {
  return {
    name: body.name,
    appId: body.app_guid,
    primaryActionId: body.action_primary_guid,
    secondaryActionId: body.action_secondary_guid,
    split: body.split,
  };
}

/** `PUT /v1/experiments/{guid}` as changes. */
export function experimentChangesFromWire(body: UpdateExperimentInput): ExperimentChanges {
  return {
    name: body.name,
    primaryActionId: body.action_primary_guid,
    secondaryActionId: body.action_secondary_guid,
    split: body.split,
    status: body.status,
  };
}
