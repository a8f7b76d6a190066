/** The numbers the editor's descriptions state and the run side keeps to, written once. */

export const MAX_IN_FLIGHT = 32;
// One service's sockets stay within half the 1,024 open files many Linux hosts allow a process.
export const MAX_BATCH_SIZE = 512;
export const DEFAULT_TIMEOUT_MS = 300_000;
export const NO_PAUSE_MS = 0;
export const DEFAULT_MAX_RETRIES = 10;
export const DEFAULT_MAX_WAIT_SECONDS = 60;
export const DEFAULT_WINDOW_MINUTES = 60;
