// Process groups: how the project's scripts stop a command together with every
// process it started (n8n and its task runners, the sandbox). Plain JavaScript,
// for scripts/dev.mjs, which runs before Node 24 is there.

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether any process of the group still runs. */
export function groupAlive(group) {
	try {
		process.kill(-group, 0);
		return true;
	} catch (error) {
		return error.code === 'EPERM';
	}
}

/** Sends `signal` to every process of the group; false when none is left. */
export function signalGroup(group, signal) {
	try {
		process.kill(-group, signal);
		return true;
	} catch {
		return false;
	}
}

/** SIGTERM to the group, SIGKILL after `graceMs`; resolves once the group is gone. */
export async function stopGroup(group, graceMs = 15_000) {
	if (!signalGroup(group, 'SIGTERM')) return;
	const deadline = Date.now() + graceMs;
	while (groupAlive(group) && Date.now() < deadline) await sleep(200);
	if (groupAlive(group)) signalGroup(group, 'SIGKILL');
	while (groupAlive(group)) await sleep(100);
}
