import { readFile } from 'node:fs';
import * as nodeFs from 'node:fs/promises';

/** The few file operations the store needs; the benchmark counts bytes through them. */
export interface HistoryFileSystem {
  readFile(file: string): Promise<string>;
  /** The bytes undecoded: search looks for its words before paying for UTF-8 decoding. */
  readBytes(file: string): Promise<Buffer>;
  /** Size and modification time: what the history index compares a log against. */
  stat(file: string): Promise<{ size: number; mtimeMs: number }>;
  writeFile(file: string, data: string): Promise<void>;
  appendFile(file: string, data: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  rm(file: string): Promise<void>;
  readdir(dir: string): Promise<string[]>;
  mkdir(dir: string): Promise<void>;
}

export const nodeFileSystem: HistoryFileSystem = {
  readFile: (file) => nodeFs.readFile(file, 'utf8'),
  // The callback form reads a small file in one pass; the promise form takes several trips through
  // libuv's thread pool, which made it several times slower for search's thousands of files here.
  readBytes: (file) => new Promise((resolve, reject) => readFile(file, (error, bytes) => (error ? reject(error) : resolve(bytes)))),
  stat: async (file) => {
    const { size, mtimeMs } = await nodeFs.stat(file);
    return { size, mtimeMs };
  },
  writeFile: (file, data) => nodeFs.writeFile(file, data, 'utf8'),
  appendFile: (file, data) => nodeFs.appendFile(file, data, 'utf8'),
  rename: (from, to) => nodeFs.rename(from, to),
  rm: (file) => nodeFs.rm(file, { force: true }),
  readdir: (dir) => nodeFs.readdir(dir),
  mkdir: async (dir) => void (await nodeFs.mkdir(dir, { recursive: true })),
};
