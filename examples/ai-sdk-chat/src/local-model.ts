// A stand-in for a real model, so this example runs with no key and no network: it answers a
// question from the memory context Zerda put into the prompt, and acknowledges anything else.
// Replace it with any AI SDK model, e.g. `openai('gpt-4.1-mini')` from '@ai-sdk/openai'.
import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';

function reply({ prompt }: LanguageModelV4CallOptions): string {
  const last = prompt.at(-1);
  const question = last?.role === 'user' ? last.content.map((p) => (p.type === 'text' ? p.text : '')).join('') : '';
  // Each memory is a `- [kind, date] ` item whose continuation lines are indented.
  const memories = prompt
    .flatMap((m) => (m.role === 'system' ? m.content.split(/\n(?=- \[)/) : []))
    .filter((item) => item.startsWith('- ['))
    .map((item) =>
      item
        .replace(/^- \[[^\]]*\] /, '')
        .replace(/\s*\n\s*/g, ' — ')
        .replace(/^User: /, ''),
    );
  if (!question.trim().endsWith('?')) return 'Noted.';
  return memories.length > 0 ? `From what you told me: ${memories[0]}` : 'I do not know that yet.';
}

const USAGE = {
  inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 0, text: 0, reasoning: undefined },
};

export const localModel: LanguageModelV4 = {
  specificationVersion: 'v4',
  provider: 'local',
  modelId: 'memory-echo',
  supportedUrls: {},
  async doGenerate(options) {
    return {
      content: [{ type: 'text', text: reply(options) }],
      finishReason: { unified: 'stop', raw: undefined },
      usage: USAGE,
      warnings: [],
    };
  },
  async doStream(options) {
    const words = reply(options).split(/(?<= )/);
    const parts: LanguageModelV4StreamPart[] = [
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: 'answer' },
      ...words.map((delta): LanguageModelV4StreamPart => ({ type: 'text-delta', id: 'answer', delta })),
      { type: 'text-end', id: 'answer' },
      { type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage: USAGE },
    ];
    return {
      stream: new ReadableStream<LanguageModelV4StreamPart>({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          controller.close();
        },
      }),
    };
  },
};
