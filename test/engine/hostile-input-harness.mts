// What the hostile-input suites share (hostile-input.test.mts,
// hostile-input-values.test.mts): how many generated batches each property
// runs (FC_RUNS), and the text no URL or request body can carry faithfully.

export const RUNS = Number(process.env.FC_RUNS ?? 15);

/** Half a surrogate pair: no UTF-8 form, so no URL can carry it faithfully. */
export const brokenCharacter = (text: string) => !text.isWellFormed();
