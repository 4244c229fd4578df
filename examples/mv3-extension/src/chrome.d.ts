// The few extension APIs this example uses (install @types/chrome in a real project).
declare namespace chrome.runtime {
  interface MessageSender {
    url?: string;
  }
  function sendMessage<T = unknown>(message: unknown): Promise<T>;
  function getURL(path: string): string;
  function getContexts(filter: { contextTypes: string[]; documentUrls?: string[] }): Promise<unknown[]>;
  const onMessage: {
    addListener(
      fn: (message: unknown, sender: MessageSender, sendResponse: (response: unknown) => void) => boolean | undefined,
    ): void;
  };
}
declare namespace chrome.offscreen {
  function createDocument(options: { url: string; reasons: string[]; justification: string }): Promise<void>;
}
