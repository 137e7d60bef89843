// A module resolution hook: `fs` imported from the conformance suite
// resolves to fs-shim.mjs; everything else resolves as usual.
const shim = new URL('./fs-shim.mjs', import.meta.url).href;

export async function resolve(specifier, context, next) {
  if (specifier === 'fs' && context.parentURL && context.parentURL.includes('/@modelcontextprotocol/conformance/')) {
    return { url: shim, shortCircuit: true };
  }
  return next(specifier, context);
}
