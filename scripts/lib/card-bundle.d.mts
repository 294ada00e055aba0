import type { BuildOptions, Plugin } from 'esbuild';

export declare const zodEnglishOnly: Plugin;
export declare const cardBundle: { readonly entry: string; readonly outfile: string; readonly options: BuildOptions };
