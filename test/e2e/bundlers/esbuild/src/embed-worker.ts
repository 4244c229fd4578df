import { exposeEmbedder } from '@zerda/browser/worker';
exposeEmbedder({ wasmPaths: '/ort/' });
