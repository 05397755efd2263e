// Debian's Chromium (apt-get install -y chromium), headless, with nothing reaching out on its own: the browser both
// the console tests and the console bench drive through playwright-core.
import { chromium } from 'playwright-core';

export const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run'];

export function launchChromium() {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: FLAGS });
}
