// Debian's chromium, driven by playwright-core. Never a browser download.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';

import { chromium, type Browser } from 'playwright-core';

import { ARTIFACTS } from './n8n.mts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOTS = path.join(ARTIFACTS, 'screenshots');

/** Playwright gives every launch a fresh, empty profile (--user-data-dir) of its own. */
export async function launchChromium(): Promise<Browser> {
	if (!existsSync(CHROMIUM)) {
		throw new Error(`No browser at ${CHROMIUM}. Install Debian's chromium: apt-get install -y chromium`);
	}
	mkdirSync(SCREENSHOTS, { recursive: true });
	return await chromium.launch({
		executablePath: CHROMIUM,
		headless: true,
		args: [
			'--no-sandbox',
			'--disable-gpu',
			'--no-first-run',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
			'--disable-quic',
		],
	});
}

export const screenshotPath = (name: string) => path.join(SCREENSHOTS, `${name}.png`);
