import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { processIsAlive } from '../processIsAlive';

/**
 * Billed calls of the other processes that share this user's storage (the other VS Code windows),
 * per environment, so that a balance difference that holds another window's charge is not taken for
 * this window's spend: issue 37 saw one charge counted by both windows.
 */
export interface SharedBillingActivity {
  open(environment: string): Promise<SharedCall>;
}

export interface SharedCall {
  /** Another process had a call of the environment open when this one opened. */
  readonly othersOpenAtStart: boolean;
  /** Calls of the environment that any process (this one included) opened since this one did; Infinity when that cannot be told. */
  opensSince(): number;
  close(): void;
}

/** The opens file is emptied past this size, when no other process has a call open. */
const OPENS_FILE_RESET_BYTES = 64 * 1024;

/**
 * The files every window shares, under `directory`, per environment: one marker per call in flight
 * (`<pid>-<random>`; a dead process's are ignored and removed) and a file that grows by one byte per
 * call opened (`opens`). A call opened elsewhere while this one is open shows as growth beyond this
 * process's own opens; one opened before it and still open, as a marker. Each call writes its marker
 * before it counts itself and looks at the markers after, so of two calls opened at once each sees
 * the other one way or the other. Files that cannot be written or read hide the other windows, as
 * before these files existed: a call is then measured as if it were alone.
 */
export class FileBillingActivity implements SharedBillingActivity {
  readonly #directory: string;
  readonly #pid: number;
  readonly #isAlive: (pid: number) => boolean;

  constructor(
    directory: string,
    pid = process.pid,
    isAlive: (pid: number) => boolean = processIsAlive,
  ) {
    this.#directory = directory;
    this.#pid = pid;
    this.#isAlive = isAlive;
  }

  async open(environment: string): Promise<SharedCall> {
    const dir = path.join(this.#directory, encodeURIComponent(environment));
    const opens = path.join(dir, 'opens');
    const marker = path.join(dir, `${this.#pid}-${randomUUID()}`);
    try {
      await fs.promises.mkdir(dir, { recursive: true });
      await fs.promises.writeFile(marker, '');
      const othersOpen = await this.#othersOpen(dir, path.basename(marker));
      if (!othersOpen && (await sizeOf(opens)) > OPENS_FILE_RESET_BYTES) await fs.promises.writeFile(opens, '');
      await fs.promises.appendFile(opens, '.');
      const start = await sizeOf(opens);
      return {
        othersOpenAtStart: othersOpen,
        opensSince: () => {
          try {
            const now = fs.statSync(opens).size;
            // Emptied meanwhile (by a window that saw no call open: it missed this one's marker).
            return now < start ? Infinity : now - start;
          } catch {
            return Infinity;
          }
        },
        close: () => {
          void fs.promises.rm(marker, { force: true }).catch(() => undefined);
        },
      };
    } catch {
      await fs.promises.rm(marker, { force: true }).catch(() => undefined);
      return { othersOpenAtStart: false, opensSince: () => 0, close: () => undefined };
    }
  }

  /** Whether a live process other than this one has a marker in `dir`; a dead process's are removed. */
  async #othersOpen(dir: string, own: string): Promise<boolean> {
    let others = false;
    for (const name of await fs.promises.readdir(dir)) {
      const pid = /^(\d+)-/.exec(name)?.[1];
      if (pid === undefined || name === own) continue;
      if (Number(pid) !== this.#pid && this.#isAlive(Number(pid))) others = true;
      else if (Number(pid) !== this.#pid) await fs.promises.rm(path.join(dir, name), { force: true }).catch(() => undefined);
    }
    return others;
  }
}

async function sizeOf(file: string): Promise<number> {
  return fs.promises.stat(file).then((stat) => stat.size, () => 0);
}
