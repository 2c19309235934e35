import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

/** The tenant the auth guard resolved from the API key (`local` when auth is off). */
export interface AuthenticatedRequest extends Request {
  tenant?: string;
}

export const Tenant = createParamDecorator((_: unknown, ctx: ExecutionContext): string => {
  const tenant = ctx.switchToHttp().getRequest<AuthenticatedRequest>().tenant;
  if (!tenant) throw new Error('no tenant on the request: is the auth guard registered?');
  return tenant;
});
