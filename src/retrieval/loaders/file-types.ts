export type FileType = { mimeType: string; extension: string };

export const textTypes = {
  plain: { mimeType: 'text/plain', extension: 'txt' },
  markdown: { mimeType: 'text/markdown', extension: 'md' },
  html: { mimeType: 'text/html', extension: 'html' },
} satisfies Record<string, FileType>;

/** What the uploader or the server said the file is (a data URL's MIME type, a Content-Type, a name). */
export type TypeHint = { mimeType?: string; filename?: string };

const markdownSigns = /^#{1,6}\s|^\s*[-*+]\s|^\s*\d+\.\s|^```|\[[^\]]+\]\([^)]+\)|^\s*>\s/m;
const htmlStart = /^\s*(<!doctype html|<html[\s>]|<head[\s>]|<body[\s>])/i;

function decodedText(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  const head = bytes.subarray(0, 64 * 1024);
  try {
    // `stream`: a multi-byte character cut at the end of the sample is not an error.
    return new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: bytes.length > head.length });
  } catch {
    return undefined;
  }
}

/**
 * The file's type by magic number (`file-type`: PDF, images, DOCX and many more); text files have
 * no magic number, so UTF-8 text is told apart as HTML, Markdown or plain text. `undefined` for
 * unrecognised binary data.
 */
export async function detectFileType(bytes: Uint8Array, hint: TypeHint = {}): Promise<FileType | undefined> {
  // Loaded by the first upload, not at start.
  const { fileTypeFromBuffer } = await import('file-type');
  const sniffed = await fileTypeFromBuffer(bytes);
  if (sniffed) return { mimeType: sniffed.mime, extension: sniffed.ext };
  const text = decodedText(bytes);
  if (text === undefined) return undefined;
  const declared = hint.mimeType?.split(';')[0]?.trim().toLowerCase();
  const name = hint.filename?.toLowerCase() ?? '';
  if (declared === 'text/html' || name.endsWith('.html') || name.endsWith('.htm') || htmlStart.test(text)) {
    return textTypes.html;
  }
  if (declared === 'text/markdown' || name.endsWith('.md') || name.endsWith('.markdown'))
    return textTypes.markdown;
  if (declared === 'text/plain' || name.endsWith('.txt')) return textTypes.plain;
  return markdownSigns.test(text) ? textTypes.markdown : textTypes.plain;
}
