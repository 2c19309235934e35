/** Injection tokens of the infrastructure module (kept apart to avoid import cycles). */
export const REDIS = Symbol('REDIS');
export const SESSION_STORE = Symbol('SESSION_STORE');
