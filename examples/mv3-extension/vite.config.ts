import { defineConfig } from 'vite';
import { zerda } from '@zerda/browser/vite';

// Three entry points: the popup and the offscreen document (pages), and the background service
// worker, which must keep a fixed file name for manifest.json. `public/manifest.json` is copied as is.
export default defineConfig({
  plugins: [zerda()],
  build: {
    rollupOptions: {
      input: { popup: 'popup.html', offscreen: 'offscreen.html', background: 'src/background.ts' },
      output: {
        entryFileNames: (chunk) => (chunk.name === 'background' ? 'background.js' : 'assets/[name]-[hash].js'),
      },
    },
  },
});
