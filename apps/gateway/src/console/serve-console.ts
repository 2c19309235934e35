import { existsSync } from 'node:fs';
import path from 'node:path';
import type { LoggerService } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';

/** Where `npm run build` puts the web console (dist/console), seen from the built or the source gateway. */
export function consoleDirectory(): string | null {
  const root = path.resolve(__dirname, '../../../..');
  const candidates = [path.join(root, 'console'), path.join(root, 'dist', 'console')];
  return candidates.find((dir) => existsSync(path.join(dir, 'index.html'))) ?? null;
}

/**
 * Serves the web console's static files at /console/ (public, like /docs: the console asks for an
 * API key itself and sends it with every API call) and sends `/` there.
 */
export function serveConsole(app: NestExpressApplication, logger: LoggerService): void {
  const dir = consoleDirectory();
  if (!dir) {
    logger.warn?.('the web console is not built (run npm run build); /console/ is not served', 'Console');
    return;
  }
  app.useStaticAssets(dir, { prefix: '/console/', index: 'index.html', fallthrough: true });
  app.use((req: { method: string; path: string }, res: { redirect(url: string): void }, next: () => void) => {
    if (req.method === 'GET' && (req.path === '/' || req.path === '/console')) return res.redirect('/console/');
    next();
  });
}
