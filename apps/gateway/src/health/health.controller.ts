import { Controller, Get, Inject, ServiceUnavailableException } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Redis } from 'ioredis';
import { REDIS } from '@nl2p/queue';
import { Public } from '../auth/public.decorator';

@ApiTags('health')
@Public()
@Controller('health')
export class HealthController {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  @Get()
  async health() {
    try {
      await this.redis.ping();
    } catch (err) {
      throw new ServiceUnavailableException('redis unreachable', { cause: err });
    }
    return { status: 'ok' };
  }
}
