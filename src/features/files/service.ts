import { randomUUID } from 'node:crypto';
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  PayloadTooLargeError,
  ValidationError,
} from '../../errors.js';
import type { BlobStore } from '../../platform/blobs/blob-store.js';
import { isUniqueViolation } from '../../platform/database/errors.js';
import type { Signer } from '../../platform/signing.js';
import { detectFileType } from '../../retrieval/loaders/file-types.js';
import type { FileRepository } from './repository.js';

/** docs/api.md#limits: a signed file URL is valid for ten minutes. */
export const signedUrlLifetimeMs = 10 * 60_000;
const signingPurpose = 'file';
/** A presigned form upload (the official SDK's `contexts.uploadFile`) is signed for this purpose. */
const uploadPurpose = 'file-upload';
/** docs/api.md#how-the-parts-behave: data no signature recognises is handled as PNG. */
const unrecognisedType = 'image/png';

const dataUrlPattern = /^data:([^;,]*)((?:;[^;,]*)*),(.*)$/s;
/** Either Base64 alphabet, the URL-safe one included (Node's decoder reads both). */
const base64Pattern = /^[A-Za-z0-9+/_-]*={0,2}$/;
const whitespace = /\s/;

/** The bytes of a Base64 string or data URL, with the declared MIME type; 400 for anything else. */
function decodeUpload(data: string, maximumBytes: number): { bytes: Buffer; declaredType?: string } {
  let payload = data;
  let declaredType: string | undefined;
  const dataUrl = dataUrlPattern.exec(data);
  if (dataUrl) {
    if (!dataUrl[2]!.split(';').includes('base64')) {
      throw new ValidationError('a data URL must be Base64-encoded (";base64,")', 'data');
    }
    declaredType = dataUrl[1] || undefined;
    payload = dataUrl[3]!;
  }
  // Line breaks are allowed (MIME-style Base64); the URL-safe alphabet too. Each pass over a 22 MB
  // string holds the request thread, so whitespace is removed only where there is some, and the
  // URL-safe characters are left for the decoder rather than rewritten.
  if (whitespace.test(payload)) payload = payload.replace(/\s+/g, '');
  if (payload.length === 0 || !base64Pattern.test(payload) || payload.length % 4 === 1) {
    throw new ValidationError('is not valid Base64', 'data');
  }
  const padding = payload.endsWith('==') ? 2 : payload.endsWith('=') ? 1 : 0;
  const size = Math.floor((payload.length * 3) / 4) - padding;
  if (size > maximumBytes) {
    throw new PayloadTooLargeError(`The file is larger than the limit of ${maximumBytes} bytes`);
  }
  return { bytes: Buffer.from(payload, 'base64'), declaredType };
}

/** A file's bytes with the type sniffed when it was stored. */
export type FileContent = { bytes: Buffer; mimeType: string };

/** A presigned form upload: where to post, the signed fields, and the file URL once posted. */
export type PresignedUpload = {
  url: string;
  fields: { key: string; token: string; file_name: string };
  object_url: string;
};

/*
 * Files answer with URLs this service signs, so its answers are the API's shapes already; there is
 * no stored record to present.
 */
export interface FileService {
  /** docs/api.md#how-the-parts-behave upload: stored in the blob store, answered with a ten-minute signed URL. */
  upload(workspaceId: string, data: string): Promise<{ url: string }>;
  /**
   * A presigned form upload for the official SDK (`POST /v1/context/presign`): the SDK posts the
   * `fields` and the file as multipart form data to `url` without an API key, then hands
   * `object_url` (this service's signed file URL, valid once the upload is done) to `add_files`.
   */
  presign(workspaceId: string, fileName: string, now?: number): PresignedUpload;
  /** The upload of a presigned form: authorised by its signed `key`, once per key. */
  uploadForm(
    fields: { key?: string; token?: string },
    file: { bytes: Buffer; mimeType?: string; filename?: string },
  ): Promise<void>;
  /** The bytes behind a signed URL (no API key needed); 403 when the token is forged or expired. */
  download(id: string, token: string): Promise<FileContent>;
  /**
   * The file GUID of one of this service's signed URLs, or `undefined` for any other URL. The
   * signature must still be valid: a Context Source is created from a URL the caller just got.
   */
  ownFileOf(url: string): { id: string; valid: boolean } | undefined;
  /** A file of the workspace straight from the blob store (Context Sources, docs/api.md#how-the-parts-behave). */
  read(workspaceId: string, id: string): Promise<FileContent | undefined>;
}

export function createFileService(dependencies: {
  repository: FileRepository;
  blobs: BlobStore;
  signer: Signer;
  baseUrl: string;
  maximumBytes: number;
}): FileService {
  const { repository, blobs, signer, baseUrl, maximumBytes } = dependencies;
  const blobKey = (workspaceId: string, id: string) => `files/${workspaceId}/${id}`;
  const urlPrefix = `${baseUrl}/v1/files/`;

  function signedUrl(id: string, now = Date.now()): string {
    return `${urlPrefix}${id}?token=${signer.sign(signingPurpose, id, now + signedUrlLifetimeMs)}`;
  }

  /** Sniffs the type, stores the bytes and the row; the row last, so a file never lacks its bytes. */
  async function store(
    workspaceId: string,
    id: string,
    bytes: Buffer,
    hint: { mimeType?: string; filename?: string },
  ) {
    const type = await detectFileType(bytes, hint);
    await blobs.put(blobKey(workspaceId, id), bytes);
    await repository.insert({
      id,
      workspaceId,
      mimeType: type?.mimeType ?? unrecognisedType,
      size: bytes.length,
    });
  }

  return {
    async upload(workspaceId, data) {
      const { bytes, declaredType } = decodeUpload(data, maximumBytes);
      const id = randomUUID();
      await store(workspaceId, id, bytes, { mimeType: declaredType });
      return { url: signedUrl(id) };
    },

    presign(workspaceId, fileName, now = Date.now()) {
      const id = randomUUID();
      const key = `${workspaceId}/${id}`;
      return {
        url: `${baseUrl}/v1/files/form-upload`,
        fields: {
          key,
          token: signer.sign(uploadPurpose, key, now + signedUrlLifetimeMs),
          file_name: fileName,
        },
        object_url: signedUrl(id, now),
      };
    },

    async uploadForm(fields, file) {
      const { key = '', token = '' } = fields;
      const verdict = signer.verify(uploadPurpose, key, token);
      if (verdict !== 'valid') {
        throw new ForbiddenError(
          verdict === 'expired' ? 'This upload form has expired' : 'Invalid upload form signature',
        );
      }
      const [workspaceId, id] = key.split('/') as [string, string];
      const used = () => new ConflictError('This upload form was used already');
      if (await repository.find(workspaceId, id)) throw used();
      await store(workspaceId, id, file.bytes, file).catch((error: unknown) => {
        throw isUniqueViolation(error) ? used() : error;
      });
    },

    async download(id, token) {
      const verdict = signer.verify(signingPurpose, id, token);
      if (verdict !== 'valid') {
        throw new ForbiddenError(
          verdict === 'expired' ? 'This file URL has expired' : 'Invalid file URL signature',
        );
      }
      const row = await repository.findBySignedId(id);
      const bytes = row ? await blobs.get(blobKey(row.workspaceId, row.id)) : undefined;
      if (!row || !bytes) throw new NotFoundError('File not found');
      return { bytes, mimeType: row.mimeType };
    },

    ownFileOf(url) {
      if (!url.startsWith(urlPrefix)) return undefined;
      const parsed = new URL(url);
      const id = parsed.pathname.split('/').at(-1) ?? '';
      const token = parsed.searchParams.get('token') ?? '';
      return { id, valid: signer.verify(signingPurpose, id, token) === 'valid' };
    },

    async read(workspaceId, id) {
      const row = await repository.find(workspaceId, id);
      const bytes = row ? await blobs.get(blobKey(workspaceId, id)) : undefined;
      if (!row || !bytes) return undefined;
      return { bytes, mimeType: row.mimeType };
    },
  };
}
