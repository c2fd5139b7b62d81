import { callModel } from '../../../llm/model-call.js';
import type { ModelResolver } from '../../models/providers/index.js';
import type { ContextPromptInput, responseModes } from './schemas.js';
import type { ContextSearch, SearchHit } from './search.js';
import type { ContextService } from './service.js';

export type ResponseMode = (typeof responseModes)[number];

const defaultTopK = 4;
/** The model used when the workspace has no default provider model (the mock provider, docs/api.md#the-mock-provider). */
const fallbackModel = 'mock/echo';
/** Characters of retrieved text per model call in compact and tree_summarize modes. */
const characterBudget = 12_000;

const questionPrompt = (context: string, query: string) =>
  `Context information is below.\n---------------------\n${context}\n---------------------\n` +
  `Given the context information and not prior knowledge, answer the query.\nQuery: ${query}\nAnswer: `;

const refinePrompt = (context: string, query: string, answer: string) =>
  `The original query is as follows: ${query}\nWe have provided an existing answer: ${answer}\n` +
  `We have the opportunity to refine the existing answer (only if needed) with some more context below.\n` +
  `------------\n${context}\n------------\n` +
  `Given the new context, refine the original answer to better answer the query. ` +
  `If the context isn't useful, return the original answer.\nRefined Answer: `;

const summaryPrompt = (context: string, query: string) =>
  `Context information from multiple sources is below.\n---------------------\n${context}\n---------------------\n` +
  `Given the information from multiple sources and not prior knowledge, answer the query.\nQuery: ${query}\nAnswer: `;

/** Texts joined into groups of at most `budget` characters (a longer text is a group of its own). */
function pack(texts: string[], budget: number): string[] {
  const groups: string[] = [];
  let current = '';
  for (const text of texts) {
    if (current && current.length + text.length + 2 > budget) {
      groups.push(current);
      current = '';
    }
    current = current ? `${current}\n\n${text}` : text;
  }
  if (current) groups.push(current);
  return groups;
}

/** The answer over a Context's best chunks, and those chunks (`nodes` on the wire). */
export type ContextPromptAnswer = { text: string; hits: SearchHit[] };

/** Answers a prompt from a Context's Documents in a response mode (compact, refine, tree_summarize…). */
export type ContextPrompt = (
  workspaceId: string,
  contextId: string,
  input: ContextPromptInput,
) => Promise<ContextPromptAnswer>;

/**
 * docs/api.md#how-the-parts-behave prompt over documents (a testing endpoint): retrieve `similarityTopK` chunks, then answer
 * with the workspace's default model in one of LlamaIndex's response modes.
 */
export function createContextPrompt(dependencies: {
  contexts: ContextService;
  search: ContextSearch;
  models: ModelResolver;
}): ContextPrompt {
  const { contexts, search, models } = dependencies;

  return async function prompt(workspaceId, contextId, input) {
    const context = await contexts.require(workspaceId, contextId);
    const hits = await search.searchContext(workspaceId, context, {
      text: input.prompt,
      limit: input.similarityTopK ?? defaultTopK,
      metadata: input.metadataFilter,
    });
    const mode: ResponseMode = input.responseMode ?? 'compact';
    if (mode === 'no_text' || hits.length === 0) return { text: '', hits };

    const reference = await models.defaultReference(workspaceId, fallbackModel);
    const model = await models.resolve(workspaceId, reference);
    const maximumTokens = input.responseLength ?? context.responseLength ?? undefined;
    const ask = async (text: string) => {
      const answer = await callModel({
        model: model.languageModel,
        kind: model.kind,
        messages: [{ role: 'user', content: text }],
        config: maximumTokens ? { max_response_length: maximumTokens } : {},
        tools: { definitions: [], implementations: new Map() },
        executeTools: false,
        workspaceId,
      });
      return answer.text;
    };
    const text = await answerInMode(mode, hits, input.prompt, ask);
    return { text, hits };
  };
}

async function answerInMode(
  mode: Exclude<ResponseMode, 'no_text'>,
  hits: SearchHit[],
  query: string,
  ask: (text: string) => Promise<string>,
): Promise<string> {
  const chunks = hits.map((hit) => hit.content);
  switch (mode) {
    case 'simple_summarize':
      return ask(questionPrompt(chunks.join('\n\n').slice(0, characterBudget), query));
    case 'refine':
      return refineOver(chunks, query, ask);
    case 'compact':
      return refineOver(pack(chunks, characterBudget), query, ask);
    case 'tree_summarize': {
      let level = pack(chunks, characterBudget);
      for (;;) {
        const answers = await Promise.all(level.map((group) => ask(summaryPrompt(group, query))));
        if (answers.length === 1) return answers[0]!;
        const next = pack(answers, characterBudget);
        // Answers that no longer shrink into fewer groups are summarised once more, together.
        level = next.length < level.length ? next : [answers.join('\n\n').slice(0, characterBudget)];
      }
    }
  }
}

/** First group answers, each further group refines the answer. */
async function refineOver(groups: string[], query: string, ask: (text: string) => Promise<string>) {
  let answer = await ask(questionPrompt(groups[0]!, query));
  for (const group of groups.slice(1)) answer = await ask(refinePrompt(group, query, answer));
  return answer;
}
