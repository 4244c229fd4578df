import type { EmbedOptions } from './embedder.js';
import { invalid } from './errors.js';

/**
 * The argument check of `Embedder.embed`, one place for every embedder: `texts` is an array of
 * strings, `options` an object whose `onProgress`, when given, is a function. Throws `VALIDATION`.
 */
export function checkEmbedArgs(texts: unknown, options: unknown): asserts options is EmbedOptions {
  if (!Array.isArray(texts)) invalid('texts', 'an array of strings', texts);
  texts.forEach((t, i) => {
    if (typeof t !== 'string') invalid(`texts[${i}]`, 'a string', t);
  });
  if (typeof options !== 'object' || options === null) invalid('options', 'an object', options);
  const { onProgress } = options as EmbedOptions;
  if (onProgress !== undefined && typeof onProgress !== 'function') invalid('onProgress', 'a function', onProgress);
}
