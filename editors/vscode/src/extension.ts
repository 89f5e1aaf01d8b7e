// Starts `cudalint lsp` (stdio) for CUDA files: diagnostics, quick fixes and hover.
import * as vscode from "vscode";
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  TransportKind,
} from "vscode-languageclient/node";

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const config = vscode.workspace.getConfiguration("cudalint");
  const command = config.get<string>("path", "cudalint");
  const args = ["lsp", ...config.get<string[]>("args", [])];
  const serverOptions: ServerOptions = {
    run: { command, args, transport: TransportKind.stdio },
    debug: { command, args, transport: TransportKind.stdio },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "cuda-cpp" },
      { scheme: "file", pattern: "**/*.{cu,cuh}" },
    ],
  };
  client = new LanguageClient("cudalint", "cudalint", serverOptions, clientOptions);
  context.subscriptions.push(
    vscode.commands.registerCommand("cudalint.restart", async () => {
      await client?.restart();
    }),
  );
  await client.start();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
