import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'nl2p:public';

/** Routes anyone may call (health): no API key, no rate limit. */
export const Public = () => SetMetadata(IS_PUBLIC, true);
