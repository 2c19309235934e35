import { constants, runInThisContext } from 'node:vm';
import { pathToFileURL } from 'node:url';
import type * as NodeLlamaCpp from 'node-llama-cpp';

/** The node-llama-cpp module namespace. */
export type NodeLlamaCppModule = typeof NodeLlamaCpp;

type DynamicImport = (specifier: string) => Promise<unknown>;

let loading: Promise<NodeLlamaCppModule> | undefined;

/**
 * Loads node-llama-cpp, an ES module with top-level await. Neither route this repo uses for ES
 * modules works for it: Node 22's `require(esm)` refuses graphs with top-level await, and tsc's
 * CommonJS output turns `import()` into `require()`. So the real dynamic `import()` is reached
 * through code compiled at run time:
 *  - `new Function` in a normal process (services, scripts): no flags, no warnings;
 *  - in Jest's vm sandbox that code has no import callback, so a function compiled in the main
 *    context with Node's default loader is used instead (Node prints a one-time
 *    ExperimentalWarning for `USE_MAIN_CONTEXT_DEFAULT_LOADER` there).
 * The specifier is resolved to an absolute URL first, because run-time compiled code has no
 * file of its own to resolve a bare name from.
 */
export function loadNodeLlamaCpp(): Promise<NodeLlamaCppModule> {
  loading ??= (async () => {
    const url = pathToFileURL(require.resolve('node-llama-cpp')).href;
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- see above: keeps a real import() in CommonJS output
    const viaFunction = new Function('specifier', 'return import(specifier)') as DynamicImport;
    try {
      return (await viaFunction(url)) as NodeLlamaCppModule;
    } catch (error) {
      if (!isMissingImportCallback(error)) throw error;
      const viaMainContext = runInThisContext('(specifier) => import(specifier)', {
        importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
      }) as DynamicImport;
      return (await viaMainContext(url)) as NodeLlamaCppModule;
    }
  })().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/** The error Node raises for `import()` in vm code without an import callback (Jest). */
function isMissingImportCallback(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    (typeof code === 'string' && code.startsWith('ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING')) ||
    (typeof message === 'string' && message.includes('dynamic import callback'))
  );
}
