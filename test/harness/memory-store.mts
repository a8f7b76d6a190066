// A ProcessedStore (run/memory/processedStore.ts) over one row in memory, as
// n8n's store for processed items keeps it: keys in order of recording, no
// lock. `staleWrite` replays a write made from an older read, as another
// execution's can land in n8n: whatever was recorded since that read is lost.
import type {
	Clearing,
	ProcessedStore,
} from '../../nodes/OutreachSequences/run/memory/processedStore.ts';

export class MemoryStore implements ProcessedStore {
	row: string[] = [];
	calls = 0;
	/** How many times the whole row went in one step (clearIfOnly). */
	cleared = 0;

	async checkAndRecord(keys: string[]): Promise<Set<string>> {
		this.calls++;
		const there = new Set(keys.filter((key) => this.row.includes(key)));
		for (const key of keys) if (!there.has(key) && !this.row.includes(key)) this.row.push(key);
		return there;
	}

	async remove(keys: string[]): Promise<void> {
		this.calls++;
		for (const key of keys) {
			const at = this.row.indexOf(key);
			if (at !== -1) this.row.splice(at, 1);
		}
	}

	async clearIfOnly(count: number): Promise<Clearing> {
		this.calls++;
		if (this.row.length !== count) return { cleared: false, length: this.row.length };
		this.row = [];
		this.cleared++;
		return { cleared: true };
	}

	/** What the row holds now, for a write made later from this read. */
	read(): string[] {
		return [...this.row];
	}

	/** Another execution's write, made from `read` plus its own `keys`, lands now. */
	staleWrite(read: string[], keys: string[]): void {
		this.row = [...read, ...keys.filter((key) => !read.includes(key))];
	}
}
