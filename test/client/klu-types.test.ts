import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it, onTestFinished } from 'vitest';

// Code typed against Klu's official SDK compiles against the drop-in unchanged: its declarations are
// assignable wherever the SDK's are. A Klu-style program (the patterns Klu's own example app uses)
// is compiled twice by the TypeScript compiler, once against @kluai/core and once against the
// drop-in's own emitted .d.ts files; both must compile without an error, and without a cast.

const projectRoot = path.resolve(import.meta.dirname, '../..');

/** The program, importing the SDK from `from`. */
const program = (from: string) => `
import Klu, { type PersistedAction, type PromptInput, type PromptResponse, ActionNotFoundError } from '${from}';

type Answer = Omit<PromptResponse, 'resultUrl' | 'streamingUrl'>;

async function main(input: unknown): Promise<void> {
  const klu = new Klu('key');
  const action: PersistedAction = await klu.actions.get('guid');
  // The SDK types the template a string.
  const template: string = action.prompt;
  const kind: string = action.actionType;
  // Klu's example app passes its form's values as an Object.
  const answer = await klu.actions.prompt(action.guid, input as Object);
  const variables: PromptInput = input as Object;
  // Omit of the answer keeps its fields typed.
  const kept: Answer = answer;
  const message: string = kept.msg;
  const dataGuid: string | undefined = kept.data_guid;
  const feedbackUrl: string | undefined = kept.feedbackUrl;
  const streamed = await klu.actions.stream(action.guid, variables);
  for await (const chunk of streamed.streamingData) console.log(chunk);
  const later = await klu.actions.asyncPrompt(action.guid, variables);
  const resultUrl: string = later.resultUrl;
  try {
    await klu.actions.prompt('missing', {});
  } catch (error) {
    if (error instanceof ActionNotFoundError) console.log(error.message);
  }
  console.log(template, kind, message, dataGuid, feedbackUrl, resultUrl);
}
void main({});
`;

function compile(file: string): string[] {
  const host = ts.createCompilerHost({});
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
  };
  const compiled = ts.createProgram([file], options, host);
  return ts
    .getPreEmitDiagnostics(compiled)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

describe('the Klu drop-in’s declarations', () => {
  it('compile a Klu-style program exactly as the official SDK’s do', () => {
    // Inside the project, so that `@kluai/core` resolves from its node_modules as an app's would.
    const directory = path.join(projectRoot, 'test-output', `klu-types-${process.pid}`);
    rmSync(directory, { recursive: true, force: true });
    onTestFinished(() => rmSync(directory, { recursive: true, force: true }));
    // The drop-in's declarations as its build emits them.
    const declarations = path.join(directory, 'types');
    const emitted = ts
      .createProgram([path.join(projectRoot, 'packages/client/src/klu/index.ts')], {
        ...ts.parseJsonConfigFileContent(
          ts.readConfigFile(path.join(projectRoot, 'packages/client/tsconfig.json'), ts.sys.readFile).config,
          ts.sys,
          path.join(projectRoot, 'packages/client'),
        ).options,
        declarationDir: declarations,
        outDir: declarations,
      })
      .emit();
    expect(emitted.diagnostics).toEqual([]);
    mkdirSync(path.join(directory, 'program'), { recursive: true });
    const againstSdk = path.join(directory, 'program/against-sdk.ts');
    const againstDropIn = path.join(directory, 'program/against-drop-in.ts');
    writeFileSync(againstSdk, program('@kluai/core'));
    writeFileSync(againstDropIn, program('../types/klu/index.js'));
    writeFileSync(path.join(directory, 'package.json'), JSON.stringify({ type: 'module' }));

    // The program is a valid program of the official SDK…
    expect(compile(againstSdk)).toEqual([]);
    // …and compiles against the drop-in's own declarations unchanged.
    expect(compile(againstDropIn)).toEqual([]);
  }, 60_000);
});
