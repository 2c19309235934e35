import { Injectable, type ExecutionContext } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import { IS_PUBLIC } from './public.decorator';
import type { AuthenticatedRequest } from './tenant.decorator';

/** Rate limits per tenant (the API key's), not per IP: one tenant cannot starve another. */
@Injectable()
export class TenantThrottlerGuard extends ThrottlerGuard {
  protected override async getTracker(req: Record<string, unknown>): Promise<string> {
    const r = req as unknown as AuthenticatedRequest;
    return r.tenant ? `tenant:${r.tenant}` : `ip:${r.ip ?? 'unknown'}`;
  }

  protected override async shouldSkip(ctx: ExecutionContext): Promise<boolean> {
    return this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [ctx.getHandler(), ctx.getClass()]) ?? false;
  }
}
