import { AppError } from '../../../errors.js';

/** How a metadata value is checked (and coerced) when a Skill is created. */
export type MetadataValueType =
  | 'string'
  | 'text'
  | 'url'
  | 'integer'
  | 'select'
  | 'headers'
  | 'context'
  | 'action';

/** One setting of a skill type, as `GET /v1/skills/types` lists it. */
export type MetadataDefinition = {
  name: string;
  required: boolean;
  type: MetadataValueType;
  /** The default, used when a Skill leaves the entry out; null when there is none. */
  value: unknown;
  description: string;
  /** `select`: the allowed values. */
  options?: string[];
  /** `integer`: the allowed range. */
  minimum?: number;
  maximum?: number;
  /** Encrypted at rest and redacted when a Skill is read (it may hold credentials). */
  secret?: boolean;
};

/** Who runs a skill and how deep in nested Action runs it is (an `action` skill runs another Action). */
export type SkillExecution = { workspaceId: string; signal?: AbortSignal; depth: number };

/** A kind of Skill: its settings and how one runs with a text input. */
export type SkillType = {
  /** Fixed per type, so a Skill may name its type by GUID as well as by name. */
  guid: string;
  name: string;
  description: string;
  /** What the model is told to pass as the tool's `input`. */
  inputDescription: string;
  metadata: MetadataDefinition[];
  /** Checks settings beyond each value's own type; answers the reason and the entry's name. */
  check?(settings: Record<string, unknown>): { entry: string; reason: string } | undefined;
  execute(settings: Record<string, unknown>, input: string, execution: SkillExecution): Promise<string>;
};

/** Every type accepts a description: what the model reads about the tool. */
export const descriptionDefinition: MetadataDefinition = {
  name: 'description',
  required: false,
  type: 'text',
  value: null,
  description:
    'What the model is told this Skill does when it is offered as a tool; the type’s description when absent.',
};

/** Tool results longer than this are cut: a model's context is finite and a web page is not. */
export const maximumSkillOutputCharacters = 16_000;

export function truncateOutput(text: string): string {
  if (text.length <= maximumSkillOutputCharacters) return text;
  return `${text.slice(0, maximumSkillOutputCharacters)}\n[truncated: ${text.length - maximumSkillOutputCharacters} more characters]`;
}

/** A skill's outside call failed (an HTTP endpoint answered an error, a Context vanished). */
export class SkillFailedError extends AppError {
  constructor(message: string) {
    super(502, 'skill_failed', message);
  }
}
