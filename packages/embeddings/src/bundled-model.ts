/**
 * The bundled offline model, `use-lite` (Universal Sentence Encoder Lite, Apache-2.0): 512-d unit
 * vectors, int8 weights (7.2 MB, in two graphs: float products and integer products, see
 * `quantizeActivations`), SentencePiece tokenizer, input truncated at 128 tokens.
 */
export const USE_LITE = {
  /** Folder name under the package's `model/` folder. */
  name: 'use-lite',
  /** Output dimension. */
  dim: 512,
  /** Tokens kept per text; the rest is truncated. */
  maxTokens: 128,
  /** The weight variant that ships (and names the embedding space). */
  dtype: 'q8',
  /** The file variant with the same weights whose matrix products run in integers (`quantizeActivations`). */
  int8ActivationsDtype: 'int8',
} as const;

/**
 * URLs of the bundled model's files, keyed by their path inside the model folder. Written as
 * `new URL('…', import.meta.url)` so bundlers (Vite, webpack 5, Rollup with the asset plugin) emit
 * the files with the app and rewrite the URLs; in Node they are `file:` URLs into this package.
 * Pass the result as `modelFiles` to serve the model from the app's own origin.
 */
export function useLiteModelFiles(): Record<string, string> {
  return {
    'config.json': new URL('../model/use-lite/config.json', import.meta.url).href,
    'tokenizer.json': new URL('../model/use-lite/tokenizer.json', import.meta.url).href,
    'tokenizer_config.json': new URL('../model/use-lite/tokenizer_config.json', import.meta.url).href,
    'onnx/model_quantized.onnx': new URL('../model/use-lite/onnx/model_quantized.onnx', import.meta.url).href,
    'onnx/model_int8.onnx': new URL('../model/use-lite/onnx/model_int8.onnx', import.meta.url).href,
  };
}
