import { Inject, Injectable, UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { APP_CONFIG, type AppConfig } from '@nl2p/config';
import { bearerToken, tenantOfKey } from './api-keys';
import { IS_PUBLIC } from './public.decorator';
import type { AuthenticatedRequest } from './tenant.decorator';

/** The tenant of every request when auth is off (local use only). */
export const LOCAL_TENANT = 'local';

/**
 * API keys (`Authorization: Bearer …`), configured as SHA-256 hashes, each bound to a tenant.
 * No key or a wrong key is 401; the same message for both, so a caller learns nothing.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly reflector: Reflector,
  ) {}

  canActivate(ctx: ExecutionContext): boolean {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [ctx.getHandler(), ctx.getClass()])) return true;
    const req = ctx.switchToHttp().getRequest<AuthenticatedRequest>();
    if (!this.config.auth.enabled) {
      req.tenant = LOCAL_TENANT;
      return true;
    }
    const token = bearerToken(req.headers.authorization);
    const tenant = token ? tenantOfKey(this.config.auth.keys, token) : null;
    if (!tenant) {
      ctx.switchToHttp().getResponse<Response>().setHeader('WWW-Authenticate', 'Bearer');
      throw new UnauthorizedException('a valid API key is required (Authorization: Bearer <key>)');
    }
    req.tenant = tenant;
    return true;
  }
}
