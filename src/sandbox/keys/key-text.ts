// The randomness and the hashing of managed API keys, which the domain (domain/api-keys.ts) leaves
// to the edge: a key is 24 random bytes (192 bits), so one SHA-256 is enough to store it; no
// slower hash is needed against guessing, as it would be for a password a person chose.
import { createHash, randomBytes } from 'node:crypto';
import { managedKeyText } from '../domain/api-keys.js';

export const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex');

/** A new key, as it is shown once. */
export const newKeyText = (): string => managedKeyText(randomBytes(24).toString('base64url'));

/** A new key's public name. */
export const newKeyId = (): string => `key_${randomBytes(8).toString('hex')}`;
