import { createHash, timingSafeEqual } from 'node:crypto';

/** One configured key: the tenant it belongs to and the SHA-256 of the key (never the key). */
export interface ApiKeyEntry {
  tenant: string;
  sha256: Buffer;
}

export function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/**
 * Finds the tenant of a presented key. Every configured hash is compared in constant time, so
 * neither a match's position nor a near miss shows in the timing.
 */
export function tenantOfKey(entries: readonly ApiKeyEntry[], presented: string): string | null {
  const digest = sha256(presented);
  let tenant: string | null = null;
  for (const entry of entries) {
    if (timingSafeEqual(entry.sha256, digest) && tenant === null) tenant = entry.tenant;
  }
  return tenant;
}

/** The bearer token of an `Authorization` header, or null. */
export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match ? match[1] : null;
}
