// What pay-widget/server/sqlite uses of Node's modules, for `tsc -p tsconfig.build.json` only (it
// builds dist/types with no @types/node, so that merchants' types never need it); npm run typecheck
// uses @types/node itself (tsconfig.json leaves this file out).
declare module 'node:fs' {
  export function mkdirSync(path: string, options: { recursive: true; mode?: number }): string | undefined;
  export function openSync(path: string, flags: string, mode?: number): number;
  export function closeSync(fd: number): void;
  export function existsSync(path: string): boolean;
  export function statSync(path: string): { mode: number };
}
declare module 'node:module' {
  export function createRequire(from: string): (id: string) => unknown;
}
declare module 'node:os' {
  export function platform(): string;
}
declare module 'node:path' {
  export function dirname(path: string): string;
  export function resolve(...paths: string[]): string;
}
declare module 'node:http' {
  export interface IncomingMessage {
    readonly readableEnded: boolean;
    headers: Record<string, string | string[] | undefined>;
  }
  export interface ServerResponse {}
}
declare module 'node:buffer' {
  export class Buffer extends Uint8Array {
    static isBuffer(value: unknown): value is Buffer;
    static from(text: string): Buffer;
  }
}
