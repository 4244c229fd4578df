import type { NextConfig } from 'next';

const config: NextConfig = {
  turbopack: {
    // Required: transformers.js imports ONNX Runtime's WebGPU build, which loads its asyncify WASM
    // from a CDN; the plain WASM build is the one whose files the app serves (public/zerda/). The
    // target resolves from this folder: hence onnxruntime-web in package.json (pnpm hides it otherwise).
    resolveAlias: { 'onnxruntime-web/webgpu': 'onnxruntime-web/wasm' },
  },
};

export default config;
