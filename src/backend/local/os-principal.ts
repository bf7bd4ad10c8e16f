import { userInfo } from 'node:os';

/** `os:NAME`, the principal of a command run on this machine (the journal's "what made the change"). */
export function osPrincipal(): string {
  try {
    return `os:${userInfo().username}`;
  } catch {
    return 'os:unknown';
  }
}
