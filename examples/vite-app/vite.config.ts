import { defineConfig } from 'vite';
import { zerda } from '@zerda/browser/vite';

// All Zerda needs: the plugin. `crossOriginIsolation` adds COOP/COEP to the dev and preview
// servers so the model may use WASM threads (send the same headers from your production host).
export default defineConfig({
  plugins: [zerda({ crossOriginIsolation: true })],
});
