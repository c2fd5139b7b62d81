import type { z } from 'zod';
import type { errorResponse, listResponse } from './core/wire.js';
import type {
  ActionResponse,
  ActionVersionResponse,
  ListedActionResponse,
  VersionFields,
} from './features/actions/responses.js';
import type { AppResponse } from './features/apps/responses.js';
import type { AuditRecordResponse } from './features/audit/responses.js';
import type { SignedInResponse, signInOptionsResponse } from './features/console-sessions/responses.js';
import type { ContextSourceResponse } from './features/context-sources/responses.js';
import type { ContextResponse, SearchHitResponse } from './features/contexts/responses.js';
import type {
  GenerationResponse,
  GenerationWithFeedbackResponse,
  ListedGenerationResponse,
  StatisticsResponse,
} from './features/data/responses.js';
import type {
  DatasetItemResponse,
  DatasetResponse,
  itemChangedResponse,
  itemsAddedResponse,
} from './features/datasets/responses.js';
import type { DocumentResponse } from './features/documents/responses.js';
import type {
  ComparisonResponse,
  EvaluationResponse,
  EvaluationResultResponse,
} from './features/evaluations/responses.js';
import type { EvaluatorResponse, ScoreResponse } from './features/evaluators/responses.js';
import type { ExperimentResponse, ExperimentResultsResponse } from './features/experiments/responses.js';
import type { FeedbackResponse } from './features/feedback/responses.js';
import type { uploadResponse } from './features/files/responses.js';
import type { MonitorResponse } from './features/monitors/responses.js';
import type {
  MemberResponse,
  MeResponse,
  NewInvitationResponse,
  PendingInvitationResponse,
} from './features/people/responses.js';
import type {
  ConnectionTest,
  ModelResponse,
  ProviderKindResponse,
  ProviderResponse,
} from './features/providers/responses.js';
import type {
  ApprovalsResponse,
  GateCheckResponse,
  GateResponse,
} from './features/release-gates/responses.js';
import type { RunAnswer, StreamRunAnswer, SyncRunAnswer } from './features/runs/responses.js';
import type { SessionResponse } from './features/sessions/responses.js';
import type { SkillResponse, SkillTypeResponse } from './features/skills/responses.js';
import type {
  BlockResponse,
  blocksResponse,
  WorkflowResponse,
  WorkflowTriggerAnswer,
  workflowDatasetResponse,
} from './features/workflows/responses.js';
import type {
  ApiKeyResponse,
  CreatedApiKeyResponse,
  NewApiKeyResponse,
  WorkspaceResponse,
} from './features/workspaces/responses.js';

/*
 * The API's answers as TypeScript types, for the console (web/src imports this file and nothing else
 * of src/, type-only, so no server code reaches the browser). Each type is the output of the zod
 * schema its route declares: the console reads exactly what the server is checked to send.
 */

/** A page of a list: `{ data, total_count, has_next_page }`. */
export type ListEnvelope<Row> = z.output<ReturnType<typeof listResponse<z.ZodType<Row>>>>;
export type ErrorBody = z.output<typeof errorResponse>;

export type Action = ActionResponse;
export type ListedAction = ListedActionResponse;
export type ActionVersion = ActionVersionResponse;
export type { VersionFields };
export type App = AppResponse;
export type SignedIn = SignedInResponse;
export type SignInOptions = z.output<typeof signInOptionsResponse>;
export type ContextSource = ContextSourceResponse;
export type Context = ContextResponse;
export type SearchHit = SearchHitResponse;
export type ContextDocument = DocumentResponse;
/** One stored generation (`data` on the wire). */
export type Generation = GenerationResponse;
export type ListedGeneration = ListedGenerationResponse;
export type GenerationWithFeedback = GenerationWithFeedbackResponse;
export type Statistics = StatisticsResponse;
export type Experiment = ExperimentResponse;
export type ExperimentResults = ExperimentResultsResponse;
export type Feedback = FeedbackResponse;
export type Provider = ProviderResponse;
export type ProviderKind = ProviderKindResponse;
export type Model = ModelResponse;
export type { RunAnswer, StreamRunAnswer, SyncRunAnswer };
export type Session = SessionResponse;
export type Skill = SkillResponse;
export type SkillType = SkillTypeResponse;
export type Workflow = WorkflowResponse;
export type WorkflowBlock = BlockResponse;
export type WorkflowTrigger = WorkflowTriggerAnswer;
export type Workspace = WorkspaceResponse;
export type { ConnectionTest };
export type Upload = z.output<typeof uploadResponse>;
export type WorkflowBlocks = z.output<typeof blocksResponse>;
export type WorkflowDataset = z.output<typeof workflowDatasetResponse>;
export type ApiKey = ApiKeyResponse;
export type NewApiKey = NewApiKeyResponse;
export type CreatedApiKey = CreatedApiKeyResponse;
export type Me = MeResponse;
export type Member = MemberResponse;
export type Invitation = PendingInvitationResponse;
export type NewInvitation = NewInvitationResponse;
export type AuditRecord = AuditRecordResponse;
export type Dataset = DatasetResponse;
export type DatasetItem = DatasetItemResponse;
export type ItemsAdded = z.output<typeof itemsAddedResponse>;
export type ItemChanged = z.output<typeof itemChangedResponse>;
export type Evaluator = EvaluatorResponse;
export type Score = ScoreResponse;
export type Evaluation = EvaluationResponse;
export type EvaluationResult = EvaluationResultResponse;
export type Comparison = ComparisonResponse;
export type ReleaseGate = GateResponse;
export type GateCheck = GateCheckResponse;
export type Approvals = ApprovalsResponse;
export type Monitor = MonitorResponse;
