/** What an item the service's breaker kept from being sent says (breaker.ts), in counts of what failed. */
import type { Subject } from '../../helpers/interfaces';
import type { ServiceDown } from '../pace/breaker';
import { BREAKER_PAUSE_MS } from '../pace/breaker';
import type { FailureText } from './words';
import { capitalize, describeSubject, duration, SERVICE, times } from './words';

function failureLabels(labels: Record<string, number>): string {
	const names: Record<string, [string, string]> = {
		timeout: ['timeout', 'timeouts'],
		reset: ['reset connection', 'reset connections'],
		refused: ['refused connection', 'refused connections'],
		dns: ['failed DNS lookup', 'failed DNS lookups'],
		tls: ['rejected TLS certificate', 'rejected TLS certificates'],
		other: ['network error', 'network errors'],
	};
	const parts = Object.entries(labels)
		.sort((a, b) => b[1] - a[1])
		.map(([label, count]) => {
			const [one, many] = names[label] ?? [`answer with ${label}`, `answers with ${label}`];
			return `${count} ${count === 1 ? one : many}`;
		});
	return parts.length > 1
		? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`
		: (parts[0] ?? '');
}

export function serviceDownReason(down: ServiceDown): string {
	const which =
		down.failed === down.of
			? `the last ${down.failed} requests`
			: `${down.failed} of the last ${down.of} requests`;
	return `${which} to ${SERVICE} failed with no useful answer (${failureLabels(down.labels)}), the last of them a probe sent after a ${duration(BREAKER_PAUSE_MS)} pause`;
}

export function serviceDownText(
	down: ServiceDown,
	sends: number,
	last: FailureText | undefined,
	subject: Subject,
): FailureText {
	const why = `${capitalize(serviceDownReason(down))}.`;
	if (last === undefined) {
		return {
			message: `Not sent: ${SERVICE} looked down, so the node stopped sending to it. Send the request to ${subject.verb} ${describeSubject(subject)} once the service is back.`,
			description: `${why} This item never reached the service.`,
		};
	}
	return {
		message: `${last.message} The item was sent ${times(sends)}, and not again: ${SERVICE} looked down.`,
		description: `${why}\n\n${last.description}`,
	};
}
