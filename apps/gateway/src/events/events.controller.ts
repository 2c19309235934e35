import { Controller, Headers, NotFoundException, Param, Query, Sse, type MessageEvent } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiErrors, AUTH_ERRORS } from '../openapi/responses';
import type { Observable } from 'rxjs';
import { SESSION_ID_PATTERN } from '@nl2p/envelope';
import { TurnService } from '../sessions/turn.service';
import { EventStreamService, isStreamId } from './event-stream.service';
import { Tenant } from '../auth/tenant.decorator';

@ApiTags('sessions')
@ApiErrors(AUTH_ERRORS)
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
  @ApiProduces('text/event-stream')
  @ApiResponse({
    status: 200,
    description:
      'Events `turn_start`, `node_start`, `node_end`, `draft_delta`, `interrupt`, `error`, `turn_end` (data: the event as JSON), `heartbeat`, and last `end` (`{turn_id, status}`)',
    content: { 'text/event-stream': { schema: { type: 'string' } } },
  })
  @ApiErrors({ 404: 'No such session for this API key' })
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
