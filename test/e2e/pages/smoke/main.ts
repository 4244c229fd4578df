import { isZerdaError, ZerdaError } from '@zerda/core';
const out = document.getElementById('out')!;
out.textContent = JSON.stringify({
  isolated: globalThis.crossOriginIsolated,
  ok: isZerdaError(new ZerdaError('VALIDATION', 'x'), 'VALIDATION'),
});
