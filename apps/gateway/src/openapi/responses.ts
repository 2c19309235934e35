import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import type { z } from 'zod';
import { ErrorBodySchema } from '@nl2p/envelope';
import { ref } from './components';

/** A success answer and the schema of its body (a component generated from the view's zod schema). */
export function ApiView(status: number, schema: z.ZodType, description: string) {
  return ApiResponse({ status, description, schema: ref(schema) });
}

type ErrorStatus = 400 | 401 | 404 | 409 | 413 | 429 | 502 | 503;

/** Error answers an operation (or every operation of a controller) can give, each with why. */
export function ApiErrors(errors: Partial<Record<ErrorStatus, string>>) {
  return applyDecorators(
    ...Object.entries(errors).map(([status, description]) =>
      ApiResponse({ status: Number(status), description, schema: ref(ErrorBodySchema) }),
    ),
  );
}

/** What any authenticated operation can answer before it runs. */
export const AUTH_ERRORS = {
  401: 'No API key, or one this deployment does not know (`Authorization: Bearer <key>`)',
  429: "The tenant's rate limit (`RATE_LIMIT_PER_MINUTE`) or concurrent turns limit; see `Retry-After`",
} as const;

/** What any operation with a JSON body can answer about the body itself. */
export const BODY_ERRORS = {
  400: 'A field is missing, unknown or out of range (the message lists each)',
  413: 'The body is larger than `MAX_BODY_BYTES`',
} as const;
