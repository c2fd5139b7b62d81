import secureJson from 'secure-json-parse';

/**
 * JSON.parse that refuses `__proto__` and `constructor.prototype` keys, as Fastify's default does.
 * secure-json-parse looks for those keys with two regexes over the whole text (~15 ms each on a
 * 22 MB upload). Written without `\u` escapes, such a key can only be the literal word, which
 * `includes` finds ten times faster; only a text holding an escape or one of the words is handed to it.
 */
export function parseJsonText(withMark: string): unknown {
  // A byte order mark before the JSON is allowed, as secure-json-parse allows it.
  const text = withMark.charCodeAt(0) === 0xfeff ? withMark.slice(1) : withMark;
  const mayHideKey = text.includes('\\u') || text.includes('__proto__') || text.includes('constructor');
  if (!mayHideKey) return JSON.parse(text);
  try {
    return secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    // Its key scan recurses: JSON nested thousands deep overflows the stack. That is the body's fault.
    if (error instanceof RangeError) throw new SyntaxError('the JSON is nested too deeply');
    throw error;
  }
}
