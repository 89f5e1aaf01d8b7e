// How the extension starts cudalint's language server, from its settings. No `vscode`
// import here: node runs this module outside VS Code, and the tests drive the server
// with exactly the command, options and capabilities built here (test/drive.ts).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** The settings section, the language client's id (so `cudalint.trace.server` works). */
export const SECTION = "cudalint";

/** "Fix all": every safe fix of the document (`editor.codeActionsOnSave`). */
export const FIX_ALL = "source.fixAll.cudalint";

/** The code action kinds the server provides: quick fixes (fixes, suppress on this
 * line) and fix-all. */
export const CODE_ACTION_KINDS: readonly string[] = ["quickfix", FIX_ALL];

/** The documents the server sees: CUDA sources, and the C/C++ headers it analyzes
 * when they hold a kernel or a shared array (it ignores the others). */
export const DOCUMENT_SELECTOR = [
  { scheme: "file", language: "cuda-cpp" },
  { scheme: "file", pattern: "**/*.{cu,cuh}" },
  { scheme: "file", pattern: "**/*.{h,hpp,inl}" },
];

export interface Settings {
  /** `cudalint.path`: the cudalint executable (default `cudalint`). */
  path: string;
  /** `cudalint.interpreter`: a Python with cudalint installed; runs `PYTHON -m cudalint lsp`. */
  interpreter: string;
  /** `cudalint.args`: extra arguments after `lsp`. */
  args: string[];
}

/** The settings whose change restarts the server (`cudalint.trace.server` applies
 * without a restart). */
export const RESTART_SETTINGS: readonly string[] = [
  "cudalint.path",
  "cudalint.interpreter",
  "cudalint.args",
];

export const DEFAULT_PATH = "cudalint";

/** The settings from `get` (a `WorkspaceConfiguration.get`); a value of the wrong
 * type counts as unset. */
export function readSettings(get: (key: string) => unknown): Settings {
  const text = (key: string, fallback: string): string => {
    const value = get(key);
    return typeof value === "string" && value.trim() !== "" ? value.trim() : fallback;
  };
  const args = get("args");
  return {
    path: text("path", DEFAULT_PATH),
    interpreter: text("interpreter", ""),
    args: Array.isArray(args) ? args.filter((a): a is string => typeof a === "string") : [],
  };
}

/** Whether a configuration change (`ConfigurationChangeEvent.affectsConfiguration`)
 * needs a new server. */
export function needsRestart(affects: (section: string) => boolean): boolean {
  return RESTART_SETTINGS.some((section) => affects(section));
}

export interface ServerCommand {
  command: string;
  args: string[];
  options: { cwd?: string; env: NodeJS.ProcessEnv };
  /** Which setting chose the command, for the output channel and error messages. */
  origin: "cudalint.interpreter" | "cudalint.path" | "workspace virtual environment" | "PATH";
}

export interface Host {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  home: string;
  exists: (file: string) => boolean;
}

const HOST: Host = {
  platform: process.platform,
  env: process.env,
  home: os.homedir(),
  exists: (file) => {
    try {
      return fs.statSync(file).isFile();
    } catch {
      return false;
    }
  },
};

/** `value` with `${workspaceFolder}`, `${userHome}`, `${env:NAME}` and a leading `~`
 * replaced; a relative path with a directory part is taken from the workspace folder. */
export function expand(value: string, folder: string | undefined, host: Host = HOST): string {
  let out = value
    .replace(/\$\{workspaceFolder\}/g, folder ?? "")
    .replace(/\$\{userHome\}/g, host.home)
    .replace(/\$\{env:([^}]+)\}/g, (_, name: string) => host.env[name] ?? "");
  if (out === "~" || out.startsWith("~/") || out.startsWith("~\\")) {
    out = host.home + out.slice(1);
  }
  const p = host.platform === "win32" ? path.win32 : path.posix;
  const hasDirectory = out.includes("/") || (host.platform === "win32" && out.includes("\\"));
  if (hasDirectory && !p.isAbsolute(out) && folder !== undefined) {
    out = p.resolve(folder, out);
  }
  return out;
}

/** The virtual environments looked for in the workspace folder when neither
 * `cudalint.interpreter` nor `cudalint.path` is set. */
export const WORKSPACE_VENVS: readonly string[] = [".venv", "venv"];

/** The command that starts the server for `folder` (the first workspace folder):
 * `cudalint.interpreter` (`PYTHON -m cudalint lsp`), else a `cudalint.path` other than
 * the default, else the cudalint of a `.venv` or `venv` in the workspace folder, else
 * `cudalint` on PATH. The server runs in the workspace folder. */
export function serverCommand(
  settings: Settings,
  folder: string | undefined,
  host: Host = HOST,
): ServerCommand {
  const options = { cwd: folder, env: { ...host.env } };
  const tail = ["lsp", ...settings.args];
  if (settings.interpreter !== "") {
    return {
      command: expand(settings.interpreter, folder, host),
      args: ["-m", "cudalint", ...tail],
      options,
      origin: "cudalint.interpreter",
    };
  }
  if (settings.path !== DEFAULT_PATH) {
    return { command: expand(settings.path, folder, host), args: tail, options,
             origin: "cudalint.path" };
  }
  if (folder !== undefined) {
    const p = host.platform === "win32" ? path.win32 : path.posix;
    const exe = host.platform === "win32" ? ["Scripts", "cudalint.exe"] : ["bin", "cudalint"];
    for (const venv of WORKSPACE_VENVS) {
      const candidate = p.join(folder, venv, ...exe);
      if (host.exists(candidate)) {
        return { command: candidate, args: tail, options,
                 origin: "workspace virtual environment" };
      }
    }
  }
  return { command: DEFAULT_PATH, args: tail, options, origin: "PATH" };
}

/** What to tell the user when the server did not start. */
export function startFailure(server: ServerCommand, error: unknown): string {
  const why = error instanceof Error ? error.message : String(error);
  const shown = [server.command, ...server.args].join(" ");
  return (
    `cudalint: the language server did not start (${shown}, from ${server.origin}): ${why}. ` +
    "Install it from a clone of the cudalint repository (pip install '.[lsp]') and set " +
    "cudalint.interpreter to that environment's Python, or cudalint.path to its cudalint."
  );
}
