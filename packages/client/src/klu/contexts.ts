import type { HttpClient } from '../transport/http.js';
import { contextConverter, contextDocumentConverter, type Wire } from './converters.js';
import { KluResource } from './resource.js';
import type {
  AddContextDocumentResponse,
  Context,
  ContextDocument,
  ContextPost,
  DocumentPromptResponse,
  FileData,
  PersistedContext,
  PreSignUrlPostData,
  TaskStatusEnum,
  UpdateContextDocument,
} from './types.js';

/** A file's bytes from its path; Node only (a browser has no paths). */
async function readLocalFile(filePath: string): Promise<Blob> {
  const { readFile } = await import('node:fs/promises');
  return new Blob([await readFile(filePath)]);
}

/** `klu.contexts`: Contexts, their files and Documents, search and prompts over them. */
export class Contexts extends KluResource<PersistedContext, Context> {
  constructor(http: HttpClient) {
    super(http, '/v1/context/', contextConverter);
  }

  override async create(data: ContextPost): Promise<PersistedContext> {
    const { files, fileData, ...rest } = data;
    const fileUrls = fileData ? await Promise.all(fileData.map((file) => this.uploadFile(file))) : files;
    return super.create({ ...rest, ...(fileUrls && { files: fileUrls }) } as Context);
  }

  async getStatus(guid: string): Promise<TaskStatusEnum> {
    const answer = await this.callFor('Context', guid, 'POST', `${guid}/status`);
    return answer.status as TaskStatusEnum;
  }

  async embed(context: string): Promise<{ message: string }> {
    const answer = await this.callFor('Context', context, 'POST', 'embed', { guid: context });
    return { message: answer.msg as string };
  }

  /** A presigned upload of the file at `filePath`: answers the object URL a Context's `files` names. */
  async uploadFile(fileData: FileData): Promise<string> {
    const presigned = await this.getPresignedUrl(fileData.fileName);
    const form = new FormData();
    for (const [name, value] of Object.entries(presigned.fields)) form.append(name, value);
    form.append('file', await readLocalFile(fileData.filePath), fileData.fileName);
    // The signed fields authorise the upload; the client's key is not needed there, and harmless.
    await this.http.request({ method: 'POST', path: presigned.url, body: form });
    return presigned.objectUrl;
  }

  async uploadContextFiles(context: string, filesData: FileData[]): Promise<Context> {
    const files = await Promise.all(filesData.map((file) => this.uploadFile(file)));
    const answer = await this.callFor('Context', context, 'POST', `${context}/add_files`, { files });
    return contextConverter.fromWire(answer) as unknown as Context;
  }

  async getPresignedUrl(fileName: string): Promise<PreSignUrlPostData> {
    const answer = await this.call('POST', 'presign', { file_name: fileName });
    return { objectUrl: answer.object_url, ...answer } as unknown as PreSignUrlPostData;
  }

  async addDoc(context: string, document: ContextDocument): Promise<AddContextDocumentResponse> {
    const body = contextDocumentConverter.toWire(document as Wire);
    return this.callFor<AddContextDocumentResponse>('Context', context, 'POST', `${context}/documents`, body);
  }

  async listDocs(context: string): Promise<ContextDocument[]> {
    const answer = await this.callFor<{ data: Wire[] }>('Context', context, 'GET', `${context}/documents`);
    return answer.data.map((record) => contextDocumentConverter.fromWire(record) as ContextDocument);
  }

  async deleteAllDocs(context: string): Promise<{ status: TaskStatusEnum }> {
    return this.callFor<{ status: TaskStatusEnum }>('Context', context, 'DELETE', `${context}/documents`);
  }

  async updateDoc(
    document: string,
    context: string,
    newDocData: Partial<UpdateContextDocument>,
  ): Promise<ContextDocument> {
    const body = contextDocumentConverter.toWire(newDocData as Wire);
    const answer = await this.callFor('Context', context, 'PUT', `${context}/documents/${document}`, body);
    return contextDocumentConverter.fromWire(answer) as ContextDocument;
  }

  async search(
    context: string,
    prompt: string,
    similarityScore = 0,
    numberOfResults = 10,
    filter = '',
    metadata = {},
  ): Promise<ContextDocument[]> {
    const body = {
      prompt,
      similarity_score: similarityScore,
      number_of_results: numberOfResults,
      filter,
      metadata,
    };
    const answer = await this.callFor<{ data: Wire[] }>(
      'Context',
      context,
      'POST',
      `${context}/search`,
      body,
    );
    return answer.data.map((record) => contextDocumentConverter.fromWire(record) as ContextDocument);
  }

  async prompt(
    context: string,
    prompt: string,
    responseMode = 'search',
    responseLength = 1024,
    numberOfResults = 5,
  ): Promise<DocumentPromptResponse> {
    const body = { context, prompt, responseMode, similarityTopK: numberOfResults, responseLength };
    return this.callFor<DocumentPromptResponse>('Context', context, 'POST', 'prompt', body);
  }
}
