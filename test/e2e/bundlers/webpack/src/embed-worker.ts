import { exposeEmbedder } from '@zerda/browser/worker';
exposeEmbedder();
