export declare function leadingJson(text: string): unknown;
export declare function resultDataOf(stdout: string): unknown;
