import { convert as htmlToText } from 'html-to-text';
import mammoth from 'mammoth';
import { extractText as extractPdfText } from 'unpdf';
import type { FileType } from './file-types.js';
import { UnsupportedFileError } from './unsupported-file-error.js';

/** A loaded piece of a file: a PDF page (numbered from 1), or the whole text of other types. */
export type LoadedText = { text: string; page?: number };

export { UnsupportedFileError };

const docxType = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** Text of a PDF (per page), DOCX, HTML, Markdown or plain-text file. */
export async function extractText(bytes: Buffer, type: FileType): Promise<LoadedText[]> {
  switch (type.mimeType) {
    case 'application/pdf': {
      const { text } = await extractPdfText(new Uint8Array(bytes), { mergePages: false });
      return text.map((pageText, index) => ({ text: pageText, page: index + 1 }));
    }
    case docxType: {
      const { value } = await mammoth.extractRawText({ buffer: bytes });
      return [{ text: value }];
    }
    case 'text/html':
      return [
        {
          text: htmlToText(bytes.toString('utf8'), {
            wordwrap: false,
            selectors: [
              { selector: 'a', options: { ignoreHref: true } },
              { selector: 'img', format: 'skip' },
              { selector: 'script', format: 'skip' },
              { selector: 'style', format: 'skip' },
            ],
          }),
        },
      ];
    case 'text/markdown':
    case 'text/plain':
      return [{ text: bytes.toString('utf8') }];
    default:
      throw new UnsupportedFileError(
        `files of type ${type.mimeType} cannot be indexed (PDF, DOCX, HTML, Markdown and text can)`,
      );
  }
}
