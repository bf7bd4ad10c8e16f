import type { Browser } from 'playwright-core';
import { programPath } from './programs.js';

/**
 * Debian's Chromium, headless, driven by playwright-core (imported here, when a test first needs it). Callers check
 * first that `chromium` is installed (`requirePrograms` or `onPath`).
 */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: programPath('chromium'), // Debian's /usr/bin/chromium
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });
}
