import type { FilePart, ImagePart, ModelMessage, TextPart } from 'ai';
import type { MessagePart, PromptMessage } from '../core/json-columns.js';

/** `data:image/png;base64,AAAA` → its media type and Base64 payload. */
function splitDataUrl(url: string): { mediaType: string; data: string } | undefined {
  const match = /^data:([^;,]+)(?:;[^;,]*)*;base64,(.*)$/s.exec(url);
  return match ? { mediaType: match[1]!, data: match[2]! } : undefined;
}

const mediaTypesByExtension: Record<string, string> = {
  pdf: 'application/pdf',
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  json: 'application/json',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
};

function mediaTypeOfFilename(filename: string | undefined): string {
  const extension = filename?.split('.').pop()?.toLowerCase() ?? '';
  return mediaTypesByExtension[extension] ?? 'application/pdf';
}

function filePart(file: Extract<MessagePart, { type: 'file' }>['file']): FilePart {
  if (file.file_data) {
    const fromDataUrl = splitDataUrl(file.file_data);
    return {
      type: 'file',
      data: fromDataUrl?.data ?? file.file_data,
      mediaType: fromDataUrl?.mediaType ?? mediaTypeOfFilename(file.filename),
      filename: file.filename,
    };
  }
  // A provider-side file id (OpenAI `file-…`); the adapter sends it as `file_id`.
  return {
    type: 'file',
    data: file.file_id ?? '',
    mediaType: mediaTypeOfFilename(file.filename),
    filename: file.filename,
  };
}

function userPart(part: MessagePart): TextPart | ImagePart | FilePart {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'refusal':
      return { type: 'text', text: part.refusal };
    case 'image_url': {
      const fromDataUrl = splitDataUrl(part.image_url.url);
      return fromDataUrl
        ? { type: 'image', image: fromDataUrl.data, mediaType: fromDataUrl.mediaType }
        : { type: 'image', image: new URL(part.image_url.url) };
    }
    case 'input_audio':
      return {
        type: 'file',
        data: part.input_audio.data,
        mediaType: part.input_audio.format === 'wav' ? 'audio/wav' : 'audio/mpeg',
      };
    case 'file':
      return filePart(part.file);
  }
}

/** The text of a message, for roles whose content must be text (system, assistant). */
export function messageText(content: PromptMessage['content']): string {
  if (typeof content === 'string') return content;
  return content
    .map((part) => (part.type === 'text' ? part.text : part.type === 'refusal' ? part.refusal : ''))
    .join('');
}

/** docs/api.md messages → AI SDK messages; `developer` is a system message to every provider. */
export function toModelMessages(messages: PromptMessage[]): ModelMessage[] {
  return messages.map((message): ModelMessage => {
    switch (message.role) {
      case 'system':
      case 'developer':
        return { role: 'system', content: messageText(message.content) };
      case 'assistant':
        return { role: 'assistant', content: messageText(message.content) };
      default:
        return {
          role: 'user',
          content: typeof message.content === 'string' ? message.content : message.content.map(userPart),
        };
    }
  });
}
