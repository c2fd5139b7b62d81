import { randomUUID } from 'node:crypto';
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  PayloadTooLargeError,
  ValidationError,
} from '../../../errors.js';
import type { BlobStore } from '../../../platform/blobs/blob-store.js';
import { isUniqueViolation } from '../../../platform/database/errors.js';
import type { PayloadDecoder } from '../../../platform/payloads/payload-decoder.js';
import type { Signer } from '../../../platform/signing.js';
import { detectFileType } from '../../../retrieval/loaders/file-types.js';
import type { FileRepository } from './repository.js';
import type { PresignedUpload } from './responses.js';

/** docs/api.md#limits: a signed file URL is valid for ten minutes. */
export const signedUrlLifetimeMs = 10 * 60_000;
const signingPurpose = 'file';
/** A presigned form upload (the official SDK's `contexts.uploadFile`) is signed for this purpose. */
const uploadPurpose = 'file-upload';
/** docs/api.md#how-the-parts-behave: data no signature recognises is handled as PNG. */
const unrecognisedType = 'image/png';

/** What an upload's `data` holds: the Base64 of the file, and the type a data URL declares. */
type Upload = { base64: string; declaredType?: string };

/**
 * The Base64 of a string or data URL (`data:[type][;parameter]*;base64,<data>`), with the declared
 * MIME type; 400 for a data URL that is not Base64. The header is found by its comma: a regex capturing the data would be one more pass over it.
 */
function readUpload(data: string): Upload {
  const comma = data.startsWith('data:') ? data.indexOf(',') : -1;
  if (comma < 0) return { base64: data };
  const [declaredType, ...parameters] = data.slice('data:'.length, comma).split(';');
  if (!parameters.includes('base64')) {
    throw new ValidationError('data', 'a data URL must be Base64-encoded (";base64,")');
  }
  return { base64: data.slice(comma + 1), declaredType: declaredType || undefined };
}

/** A file's bytes with the type sniffed when it was stored. */
export type FileContent = { bytes: Buffer; mimeType: string };

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
  /**
   * The upload of a presigned form, authorised by its signed `key`, once per key: checks the form's fields before its file is read (403 for a forged or expired
   * form, 409 for a used one): the file's bytes are read only for a form this service signed.
   */
  authorizeForm(fields: { key?: string; token?: string }): Promise<UploadTarget>;
  /** Stores the file of a form `authorizeForm` accepted. */
  uploadForm(
    target: UploadTarget,
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

/** Where a presigned upload form's file goes: the workspace and file GUID its signed key names. */
export type UploadTarget = { workspaceId: string; id: string };

const usedForm = () => new ConflictError('This upload form was used already');

export function createFileService(dependencies: {
  repository: FileRepository;
  blobs: BlobStore;
  signer: Signer;
  baseUrl: string;
  payloads: PayloadDecoder;
  maximumBytes: number;
}): FileService {
  const { repository, blobs, payloads, signer, baseUrl, maximumBytes } = dependencies;
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
      const { base64, declaredType } = readUpload(data);
      const decoding = await payloads.decodeBase64(base64, maximumBytes);
      if ('problem' in decoding) {
        if (decoding.problem === 'too_large') {
          throw new PayloadTooLargeError(`The file is larger than the limit of ${maximumBytes} bytes`);
        }
        throw new ValidationError('data', 'is not valid Base64');
      }
      const { bytes } = decoding;
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

    async authorizeForm(fields) {
      const { key = '', token = '' } = fields;
      const verdict = signer.verify(uploadPurpose, key, token);
      if (verdict !== 'valid') {
        throw new ForbiddenError(
          verdict === 'expired' ? 'This upload form has expired' : 'Invalid upload form signature',
        );
      }
      const [workspaceId, id] = key.split('/') as [string, string];
      if (await repository.find(workspaceId, id)) throw usedForm();
      return { workspaceId, id };
    },

    async uploadForm({ workspaceId, id }, file) {
      await store(workspaceId, id, file.bytes, file).catch((error: unknown) => {
        throw isUniqueViolation(error) ? usedForm() : error;
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
