// `npm start`'s words for a port in the way, whether its start-up check
// finds it, its check right before n8n starts, or n8n itself when it exits
// ("… port 5679 is already in use", as n8n 2.41.1 and 1.123.81 print it).
import net from 'node:net';

import {
	demoPorts,
	portsInUseIn,
	takenPorts,
	takenPortsText,
} from '../../scripts/demo-preflight.mjs';

const ports = demoPorts({
	N8N_PORT: '5680',
	N8N_RUNNERS_BROKER_PORT: '5681',
	SANDBOX_PORT: '4011',
});

test("n8n's own lines for a port in use name the demo's port, and so its variable", () => {
	const log = [
		'n8n ready on ::, port 5680',
		"n8n Task Broker's port 5681 is already in use. Do you have another instance of n8n running already?",
	].join('\n');
	expect(portsInUseIn(log, ports).map((entry: { variable: string }) => entry.variable)).toEqual([
		'N8N_RUNNERS_BROKER_PORT',
	]);
	expect(
		portsInUseIn(
			"n8n's port 5680 is already in use. Do you have another instance of n8n running already?",
			ports,
		),
	).toEqual([ports[0]]);
	// A port that is not the demo's, and a log with none, name nothing.
	expect(portsInUseIn('Port 5690 is already in use', ports)).toEqual([]);
	expect(portsInUseIn('n8n ready on ::, port 5680', ports)).toEqual([]);
});

test('the text names each port, what it is for, and the variable that moves it', () => {
	expect(takenPortsText([ports[1]])).toBe(
		"A port that npm start needs is taken by another program:\n  • port 5681, for n8n's task broker (for its Code node runners): set N8N_RUNNERS_BROKER_PORT to use another, for example N8N_RUNNERS_BROKER_PORT=5781 npm start",
	);
	expect(takenPortsText([ports[0], ports[2]])).toMatch(
		/^Ports that npm start needs are taken by another program:\n {2}• port 5680, .*N8N_PORT=5780 npm start\n {2}• port 4011, .*SANDBOX_PORT=4111 npm start$/,
	);
});

test('takenPorts finds a port another program listens on, and only that one', async () => {
	const blocker = net.createServer();
	await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
	const port = (blocker.address() as net.AddressInfo).port;
	try {
		const entries = demoPorts({ N8N_RUNNERS_BROKER_PORT: String(port), SANDBOX_PORT: '0' }).filter(
			(entry: { variable: string }) => entry.variable !== 'N8N_PORT',
		);
		expect((await takenPorts(entries)).map((entry: { port: number }) => entry.port)).toEqual([
			port,
		]);
	} finally {
		await new Promise((resolve) => blocker.close(resolve));
	}
});
