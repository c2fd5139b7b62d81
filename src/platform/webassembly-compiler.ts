import { setFlagsFromString } from 'node:v8';

/**
 * Runs this process's WebAssembly on V8's baseline compiler (Liftoff) alone, never tiering hot
 * functions up to the optimising one (TurboFan). Measured on the embedded database: PGlite's
 * statements take as long either way (its time is in its JavaScript protocol layer and in copying),
 * but the optimising compiles leave ~60 MB of freed-but-kept native memory behind in an idle
 * service, and start-up is 0.15 s shorter (bench/memory.ts). The one WebAssembly that needs the
 * optimising compiler, the sentence encoder's TF.js kernels (1.7× slower without it), runs in a
 * process of its own (retrieval/embedders/embedding-process.ts), which keeps V8's defaults.
 *
 * V8 reads the flag when it compiles a module, so this is called before anything compiles one.
 */
export function compileWebAssemblyWithBaselineOnly(): void {
  setFlagsFromString('--liftoff-only');
}
