// Loaded with `node --import ./register-fs-shim.mjs`: routes the suite's
// `import ... from "fs"` to fs-shim.mjs (see there for why).
import { register } from 'node:module';

register('./fs-shim-loader.mjs', import.meta.url);
