// Starts `cudalint lsp` (stdio) for CUDA files: diagnostics, quick fixes, fix-all,
// suppress-on-this-line and hover. What starts the server is in ./launch (no `vscode`
// import there, so that the tests run it under node).
import * as vscode from "vscode";
import {
  LanguageClient,
  LanguageClientOptions,
  RevealOutputChannelOn,
  ServerOptions,
} from "vscode-languageclient/node";

import {
  DOCUMENT_SELECTOR,
  FIX_ALL,
  SECTION,
  ServerCommand,
  needsRestart,
  readSettings,
  serverCommand,
  startFailure,
} from "./launch";

let client: LanguageClient | undefined;
let output: vscode.LogOutputChannel | undefined;
/** Starts and stops one after another (a settings change during a start waits). */
let queue: Promise<void> = Promise.resolve();

function settingsFolder(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

async function start(): Promise<void> {
  const config = vscode.workspace.getConfiguration(SECTION);
  const server: ServerCommand = serverCommand(
    readSettings((key) => config.get(key)),
    settingsFolder(),
  );
  output?.appendLine(
    `[cudalint] starting ${[server.command, ...server.args].join(" ")} (from ${server.origin})`,
  );
  // No `transport`: stdio, without the `--stdio` argument the client would append.
  const executable = { command: server.command, args: server.args, options: server.options };
  const serverOptions: ServerOptions = { run: executable, debug: executable };
  const clientOptions: LanguageClientOptions = {
    documentSelector: DOCUMENT_SELECTOR,
    outputChannel: output,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
  };
  // The id "cudalint" makes the client read the trace level from `cudalint.trace.server`.
  const next = new LanguageClient(SECTION, "cudalint", serverOptions, clientOptions);
  try {
    await next.start();
  } catch (error) {
    const message = startFailure(server, error);
    output?.appendLine(message);
    void next.dispose().catch(() => undefined);
    void vscode.window.showErrorMessage(message, "Open settings").then((choice) => {
      if (choice !== undefined) {
        void vscode.commands.executeCommand("workbench.action.openSettings", SECTION);
      }
    });
    return;
  }
  client = next;
}

async function stop(): Promise<void> {
  const running = client;
  client = undefined;
  if (running !== undefined) {
    try {
      await running.stop();
    } catch (error) {
      output?.appendLine(`[cudalint] stopping the server: ${String(error)}`);
    }
  }
}

/** Runs `step` after the starts and stops before it; a failure is logged, and the
 * steps after it still run. */
function enqueue(step: () => Promise<void>): Promise<void> {
  queue = queue.then(step).catch((error: unknown) => {
    output?.appendLine(`[cudalint] ${String(error)}`);
  });
  return queue;
}

function restart(): Promise<void> {
  return enqueue(async () => {
    await stop();
    await start();
  });
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel("cudalint", { log: true });
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand("cudalint.restart", restart),
    vscode.commands.registerCommand("cudalint.fixAll", () =>
      vscode.commands.executeCommand("editor.action.sourceAction", {
        kind: FIX_ALL,
        apply: "first",
      }),
    ),
    vscode.commands.registerCommand("cudalint.showOutput", () => output?.show()),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (needsRestart((section) => event.affectsConfiguration(section))) {
        output?.appendLine("[cudalint] settings changed: restarting the server");
        void restart();
      }
    }),
  );
  await enqueue(start);
}

export async function deactivate(): Promise<void> {
  await enqueue(stop);
}
