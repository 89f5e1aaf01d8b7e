// Runs src/extension.ts (bundled with vscode-languageclient left external:
// out/test/extension-stubbed.js) under node with stand-ins for `vscode` and for the
// language client, and prints what it did as JSON: the client it constructs from the
// settings, the commands it registers, a restart when cudalint.interpreter changes and
// none when only cudalint.trace.server does, the fix-all command, the message when the
// server cannot start, and the stop on deactivate. The client's real work (spawning
// `cudalint lsp` and speaking LSP with it) is driven by test/drive.ts.
import Module from "node:module";
import * as path from "node:path";

type Change = { affectsConfiguration(section: string): boolean };
type Handler = (...args: unknown[]) => unknown;

const settings: Record<string, unknown> = {};
const log: string[] = [];
const errors: string[] = [];
const executed: unknown[][] = [];
const commands = new Map<string, Handler>();
let onConfiguration: ((change: Change) => void) | undefined;

interface Executable {
  command: string;
  args: string[];
  options: { cwd?: string };
}

class StubClient {
  state = "new";
  constructor(
    public id: string,
    public name: string,
    public serverOptions: { run: Executable; debug: Executable },
    public clientOptions: { documentSelector: unknown },
  ) {
    clients.push(this);
  }
  async start(): Promise<void> {
    if (this.serverOptions.run.command === "/nowhere/cudalint") {
      this.state = "failed";
      throw new Error("spawn /nowhere/cudalint ENOENT");
    }
    this.state = "running";
  }
  async stop(): Promise<void> {
    this.state = "stopped";
  }
  async dispose(): Promise<void> {
    this.state = "disposed";
  }
}
const clients: StubClient[] = [];

const disposable = { dispose: (): void => undefined };
const vscode = {
  workspace: {
    workspaceFolders: [{ uri: { fsPath: "/work/project" } }],
    getConfiguration: (section: string) => ({
      get: (key: string): unknown => settings[`${section}.${key}`],
    }),
    onDidChangeConfiguration: (listener: (change: Change) => void) => {
      onConfiguration = listener;
      return disposable;
    },
  },
  window: {
    createOutputChannel: () => ({
      appendLine: (line: string) => log.push(line),
      show: (): void => undefined,
      dispose: (): void => undefined,
    }),
    showErrorMessage: async (message: string): Promise<undefined> => {
      errors.push(message);
      return undefined;
    },
  },
  commands: {
    registerCommand: (id: string, handler: Handler) => {
      commands.set(id, handler);
      return disposable;
    },
    executeCommand: async (...args: unknown[]): Promise<void> => {
      executed.push(args);
    },
  },
};
const languageClient = { LanguageClient: StubClient, RevealOutputChannelOn: { Never: 4 } };

const loader = Module as unknown as {
  _load: (request: string, parent: unknown, isMain: boolean) => unknown;
};
const load = loader._load;
loader._load = function (request: string, parent: unknown, isMain: boolean): unknown {
  if (request === "vscode") return vscode;
  if (request === "vscode-languageclient/node") return languageClient;
  return load.call(this, request, parent, isMain);
};

interface Extension {
  activate(context: { subscriptions: unknown[] }): Promise<void>;
  deactivate(): Promise<void>;
}

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 50));

function change(...sections: string[]): void {
  // as VS Code's event: a section is affected when a changed key is it or under it
  onConfiguration?.({
    affectsConfiguration: (s) => sections.some((c) => c === s || c.startsWith(s + ".")),
  });
}

function snapshot(): unknown {
  return clients.map((c) => ({
    id: c.id,
    name: c.name,
    state: c.state,
    run: {
      command: c.serverOptions.run.command,
      args: c.serverOptions.run.args,
      cwd: c.serverOptions.run.options.cwd,
    },
    debugSame: c.serverOptions.debug === c.serverOptions.run,
    documentSelector: c.clientOptions.documentSelector,
  }));
}

async function main(): Promise<void> {
  const requireHere = Module.createRequire(__filename);
  const extension = requireHere(path.join(__dirname, "extension-stubbed.js")) as Extension;
  const context = { subscriptions: [] as unknown[] };
  const steps: Record<string, unknown> = {};

  settings["cudalint.args"] = ["--debounce-ms", "50"];
  await extension.activate(context);
  steps.activated = snapshot();
  steps.commands = [...commands.keys()];
  steps.subscriptions = context.subscriptions.length;

  settings["cudalint.interpreter"] = "${workspaceFolder}/.venv/bin/python";
  change("cudalint.interpreter", "cudalint");
  await settle();
  steps.interpreterChanged = snapshot();

  settings["cudalint.trace.server"] = "verbose";
  change("cudalint.trace.server", "cudalint.trace", "cudalint");
  await settle();
  steps.traceChanged = snapshot();

  change("editor.fontSize", "editor");
  await settle();
  steps.otherChanged = clients.length;

  await commands.get("cudalint.fixAll")?.();
  steps.fixAll = executed;

  settings["cudalint.interpreter"] = "";
  settings["cudalint.path"] = "/nowhere/cudalint";
  await commands.get("cudalint.restart")?.();
  steps.failed = snapshot();
  steps.errors = errors;

  settings["cudalint.path"] = "cudalint";
  change("cudalint.path", "cudalint");
  await settle();
  await extension.deactivate();
  steps.deactivated = snapshot();
  steps.log = log;
  process.stdout.write(JSON.stringify(steps) + "\n");
}

main().catch((error: unknown) => {
  process.stderr.write(`activate: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
