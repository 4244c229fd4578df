import type { WebAssemblyApi } from '../retrieval/simd-dot.js';

/** The platform's own WebAssembly, as the `webAssembly` option takes it. */
export function realWasm(): WebAssemblyApi {
  const { validate, Module, Instance, Memory } = WebAssembly;
  return { validate, Module, Instance, Memory };
}

/** The platform's WebAssembly, except that no memory may grow past `maxPages` 64 KiB pages. */
export function cappedWasm(maxPages: number): WebAssemblyApi {
  const real = realWasm();
  return {
    ...real,
    Memory: class {
      constructor(d: WebAssembly.MemoryDescriptor) {
        return new real.Memory({ ...d, maximum: maxPages });
      }
    } as unknown as WebAssemblyApi['Memory'],
  };
}
