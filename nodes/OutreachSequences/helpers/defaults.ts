/**
 * The numbers the editor's descriptions state and the run side keeps to:
 * written once here.
 */

/**
 * Requests in flight at once when Batching is off. Without a bound, 10,000
 * items would open 10,000 sockets at the same moment.
 */
export const MAX_IN_FLIGHT = 32;
/**
 * The most Items per Batch allows: one service's sockets stay within half of
 * the 1,024 files a process may open on many Linux hosts.
 */
export const MAX_BATCH_SIZE = 512;
/** n8n's own limit for a request when the user sets no timeout. */
export const DEFAULT_TIMEOUT_MS = 300_000;
/** Without Batching, the next request waits for no pause. */
export const NO_PAUSE_MS = 0;
/** Request Options › Rate Limit Handling › Max Retries per Item. */
export const DEFAULT_MAX_RETRIES = 10;
/** Request Options › Rate Limit Handling › Max Wait (Seconds). */
export const DEFAULT_MAX_WAIT_SECONDS = 60;
/** Request Options › Skip Items Done Before › Window (Minutes): how long the memory keeps what the service confirmed. */
export const DEFAULT_WINDOW_MINUTES = 60;
