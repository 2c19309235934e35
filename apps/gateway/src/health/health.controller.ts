import { Controller, Get, Header, Inject, ServiceUnavailableException } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiTags } from '@nestjs/swagger';
import { HealthSchema } from '@nl2p/envelope';
import { ApiErrors, ApiView } from '../openapi/responses';
import type { Redis } from 'ioredis';
import { METRICS_CONTENT_TYPE, metricsText } from '@nl2p/metrics';
import { REDIS } from '@nl2p/workflow-runtime';
import { Public } from '../auth/public.decorator';

/**
 * Probes and metrics. `/health` is readiness (Redis reachable: without it no turn can run);
 * `/health/live` only says the process answers, so a Redis outage does not get every gateway
 * restarted; `/metrics` is the Prometheus text format. All public: nothing here names a session
 * or a tenant (see @nl2p/metrics).
 */
@ApiTags('health')
@Public()
@Controller()
export class HealthController {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  @Get('health')
  @ApiView(200, HealthSchema, 'Ready: Redis answers')
  @ApiErrors({ 503: 'Redis cannot be reached' })
  async health() {
    try {
      await this.redis.ping();
    } catch (err) {
      throw new ServiceUnavailableException('redis unreachable', { cause: err });
    }
    return { status: 'ok' };
  }

  @Get('health/live')
  @ApiView(200, HealthSchema, 'The process answers')
  live() {
    return { status: 'ok' };
  }

  @Get('metrics')
  @ApiExcludeEndpoint()
  @Header('content-type', METRICS_CONTENT_TYPE)
  @Header('cache-control', 'no-store')
  metrics(): Promise<string> {
    return metricsText();
  }
}
