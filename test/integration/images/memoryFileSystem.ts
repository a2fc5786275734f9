import * as vscode from 'vscode';

/**
 * A small in-memory file system for a scheme of the test's choosing: stands for virtual workspaces
 * (and, with `readonly`, for read-only ones) where the extension must write through vscode.workspace.fs.
 */
export class MemoryFileSystem implements vscode.FileSystemProvider {
  readonly files = new Map<string, Uint8Array>();
  readonly folders = new Set<string>(['/']);
  readonly #onDidChangeFile = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.#onDidChangeFile.event;

  /** `failWrites`: a writable file system whose writes fail all the same (a full disk, a dropped connection). */
  constructor(private readonly readonly = false, private readonly failWrites = false) {}

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const file = this.files.get(uri.path);
    if (file) return { type: vscode.FileType.File, ctime: 0, mtime: 0, size: file.length };
    if (this.folders.has(uri.path)) return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    throw vscode.FileSystemError.FileNotFound(uri);
  }

  readDirectory(uri: vscode.Uri): [string, vscode.FileType][] {
    const prefix = uri.path.endsWith('/') ? uri.path : `${uri.path}/`;
    const children = (paths: Iterable<string>, type: vscode.FileType) =>
      [...paths].filter((p) => p !== prefix && p.startsWith(prefix) && !p.slice(prefix.length).includes('/')).map((p) => [p.slice(prefix.length), type] as [string, vscode.FileType]);
    return [...children(this.files.keys(), vscode.FileType.File), ...children(this.folders, vscode.FileType.Directory)];
  }

  createDirectory(uri: vscode.Uri): void {
    this.#writable(uri);
    this.folders.add(uri.path);
  }

  readFile(uri: vscode.Uri): Uint8Array {
    const file = this.files.get(uri.path);
    if (!file) throw vscode.FileSystemError.FileNotFound(uri);
    return file;
  }

  writeFile(uri: vscode.Uri, content: Uint8Array, options: { create: boolean; overwrite: boolean }): void {
    this.#writable(uri);
    if (this.failWrites) throw vscode.FileSystemError.Unavailable(uri);
    const exists = this.files.has(uri.path);
    if (exists && !options.overwrite) throw vscode.FileSystemError.FileExists(uri);
    if (!exists && !options.create) throw vscode.FileSystemError.FileNotFound(uri);
    this.files.set(uri.path, content);
  }

  delete(uri: vscode.Uri): void {
    this.#writable(uri);
    this.files.delete(uri.path);
  }

  rename(): void {
    throw vscode.FileSystemError.NoPermissions('rename is not supported here');
  }

  #writable(uri: vscode.Uri): void {
    if (this.readonly) throw vscode.FileSystemError.NoPermissions(uri);
  }
}
