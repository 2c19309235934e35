import { Controller, Headers, NotFoundException, Param, Query, Sse, type MessageEvent } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Observable } from 'rxjs';
import { SESSION_ID_PATTERN } from '@nl2p/envelope';
import { TurnService } from '../sessions/turn.service';
import { EventStreamService, isStreamId } from './event-stream.service';
import { Tenant } from '../auth/tenant.decorator';

@ApiTags('sessions')
@Controller('v1/sessions')
export class EventsController {
  constructor(
    private readonly turns: TurnService,
    private readonly stream: EventStreamService,
  ) {}

  @Sse(':id/events')
  @ApiOperation({
    summary: 'Follow a turn as Server-Sent Events: node start/end, draft deltas, interrupts, errors, then `end`',
    description:
      'Follows `turn` (default: the running turn, or the last one). Resume with the `Last-Event-ID` header (or `after`); events come exactly once, in order. Heartbeat events keep idle streams open.',
  })
  @ApiQuery({ name: 'turn', required: false, type: Number })
  @ApiQuery({ name: 'after', required: false, type: String })
  async events(
    @Param('id') id: string,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Query('turn') turnQuery: string | undefined,
    @Query('after') afterQuery: string | undefined,
    @Tenant() tenant: string,
  ): Promise<Observable<MessageEvent>> {
    if (!SESSION_ID_PATTERN.test(id)) throw new NotFoundException(`session ${id} not found`);
    const session = await this.turns.get(id, tenant);
    const turn = turnQuery !== undefined && /^\d{1,9}$/.test(turnQuery) ? Number(turnQuery) : session.turn_id;
    const after = isStreamId(lastEventId) ? lastEventId : isStreamId(afterQuery) ? afterQuery : '0-0';
    return this.stream.follow(id, turn, after);
  }
}
