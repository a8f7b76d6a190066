// A port another program holds, as on a newcomer's machine while `npm start`
// runs: taken on 127.0.0.1 at once, or once a command's output shows a line,
// and given back.
import net from 'node:net';

import { until, type Command } from './clone.mts';

/** Takes `port` on 127.0.0.1, as another program would. */
export async function takePort(port: number): Promise<net.Server> {
	const blocker = net.createServer();
	await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
	return blocker;
}

/** Gives back a port `takePort` took. */
export async function releasePort(blocker: net.Server): Promise<void> {
	await new Promise((resolve) => blocker.close(resolve));
}

/** Takes `port` on 127.0.0.1 once `command`'s output shows `line`, as another program would while npm start is busy. */
export async function takePortWhen(
	command: Command,
	line: string,
	port: number,
): Promise<net.Server> {
	await until(
		() => command.output().includes(line) || command.child.exitCode !== null,
		10 * 60_000,
		() => command.output().slice(-2000),
	);
	expect(command.output()).toContain(line);
	return await takePort(port);
}
