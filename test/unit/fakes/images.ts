import type { ImageRequest, ImageResult } from '../../../src/core/api/types';
import type { ImageGenerationPorts, SaveResolution } from '../../../src/core/images/imageGeneration';
import type { BillingMeter } from '../../../src/core/usage/billedCall';
import { FakeLog } from './account';

/** A written image in the fake folder: the names of the image and its sidecar. */
export interface FakeWritten {
  image: string;
  sidecar: string;
}

/**
 * An image generation's ports (core/images/imageGeneration.ts) over an in-memory folder: the test
 * sets where saving goes, what the service answers and whether writing fails, and reads the files,
 * the progress messages, the requests sent and the log.
 */
export class FakeImagePorts implements ImageGenerationPorts<string, FakeWritten> {
  resolution: SaveResolution<string> = { ok: true, target: 'images' };
  /** The service's answer to a request; may throw, or wait on the signal. */
  respond: (signal: AbortSignal) => Promise<ImageResult> = () => Promise.reject(new Error('no answer scripted'));
  writeFails: Error | undefined;
  readonly files = new Map<string, Uint8Array>();
  readonly progress: string[] = [];
  readonly requests: Array<{ env: string; request: ImageRequest }> = [];
  readonly log = new FakeLog();
  #abort: AbortController | undefined;

  constructor(readonly meter: BillingMeter) {}

  async resolveTarget(): Promise<SaveResolution<string>> {
    return this.resolution;
  }

  async withProgress<T>(run: (report: (message: string) => void, signal: AbortSignal) => Promise<T>): Promise<T> {
    this.#abort = new AbortController();
    return run((message) => this.progress.push(message), this.#abort.signal);
  }

  /** The progress notification's Cancel button. */
  cancel(): void {
    this.#abort?.abort();
  }

  async generate(env: string, request: ImageRequest, signal: AbortSignal): Promise<ImageResult> {
    this.requests.push({ env, request });
    return this.respond(signal);
  }

  /** Never overwrites: a taken name gets a number, as the real writer's candidates do. */
  async write(target: string, baseName: string, extension: string, bytes: Uint8Array, sidecarFor: (imageName: string) => Uint8Array): Promise<FakeWritten> {
    if (this.writeFails) throw this.writeFails;
    let image = `${target}/${baseName}.${extension}`;
    for (let n = 2; this.files.has(image); n++) image = `${target}/${baseName}-${n}.${extension}`;
    const sidecar = `${image}.json`;
    this.files.set(image, bytes);
    this.files.set(sidecar, sidecarFor(image));
    return { image, sidecar };
  }

  describe(written: FakeWritten): string {
    return written.image;
  }

  /** A sidecar's JSON. */
  sidecar(name: string): Record<string, unknown> {
    const bytes = this.files.get(name);
    if (!bytes) throw new Error(`no file ${name}`);
    return JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
  }
}
