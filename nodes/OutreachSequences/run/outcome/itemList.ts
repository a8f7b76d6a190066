/** Items as the texts list them: by the 0-based numbers n8n shows beside an error, the first by name. */
import { itemLabel } from './words';

export function itemNumbers(indices: number[], parts = 5): string {
	const runs: number[][] = [];
	for (const index of indices) {
		const last = runs[runs.length - 1];
		if (last && index === last[last.length - 1] + 1) last.push(index);
		else runs.push([index]);
	}
	const all = runs.flatMap((run) => (run.length >= 3 ? [run] : run.map((index) => [index])));
	const text = (part: number[]) =>
		part.length === 1 ? String(part[0]) : `${part[0]} to ${part[part.length - 1]}`;
	if (all.length > parts) {
		const rest = all.slice(parts).reduce((sum, part) => sum + part.length, 0);
		return `${all.slice(0, parts).map(text).join(', ')} and ${rest} more`;
	}
	const texts = all.map(text);
	return texts.length > 1
		? `${texts.slice(0, -1).join(', ')} and ${texts[texts.length - 1]}`
		: texts[0];
}

export function namedItems(indices: number[], labels: Record<number, string>): string {
	const [first, ...rest] = indices;
	const label = labels[first];
	if (label === undefined)
		return rest.length === 0 ? `item ${first}` : `items ${itemNumbers(indices, 3)}`;
	const head = `${first} ("${itemLabel(label)}")`;
	if (rest.length === 0) return `item ${head}`;
	const tail = itemNumbers(rest, 2);
	return `items ${head}${tail.includes(' and ') ? ', ' : ' and '}${tail}`;
}
